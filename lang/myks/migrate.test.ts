// The converter's rules (spec myks-kcl-converter.txt), one table row or test
// each, on in-memory legacy repositories: layout, naming, dotted keys, comments,
// key order, schema semantics, checks, frozen values, warnings, and the proof
// (every leaf compared with lang/ytt).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checksOf, validationKwargs } from './checks.js';
import { migrate } from './migrate.js';
import { repo } from '../../test/support/myks-repo.js';
import { singular } from './proto-schema.js';
import { isIdent, toIdent, toSchemaName } from './kcl-write.js';

const ROOT = `#@data/values
---
environment:
  applications:
  - proto: web
argocd:
  namespace: system-argocd
`;
const PROD = `#@data/values
---
environment:
  id: prod
`;
const base = (extra: Record<string, string> = {}): Record<string, string> => ({
  'envs/env-data.yaml': ROOT,
  'envs/prod/env-data.yaml': PROD,
  ...extra,
});

const ok = (files: Record<string, string>, name = 'repo') => {
  const r = migrate(repo(files), name);
  assert.deepEqual(r.differences, [], 'the converted tree resolves to the legacy values');
  return r;
};
const file = (r: ReturnType<typeof migrate>, p: string): string => {
  const t = r.files.get(p);
  assert.ok(t !== undefined, `${p} is written (have: ${[...r.files.keys()].join(', ')})`);
  return t;
};

