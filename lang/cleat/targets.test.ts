/**
 * Output targets: plain, Argo CD sync waves, Flux Kustomizations; JSON output.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportProgram } from './program.js';
import { memoryLoader, ROOT } from '../../test/support/cleat-kit.js';

const SRC = `export db = [ { kind: "StatefulSet", metadata.name: "pg" } ]
export config = [ { kind: "ConfigMap", metadata: { name: "cfg", annotations: { "argocd.argoproj.io/sync-wave": "-1" } } } ]
export app after db, config = [ { kind: "Deployment", metadata.name: "api" } ]
export web after app = [ { kind: "Ingress", metadata.name: "web" } ]
`;

const run = (target: 'plain' | 'argocd' | 'flux', format: 'yaml' | 'json' = 'yaml') => {
  const r = exportProgram(
    { path: `${ROOT}/main.cleat`, text: SRC },
    memoryLoader({}),
    {},
    { target, format, flux: { basePath: './deploy' } },
  );
  assert.ok(r.ok, JSON.stringify(!r.ok && r.diagnostics));
  return r;
};

test('components and waves', () => {
  assert.deepEqual(run('plain').components, [
    { name: 'db', after: [], wave: 0 },
    { name: 'config', after: [], wave: 0 },
    { name: 'app', after: ['db', 'config'], wave: 1 },
    { name: 'web', after: ['app'], wave: 2 },
  ]);
});

test('argocd: sync-wave annotations, an explicit one kept', () => {
  const docs = run('argocd').documents as { metadata: { annotations: Record<string, string> } }[];
  assert.deepEqual(
    docs.map((d) => d.metadata.annotations['argocd.argoproj.io/sync-wave']),
    ['0', '-1', '1', '2'],
  );
});

test('flux: one Kustomization per component with dependsOn', () => {
  const r = run('flux');
  assert.ok(r.ok);
  const ks = r.documents as { metadata: { name: string }; spec: { path: string; dependsOn?: { name: string }[] } }[];
  assert.deepEqual(
    ks.map((k) => [k.metadata.name, k.spec.path, (k.spec.dependsOn ?? []).map((d) => d.name)]),
    [
      ['db', './deploy/db', []],
      ['config', './deploy/config', []],
      ['app', './deploy/app', ['db', 'config']],
      ['web', './deploy/web', ['app']],
    ],
  );
  assert.deepEqual(
    r.files?.map((f) => f.path),
    [
      './deploy/db/manifests.yaml',
      './deploy/config/manifests.yaml',
      './deploy/app/manifests.yaml',
      './deploy/web/manifests.yaml',
    ],
  );
  assert.match(
    r.text,
    /kind: Kustomization\nmetadata:\n  name: app\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: \.\/deploy\/app\n  prune: true\n  wait: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n  - name: db\n  - name: config\n/,
  );
});

test('json output: one document as itself, several as a v1 List', () => {
  const r = run('plain', 'json');
  assert.ok(r.ok);
  const parsed = JSON.parse(r.text) as { kind: string; items: unknown[] };
  assert.equal(parsed.kind, 'List');
  assert.equal(parsed.items.length, 4);
});
