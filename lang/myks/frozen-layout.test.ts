// Where frozen application values go (spec: "Frozen values with nothing left to do (no
// TODO(myks migrate) marker) need no block of their own: they are written into the
// declaration, or the override, the level states anyway"), proved against lang/ytt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from './migrate.js';
import { repo } from '../../test/support/myks-repo.js';

const APPS = '#@data/values\n---\nenvironment:\n  applications:\n  - proto: web\n';
const PROD = '#@data/values\n---\nenvironment:\n  id: prod\n';
const CHARTS = (n: string) => `#@data/values\n---\nhelm:\n  charts:\n  - name: ${n}\n`;
const HOST =
  '#@ load("@myks:data.lib.yaml", "env_data")\n#@data/values\n---\napplication:\n  host: #@ "web." + env_data.environment.id\n';
const PROTO = '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  host: ""\n';

const blocks = (t: string): number => t.split('_apps: myks.Apps {').length - 1;

test('frozen values with nothing left to do join the block the level states; TODO ones get their own', () => {
  const cases: [string, Record<string, string>, string, number, RegExp][] = [
    [
      'an override: the leaf says something about an application declared above',
      {
        'envs/env-data.yaml': APPS,
        'envs/_apps/web/app-data.yaml': CHARTS('a'),
        'envs/prod/_apps/web/app-data.yaml': CHARTS('b'),
      },
      'envs/prod/app-web.k',
      1,
      /\n {4}web\.helm: \{\n {8}# Frozen from the legacy-resolved output[^\n]*\n {8}charts = \[\n(?:[^\n]*\n)*? {16}name = "a"\n/,
    ],
    [
      'a declaration: the leaf declares the application (it had a line of apps.k)',
      {
        'envs/env-data.yaml': '#@data/values\n---\nenvironment:\n  applications: []\n',
        'envs/prod/env-data.yaml': PROD + '  applications:\n  - proto: web\n',
        'envs/prod/_proto/web/app-data.yaml': CHARTS('a'),
        'envs/prod/_apps/web/app-data.yaml': CHARTS('b'),
      },
      'envs/prod/app-web.k',
      1,
      /\n {4}web = web\.Web \{\n {8}helm: \{\n {12}# Frozen[^\n]*\n {12}charts = \[/,
    ],
    [
      'a computed value keeps its block and its TODO, next to the folded ones',
      {
        'envs/env-data.yaml': APPS,
        'prototypes/web/app-data.yaml': PROTO,
        'envs/_apps/web/app-data.yaml': CHARTS('a'),
        'envs/prod/_apps/web/app-data.yaml': CHARTS('b'),
        'envs/prod/_apps/web/app-data.host.yaml': HOST,
      },
      'envs/prod/app-web.k',
      2,
      /charts = \[[\s\S]*\}\n\n_apps: myks\.Apps \{\n {4}# TODO\(myks migrate\)[^\n]*\n {4}web\.application\.host = "web\.prod"\n\}\n$/,
    ],
  ];
  for (const [what, files, path, n, want] of cases) {
    const r = migrate(repo({ 'envs/prod/env-data.yaml': PROD, ...files }), 'repo');
    assert.deepEqual(r.differences, [], what);
    const text = r.files.get(path) ?? '';
    assert.equal(blocks(text), n, `${what}:\n${text}`);
    assert.match(text, want, what);
  }
});

test('a level directory that is not a KCL identifier is written under one, and the rename reported', () => {
  const r = migrate(
    repo({
      'envs/env-data.yaml': APPS,
      'envs/prod-eu/env-data.yaml': PROD.replace('prod', 'prod-eu'),
      'envs/prod-eu/_apps/web/app-data.yaml': CHARTS('a'),
      'envs/prod_eu/env-data.yaml': PROD.replace('prod', 'prod_eu'),
      'envs/prod_eu/1st/env-data.yaml': PROD.replace('prod', 'first'),
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  const paths = [...r.files.keys()].filter((p) => p.startsWith('envs/prod'));
  assert.deepEqual(paths.sort(), [
    'envs/prod_eu/_1st/env.k',
    'envs/prod_eu/env.k',
    'envs/prod_eu_2/app-web.k',
    'envs/prod_eu_2/env.k',
  ]);
  assert.match(r.files.get('envs/prod_eu/_1st/env.k')!, /\nimport envs\.prod_eu as parent\n/);
  assert.match(r.files.get('main.k')!, /\nimport envs\.prod_eu_2 as prod_eu_2\n/);
  for (const w of [
    'envs/prod-eu: renamed to envs/prod_eu_2 (a KCL package name must be an identifier)',
    'envs/prod_eu/1st: renamed to envs/prod_eu/_1st (a KCL package name must be an identifier)',
  ])
    assert.ok(r.warnings.includes(w), `${w}\n${r.warnings.join('\n')}`);
});

test('array semantics the tree cannot promise to ytt templates are reported', () => {
  const r = migrate(
    repo({
      'envs/env-data.00-schema.yaml':
        '#@data/values-schema\n---\n#@overlay/match missing_ok=True\ngrafana:\n  dashboards: [""]\nargocd:\n  #@overlay/match missing_ok=True\n  extra: [""]\n',
      'envs/env-data.yaml':
        APPS + 'grafana:\n  dashboards: [a, b]\nhelm:\n  capabilities: [cap-a]\nargocd:\n  extra: [e]\n',
      'envs/prod/env-data.yaml': PROD + 'grafana:\n  dashboards: [c]\nhelm:\n  capabilities: [cap-b]\n',
      'envs/prod/_apps/web/app-data.yaml': '#@data/values\n---\nargocd:\n  extra: [f]\n',
      'envs/_apps/web/app-data.yaml': '#@data/values\n---\nargocd:\n  extra: [g]\n',
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  const arrays = r.warnings.filter((w) => w.startsWith('array'));
  assert.deepEqual(arrays, [
    "array semantics: grafana.dashboards of environment prod is stated at envs and envs/prod and the engine's data schema does not declare it: the KCL tree replaces it level by level, while ytt templates receive it through a generated schema document, which merges it element by element; trust the gate",
    'arrays in custom scopes: grafana.dashboards of environment prod has 3 elements; a custom scope travels to ytt templates through a generated schema document, which cannot carry a multi-element array',
    "array semantics: argocd.extra of prod application web is stated at envs and envs/prod and the engine's data schema does not declare it: the KCL tree replaces it level by level, while ytt templates receive it through a generated schema document, which merges it element by element; trust the gate",
  ]);
});