test('layout: kcl.mod named after the repository, main.k lists every environment, one env.k per level', () => {
  const r = ok(base({ 'envs/stage/env-data.yaml': PROD.replace('prod', 'stage') }), 'my-repo');
  assert.match(file(r, 'kcl.mod'), /^\[package\]\nname = "my_repo"\n[\s\S]*\[dependencies\]\nmyks = "0\.1\.0"\n$/);
  const main = file(r, 'main.k');
  assert.match(main, /import envs\.prod as prod\nimport envs\.stage as stage\n/);
  assert.match(main, /environments = \{\n {4}"prod" = prod\.env\n {4}"stage" = stage\.env\n\}/);
  assert.match(file(r, 'envs/env.k'), /level = myks\.with_apps\(_level, _apps\)/);
  assert.match(file(r, 'envs/prod/env.k'), /import envs as parent\n[\s\S]*_level = parent\.level \| \{/);
  // nothing is frozen here, so the leaf has no patch.k and its env.k does not name _patch
  assert.match(file(r, 'envs/prod/env.k'), /env = myks\.finalize\(myks\.with_apps\(_level, _apps\)\)/);
  assert.equal(r.files.get('envs/prod/patch.k'), undefined);
  assert.deepEqual(r.leaves, ['prod', 'stage']);
});

test('an application with nothing to say is one line of apps.k; the prototype gets proto.k', () => {
  const r = ok(base());
  assert.equal(
    file(r, 'envs/apps.k'),
    'import myks\nimport prototypes.web\n\n_apps: myks.Apps {\n    web = web.Web {}\n}\n',
  );
  assert.equal(file(r, 'prototypes/web/proto.k'), 'import myks\n\nschema Web(myks.App):\n    proto: str = "web"\n');
});

test('a prototype directory that is not a KCL identifier is renamed, and the rename reported', () => {
  const r = ok({
    ...base(),
    'envs/env-data.yaml': ROOT.replace('proto: web', 'proto: per-chart'),
    'prototypes/per-chart/app-data.yaml': '#@data/values\n---\n#! see per-chart/README\nhelm:\n  namespace: x\n',
  });
  assert.match(
    file(r, 'prototypes/per_chart/proto.k'),
    /schema PerChart\(myks\.App\):\n {4}proto: str = "per-chart"\n/,
  );
  assert.match(file(r, 'envs/apps.k'), /"per-chart" = per_chart\.PerChart \{\}/);
  assert.ok(r.warnings.some((w) => w.includes('renamed to prototypes/per_chart')));
  assert.ok(
    r.warnings.includes(
      'prototypes/per-chart/app-data.yaml: a carried comment names the renamed prototype directory per-chart: # see per-chart/README',
    ),
    r.warnings.join('\n'),
  );
});

test('names: identifiers, package names, schema names', () => {
  for (const [s, id, schema] of [
    ['web', 'web', 'Web'],
    ['helm-render-test', 'helm_render_test', 'HelmRenderTest'],
    ['9lives', '_9lives', 'P9lives'],
    ['schema', 'schema_', 'Schema'],
  ])
    assert.deepEqual([toIdent(s!), toSchemaName(s!)], [id, schema], s);
  assert.equal(isIdent('import'), false);
});

const rootWith = (yaml: string, schema = ''): Record<string, string> =>
  base({
    ...(schema ? { 'envs/env-data.00-schema.yaml': `#@data/values-schema\n---\n${schema}` } : {}),
    'envs/env-data.yaml': `${ROOT}${yaml}`,
  });

test('dotted keys, one-line dicts, comments with their values, blank lines and key order', () => {
  const cases: [string, string, string, RegExp][] = [
    [
      'a chain of single-key maps is one dotted key',
      'storage:\n  media:\n    size: 1Gi\n',
      '#@overlay/match missing_ok=True\nstorage:\n  media:\n    size: ""\n',
      /\n {4}storage\.media\.size = "1Gi"\n/,
    ],
    [
      'a dict of a few scalars stays on one line',
      'limits:\n  cpu: 1\n  memory: 2Gi\n',
      '#@overlay/match missing_ok=True\nlimits:\n  cpu: 0\n  memory: ""\n',
      /\n {4}limits: \{cpu = 1, memory = "2Gi"\}\n/,
    ],
    [
      'a comment above a value travels with it; #! keeps only its #',
      'helm:\n  #! why: the chart lives there\n  namespace: web\n',
      '',
      /\n {4}helm: \{\n {8}# why: the chart lives there\n {8}namespace = "web"\n {4}\}\n/,
    ],
    [
      'inside a sequence element too, and blank lines between entries stay',
      'hosts:\n#! primary\n- a.example.com\n\n- b.example.com\n',
      '#@overlay/match missing_ok=True\nhosts: [""]\n',
      /hosts = \[\n {8}# primary\n {8}"a\.example\.com"\n\n {8}"b\.example\.com"\n {4}\]/,
    ],
    [
      'a comment after a value, on its line, is left behind',
      'helm:\n  namespace: web #! inline\n  kubeVersion: "1.30"\n',
      '',
      /helm: \{namespace = "web", kubeVersion = "1\.30"\}/,
    ],
    [
      'the order the file states its keys in',
      'myks:\n  gitRepoUrl: u\n  gitRepoBranch: b\n',
      '',
      /myks: \{gitRepoUrl = "u", gitRepoBranch = "b"\}/,
    ],
    [
      'floats stay floats, ints ints, YAML 1.1 booleans are bools, null is None',
      'x:\n  f: 1.0\n  i: 2\n  b: yes\n  v: null\n',
      '#@overlay/match missing_ok=True\nx:\n  f: 0.0\n  i: 0\n  b: false\n  #@schema/nullable\n  v: ""\n',
      /x: \{\n {8}f = 1\.0\n {8}i = 2\n {8}b = True\n {8}v = None\n {4}\}/,
    ],
    [
      'a key that is not an identifier is quoted; ${ is escaped',
      'x:\n  my-key: "${HOME}"\n',
      '#@overlay/match missing_ok=True\nx:\n  my-key: ""\n',
      /x: \{\n {8}"my-key" = "\\\$\{HOME\}"\n {4}\}/,
    ],
  ];
  for (const [what, yaml, schema, want] of cases) {
    const r = ok(rootWith(yaml, schema));
    assert.match(file(r, 'envs/env.k'), want, what);
  }
});

test('within one directory the schema documents are merged before the plain data values', () => {
  const r = ok(
    base({
      'envs/env-data.a.yaml': '#@data/values\n---\nlimits:\n  cpu: 2\n',
      'envs/env-data.b.yaml': '#@data/values-schema\n---\n#@overlay/match missing_ok=True\nlimits:\n  cpu: 1\n',
    }),
  );
  assert.match(
    file(r, 'envs/env.k'),
    /_level = _defaults \| \{\n {4}limits\.cpu = 1\n\} \| \{\n {4}limits\.cpu = 2\n\}/,
  );
});

test('a file that computes standalone: its derivations translated and proved, the rest its resolved literals', () => {
  const r = ok(
    base({
      'envs/env-data.00-schema.yaml':
        '#@data/values-schema\n---\n#@overlay/match missing_ok=True\nx:\n  purge: 0\n  hosts: [""]\n  s: ""\n  v: ""\n',
      'envs/env-data.yaml': `#@ day = 60 * 60 * 24
#@ domain = "example.com"
#@ nodes = ["a", "b"]
#@ hosts = [domain] + [n + "." + domain for n in nodes]
#@ unused = 1
${ROOT}x:
  purge: #@ day * 7
  hosts: #@ hosts
  s: #@ "%s!" % domain
  v: #@ "1." + str(10 * 3)
`,
    }),
  );
  const env = file(r, 'envs/env.k');
  assert.match(
    env,
    /\n_day = 60 \* 60 \* 24\n_domain = "example\.com"\n_nodes = \["a", "b"\]\n_hosts = \[_domain\] \+ \[n \+ "\." \+ _domain for n in _nodes\]\n\n_level/,
  );
  assert.doesNotMatch(env, /_unused/, 'the prelude is pruned to what a derivation reads');
  assert.match(
    env,
    /purge = _day \* 7\n {8}hosts = _hosts\n {8}s = "example\.com!"\n {8}v = "1\." \+ str\(10 \* 3\)\n/,
  );
  assert.deepEqual(r.notes, [
    'envs/env-data.yaml: 1 computed value(s) converted as the literal ytt resolved (not translated to KCL)',
  ]);
  assert.doesNotMatch(env, /TODO/);
});

test('the comment block a file ends with ends the generated file; a #@ directive is never carried', () => {
  const r = ok(rootWith('#@ x = 1\n\n#! renovate: datasource=docker depName=nginx\n'));
  const env = file(r, 'envs/env.k');
  assert.match(env, /\n# renovate: datasource=docker depName=nginx\n$/);
  assert.doesNotMatch(env, /x = 1/);
  assert.ok(r.warnings.some((w) => w.includes('Renovate marker')));
});

test('a carried comment naming a legacy file is reported', () => {
  const r = ok(rootWith('#! values also in app-data.yaml\nhelm:\n  namespace: x\n'));
  assert.ok(r.warnings.some((w) => w.includes('names a legacy file')));
});

test("environment.applications is the engine's; other environment.* keys are carried and warned about", () => {
  const r = ok(
    base({
      'envs/env-data.00-schema.yaml':
        '#@data/values-schema\n---\nenvironment:\n  #@overlay/match missing_ok=True\n  region: ""\n',
      'envs/prod/env-data.yaml': `${PROD}  region: eu\n`,
    }),
  );
  assert.match(file(r, 'envs/prod/env.k'), /environment: \{id = "prod", region = "eu"\}/);
  assert.doesNotMatch(file(r, 'envs/env.k'), /applications/);
  assert.ok(r.warnings.some((w) => w.startsWith('environment.* extras')));
  assert.ok(r.warnings.some((w) => w.startsWith('mapping key order')));
});

test('a prototype schema document: typed attributes, ytt schema defaults, checks', () => {
  const r = ok(
    base({
      'prototypes/web/app-data.yaml': `#@data/values-schema
---
#@overlay/match-child-defaults missing_ok=True
application:
  #! the port the container listens on
  port: 80
  #@schema/validation min_len=1
  image: ""
  tags:
  - ""
  #@schema/default 3
  replicas: 1
  #@schema/validation min=1, max=5
  workers: 2
  #@schema/validation ("even", lambda v: v % 2 == 0)
  shards: 2
`,
      'envs/_apps/web/app-data.yaml': '#@data/values\n---\napplication:\n  image: nginx\n',
    }),
  );
  const proto = file(r, 'prototypes/web/proto.k');
  assert.match(
    proto,
    /schema Web\(myks\.App\):\n {4}proto: str = "web"\n {4}application: Application = Application \{\}\n/,
  );
  assert.match(proto, /\n {4}# the port the container listens on\n {4}port: int = 80\n/);
  assert.match(
    proto,
    /\n {4}image: str\n/,
    'demanded without a satisfying default, stated by every declaration: required',
  );
  assert.match(proto, /\n {4}tags: \[str\] = \[\]\n/, 'a schema array defaults to []');
  assert.match(proto, /\n {4}replicas: int = 3\n/, '#@schema/default wins over the written value');
  assert.match(proto, /\n {8}len\(image\) >= 1, "application\.image must not be empty"\n/);
  assert.match(proto, /workers >= 1, "application\.workers must be at least 1"\n {8}workers <= 5, /);
  assert.ok(r.warnings.some((w) => w.includes('at application.shards is not carried over')));
  // the declaring level states the value: the application file carries it
  assert.match(file(r, 'envs/app-web.k'), /web = web\.Web \{\n {8}application\.image = "nginx"\n {4}\}/);
});

test('structured objects and array items of a schema document become schemas of their own', () => {
  const r = ok(
    base({
      'prototypes/web/app-data.yaml': `#@data/values-schema
---
#@overlay/match-child-defaults missing_ok=True
application:
  tls:
    enabled: false
  server:
    tls:
      cert: ""
  clients:
  - host: ""
    port: 5001
    #@schema/validation min_len=1
    routes:
    - path: /
  config:
  - ""
`,
      'envs/_apps/web/app-data.yaml':
        '#@data/values\n---\napplication:\n  clients:\n  - host: h\n    routes:\n    - path: /a\n',
    }),
  );
  const proto = file(r, 'prototypes/web/proto.k');
  for (const want of [
    /\nschema Application:\n {4}tls: Tls = Tls \{\}\n {4}server: Server = Server \{\}\n {4}clients: \[Client\] = \[\]\n {4}config: \[str\] = \[\]\n/,
    /\nschema Tls:\n {4}enabled: bool = False\n/,
    /\nschema Server:\n {4}tls: ServerTls = ServerTls \{\}\n/,
    /\nschema ServerTls:\n {4}cert: str = ""\n/,
    // every element the sources state sets host: required, its example dropped; port keeps its default
    /\nschema Client:\n {4}host: str\n {4}port: int = 5001\n {4}routes: \[Route\] = \[\]\n\n {4}check:\n {8}len\(routes\) >= 1, "application\.clients\.routes must not be empty"\n/,
    /\nschema Route:\n {4}path: str\n/,
  ])
    assert.match(proto, want);
  assert.doesNotMatch(proto, /\[\.\.\.str\]/, 'a scope the ytt schema governs is closed');
});

test('element schema names: the array in the singular', () => {
  for (const [plural, one] of [
    ['clients', 'client'],
    ['policies', 'policy'],
    ['boxes', 'box'],
    ['config', 'configItem'],
    ['address', 'addressItem'],
  ])
    assert.equal(singular(plural!), one);
});

test('validation arguments and their checks', () => {
  assert.deepEqual(
    [...validationKwargs('min_len=1, one_of=["a", "b"]')],
    [
      ['min_len', '1'],
      ['one_of', '["a", "b"]'],
    ],
  );
  const c = checksOf('mode', 'application.mode', 'one_of=["a", "b"], not_null=True, when=lambda v: True');
  assert.deepEqual(c.checks, [
    'mode in ["a", "b"], "application.mode must be one of [\\"a\\", \\"b\\"]"',
    'mode != None, "application.mode must not be null"',
  ]);
  assert.deepEqual(c.uncarried, ['when=lambda v: True']);
});

test('a value computed from the environment that KCL does not reproduce is frozen at the leaf with TODO(myks migrate)', () => {
  const r = ok(
    base({
      'prototypes/web/app-data.yaml':
        '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  host: ""\n',
      // Starlark's % formatting: KCL's % is not string formatting, so the proof keeps the literal
      'envs/_apps/web/app-data.yaml':
        '#@ load("@myks:data.lib.yaml", "env_data")\n#@data/values\n---\napplication:\n  host: #@ "web.%s" % env_data.environment.id\n',
    }),
  );
  assert.match(
    file(r, 'envs/prod/app-web.k'),
    /# TODO\(myks migrate\): frozen from the legacy-resolved output[^\n]*\n {4}web\.application\.host = "web\.prod"\n/,
  );
});

test('ytt appends arrays, KCL replaces them: the leaf freezes the legacy list, without a TODO', () => {
  const r = ok(
    base({
      'envs/env-data.00-schema.yaml': '#@data/values-schema\n---\n#@overlay/match missing_ok=True\nhosts: [""]\n',
      'envs/env-data.yaml': `${ROOT}hosts:\n- a\n`,
      'envs/prod/env-data.yaml': `${PROD}hosts:\n- b\n`,
    }),
  );
  const patch = file(r, 'envs/prod/patch.k');
  assert.match(
    patch,
    /_patch = \{\n {4}# Frozen from the legacy-resolved output: ytt merged[^\n]*\n {4}hosts = \["a", "b"\]\n\}/,
  );
  assert.doesNotMatch(patch, /TODO/);
  assert.ok(
    r.warnings.includes(
      'envs/prod/patch.k: ytt merged hosts differently (array append, merge order); frozen at the leaf',
    ),
  );
});

test('a file whose annotations rewrite values is skipped, its values frozen at the leaf with TODO', () => {
  const r = ok(base({ 'envs/prod/env-data.yaml': `${PROD}argocd:\n  #@overlay/remove\n  namespace: x\n` }));
  assert.ok(r.warnings.some((w) => w.includes('envs/prod/env-data.yaml: not converted')));
  assert.match(
    file(r, 'envs/prod/patch.k'),
    /# TODO\(myks migrate\)[^\n]*\n(?: {4}[^\n]*\n)* {4}argocd\.namespace = "argocd"\n/,
  );
});

test('what the tree cannot state is reported by environment, application and path', () => {
  const r = migrate(
    repo(base({ 'envs/_apps/web/app-data.yaml': '#@data/values\n---\nenvironment:\n  id: other\n' })),
    'repo',
  );
  assert.equal(r.differences.length, 1);
  assert.equal(r.differences[0]!.env, 'prod');
  assert.match(String(r.differences[0]!.kcl), /does not evaluate: .*Cannot add member 'environment'/);
});

test('an application declared below a level that already said something about it carries that too', () => {
  const r = ok(
    base({
      'envs/env-data.yaml': ROOT.replace('- proto: web', '[]').replace('applications:\n  []', 'applications: []'),
      'envs/prod/env-data.yaml': `${PROD}  applications:\n  - proto: web\n`,
      'envs/_apps/web/app-data.yaml': '#@data/values\n---\nhelm:\n  namespace: from-root\n',
    }),
  );
  assert.match(file(r, 'envs/prod/app-web.k'), /web = web\.Web \{\n {8}helm\.namespace = "from-root"\n {4}\}/);
  assert.ok(!r.warnings.some((w) => w.includes('merged')), r.warnings.join('\n'));
});

test('applications keep the order the legacy files list them in', () => {
  const r = ok(
    base({
      'envs/env-data.yaml': ROOT.replace('- proto: web', '- proto: web\n  - proto: web\n    name: api'),
      'envs/_apps/api/app-data.yaml': '#@data/values\n---\nhelm:\n  namespace: w\n',
    }),
  );
  assert.match(file(r, 'envs/env.k'), /_ordered = \{n: _apps\[n\] for n in \["web", "api"\]\}/);
});

test('a repository without envs/ is refused with a clear error', () => {
  assert.throws(() => migrate(repo({ 'README.md': '' }), 'x'), /envs: no such directory/);
});

test("an application ytt rejects (a key its schema does not declare) is refused with ytt's message, not judged as the tree's", () => {
  assert.throws(
    () =>
      migrate(
        repo(
          base({
            'prototypes/web/app-data.yaml':
              '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  extra:\n    a: 1\n',
            'envs/_apps/web/app-data.yaml': '#@data/values\n---\napplication:\n  extra:\n    tier: x\n',
          }),
        ),
        'repo',
      ),
    /envs\/_apps\/web\/app-data\.yaml:5:\n {10}Expected number of matched nodes to be 1, but was 0/,
  );
});

// YAML 1.1 keys: ytt reads `n:`/`yes:`/`on:` as booleans and prints them `false:`/`true:` (its own
// view: --data-values-inspect, a plain template); KCL keys are strings, so the tree states the key
// ytt printed, quoted, and the user is told the letter is gone on both sides.
test('a YAML 1.1 boolean key is the string key ytt prints, quoted, with a warning naming where', () => {
  const schema = '#@overlay/match missing_ok=True\nx:\n  n: 0\n  "y": ""\n  on: ""\n';
  const values = 'x:\n  n: 1\n  "y": b\n  on: a\n';
  const r = ok({
    ...rootWith(values, schema),
    'prototypes/web/app-data.yaml':
      '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  off: 2\n',
  });
  assert.match(file(r, 'envs/env.k'), /\n {4}x: \{\n {8}"false" = 1\n {8}y = "b"\n {8}"true" = "a"\n {4}\}\n/);
  assert.match(file(r, 'prototypes/web/proto.k'), /\n {8}"false" = 2\n/);
  assert.ok(
    r.warnings.includes(
      'envs/env-data.yaml:9:3: key n is YAML 1.1\'s boolean false: ytt holds it as the key false (and a template reading @ytt:data fails on it), the KCL tree as the string key "false"; quote it in the legacy file ("n") if the key is meant as written',
    ),
    r.warnings.join('\n'),
  );
  assert.ok(
    r.warnings.some((w) => w.startsWith("prototypes/web/app-data.yaml:5:3: key off is YAML 1.1's boolean false")),
  );
  assert.ok(!r.warnings.some((w) => w.includes('key "y"') || w.includes('key y ')), 'a quoted key is a string');
  for (const k of ['true', 'false', 'pass', 'def']) assert.equal(isIdent(k), false, k);
  // ytt's own view of the keys (when ytt is on PATH): what lang/ytt resolved, hence what the tree states
  const ytt = spawnSync('sh', ['-c', 'command -v ytt'], { encoding: 'utf8' }).stdout.trim();
  if (!ytt) return;
  const dir = mkdtempSync(join(tmpdir(), 'kcfg-yaml11-'));
  try {
    writeFileSync(join(dir, 's.yaml'), `#@data/values-schema\n---\n${schema}`);
    writeFileSync(join(dir, 'v.yaml'), `#@data/values\n---\n${values}`);
    const out = spawnSync(ytt, ['-f', 's.yaml', '-f', 'v.yaml', '--data-values-inspect'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(out.status, 0, out.stderr);
    assert.equal(out.stdout, 'x:\n  false: 1\n  "y": b\n  true: a\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// spec: "Nothing is left after the split. Every value in the file is computed, so the file is
// skipped whole." — its level states nothing of it; each value is frozen at the leaf.
test('a render-context file whose every value is computed leaves nothing at its level; its values are frozen at the leaf with TODO', () => {
  const r = ok(
    base({
      'envs/env-data.zz.yaml':
        '#@ load("@ytt:data", "data")\n#@data/values\n---\nargocd:\n  namespace: #@ "argo" + "cd-x"\n',
    }),
  );
  assert.doesNotMatch(file(r, 'envs/env.k'), /argocd-x|"argo"/, 'the root level states nothing of the file');
  assert.match(
    file(r, 'envs/prod/patch.k'),
    /# TODO\(myks migrate\)[^\n]*\n(?: {4}[^\n]*\n)* {4}argocd\.namespace = "argocd-x"\n/,
  );
});

// spec: "The generated schemas, and the checks in them, follow the order the source states the
// fields in."
test('generated schemas and their checks follow the order the source states the fields in', () => {
  const r = ok(
    base({
      'prototypes/web/app-data.yaml':
        '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  #@schema/validation max_len=9\n  zeta: z\n  #@schema/validation min=1\n  alpha: 1\n  mid:\n    x: ""\n    b: ""\n  #@schema/validation max=5\n  beta: 2\n',
    }),
  );
  const proto = file(r, 'prototypes/web/proto.k');
  assert.match(
    proto,
    /\nschema Application:\n {4}zeta: str = "z"\n {4}alpha: int = 1\n {4}mid: Mid = Mid \{\}\n {4}beta: int = 2\n\n {4}check:\n {8}len\(zeta\) <= 9[^\n]*\n {8}alpha >= 1[^\n]*\n {8}beta <= 5[^\n]*\n\nschema Mid:\n {4}x: str = ""\n {4}b: str = ""\n/,
    proto,
  );
});
