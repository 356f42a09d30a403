// The prototype schema rules of the converter specification (myks-kcl-converter.txt,
// "Prototype schemas"): when a generated schema is closed, which element fields are
// required, which defaults a check demands away, and where the checks of the
// environment tree's _proto/ and _apps/ schema documents go. Each case is a legacy
// repository in memory, converted and proved against lang/ytt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateKcl, memoryHost } from '../kcl/index.js';
import { migrate } from './migrate.js';
import { repo } from '../../test/support/myks-repo.js';

const ROOT = '#@data/values\n---\nenvironment:\n  applications:\n  - proto: web\n';
const PROD = '#@data/values\n---\nenvironment:\n  id: prod\n';
const SCHEMA = '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\n';
const VALUES = '#@data/values\n---\n';

function convert(extra: Record<string, string>) {
  const r = migrate(repo({ 'envs/env-data.yaml': ROOT, 'envs/prod/env-data.yaml': PROD, ...extra }), 'repo');
  assert.deepEqual(r.differences, [], 'the converted tree resolves to the legacy values');
  const proto = r.files.get('prototypes/web/proto.k');
  assert.ok(proto !== undefined);
  return { r, proto };
}

/** The schema block named `name` of a proto.k (up to the next schema). */
/** Evaluates `web.Web {BODY}` against a converted proto.k (throws what KCL reports). */
function instantiateWeb(proto: string, body: string) {
  return evaluateKcl(
    memoryHost({
      '/r/kcl.mod': '[package]\nname = "r"\n',
      '/r/prototypes/web/proto.k': proto,
      '/r/main.k': `import prototypes.web\n\nx = web.Web {${body}}\n`,
    }),
    { paths: ['/r/main.k'] },
  );
}

function schemaBlock(proto: string, name: string): string {
  const m = new RegExp(`\\nschema ${name}(\\([^)]*\\))?:\\n[\\s\\S]*?(?=\\nschema |$)`).exec(proto);
  assert.ok(m, `schema ${name} in:\n${proto}`);
  return m[0];
}

test('an index signature stays only where the ytt schema did not close the scope', () => {
  const app = 'application:\n  image: nginx\n  tls:\n    enabled: false\n';
  const cases: [string, Record<string, string>, Record<string, boolean>][] = [
    [
      'a schema document closes every scope it governs',
      { 'prototypes/web/app-data.yaml': SCHEMA + app },
      { Application: false, Tls: false },
    ],
    [
      'a _proto/<proto>/ schema document governs the application scope from the environment tree',
      {
        'prototypes/web/app-data.yaml': SCHEMA + app,
        'envs/_proto/web/app-data.yaml': SCHEMA + 'application:\n  extra: 1\n',
      },
      { Application: true, Tls: true },
    ],
    [
      'so does an _apps/<app>/ schema document',
      {
        'prototypes/web/app-data.yaml': SCHEMA + app,
        'envs/prod/_apps/web/app-data.yaml': SCHEMA + 'application:\n  extra: 1\n',
      },
      { Application: true },
    ],
    [
      'and an env-data schema document declaring application keys',
      {
        'prototypes/web/app-data.yaml': SCHEMA + app,
        'envs/env-data.00-schema.yaml': SCHEMA + 'application:\n  team: ""\n',
      },
      { Application: true },
    ],
    [
      'a value typed any=True is declared (any) and does not open its scope',
      { 'prototypes/web/app-data.yaml': SCHEMA + app + '  #@schema/type any=True\n  extra: {}\n' },
      { Application: false },
    ],
  ];
  for (const [what, files, open] of cases) {
    const { proto } = convert(files);
    for (const [name, isOpen] of Object.entries(open))
      assert.equal(schemaBlock(proto, name).includes('[...str]: any'), isOpen, `${what}: ${name}\n${proto}`);
  }
});

test('a closed schema catches the misspelled key ytt used to catch', () => {
  const { proto } = convert({ 'prototypes/web/app-data.yaml': SCHEMA + 'application:\n  image: nginx\n' });
  const run = (body: string) => instantiateWeb(proto, body);
  run('application.image = "httpd"');
  assert.throws(() => run('application.imag = "httpd"'), /Cannot add member 'imag' to schema 'Application'/);
});

test('element fields: required where every stated element sets them, at any level; otherwise the example is the default', () => {
  const proto = SCHEMA + 'application:\n  clients:\n  - host: ""\n    port: 5001\n';
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      'every element sets host (at two levels); one leaves port out',
      {
        'envs/_apps/web/app-data.yaml': VALUES + 'application:\n  clients:\n  - host: a\n    port: 1\n',
        'envs/prod/_apps/web/app-data.yaml': VALUES + 'application:\n  clients:\n  - host: b\n',
      },
      /\n {4}host: str\n {4}port: int = 5001\n/,
    ],
    [
      'an element leaves host out: it keeps its default',
      {
        'envs/_apps/web/app-data.yaml': VALUES + 'application:\n  clients:\n  - host: a\n  - port: 2\n',
      },
      /\n {4}host: str = ""\n {4}port: int = 5001\n/,
    ],
    ['no element is stated: nothing is required', {}, /\n {4}host: str = ""\n {4}port: int = 5001\n/],
    [
      'a computed element counts by the keys its template writes',
      {
        'envs/_apps/web/app-data.yaml':
          '#@ load("@myks:data.lib.yaml", "env_data")\n' +
          VALUES +
          'application:\n  clients:\n  - host: #@ "web." + env_data.environment.id\n',
      },
      /\n {4}host: str\n/,
    ],
  ];
  for (const [what, files, want] of cases) {
    const { proto: text } = convert({ 'prototypes/web/app-data.yaml': proto, ...files });
    assert.match(schemaBlock(text, 'Client'), want, what);
  }
});

test('a value validated without a satisfying default is declared without one: required where every declaration states it', () => {
  const cases: [string, string, Record<string, string>, RegExp, RegExp][] = [
    [
      'one_of on "", stated by the declaration: required',
      '#@schema/validation one_of=["a", "b"]\n  mode: ""',
      { 'envs/_apps/web/app-data.yaml': `${VALUES}application:\n  mode: a\n` },
      /\n {4}mode: str\n/,
      /\n {8}mode in \["a", "b"\], /,
    ],
    [
      'only a lower level states it: optional, its check guarded',
      '#@schema/validation one_of=["a", "b"]\n  mode: ""',
      { 'envs/prod/_apps/web/app-data.yaml': `${VALUES}application:\n  mode: a\n` },
      /\n {4}mode\?: str\n/,
      /mode in \["a", "b"\] if mode != Undefined, /,
    ],
    [
      'min on 0, set below',
      '#@schema/validation min=1\n  replicas: 0',
      { 'envs/prod/_apps/web/app-data.yaml': `${VALUES}application:\n  replicas: 3\n` },
      /\n {4}replicas\?: int\n/,
      /replicas >= 1 if replicas != Undefined/,
    ],
    [
      'a satisfying default stays',
      '#@schema/validation min=1\n  replicas: 2',
      { 'envs/_apps/web/app-data.yaml': `${VALUES}application:\n  replicas: 3\n` },
      /\n {4}replicas: int = 2\n/,
      /\n {8}replicas >= 1, /,
    ],
  ];
  for (const [what, field, files, decl, check] of cases) {
    const { proto } = convert({ 'prototypes/web/app-data.yaml': `${SCHEMA}application:\n  ${field}\n`, ...files });
    assert.match(proto, decl, what);
    assert.match(proto, check, what);
  }
});

test('_proto/ and _apps/ schema documents: their validations become guarded checks of the prototype schema', () => {
  const { r, proto } = convert({
    'prototypes/web/app-data.yaml': SCHEMA + 'application:\n  image: nginx\n',
    'envs/_proto/web/app-data.yaml':
      SCHEMA +
      'application:\n  #@schema/validation one_of=["gold", "silver"]\n  tier: gold\n  #@schema/validation min_len=1\n  image: x\n',
    'envs/prod/_apps/web/app-data.yaml':
      SCHEMA +
      'application:\n  tls:\n    #@schema/validation max_len=10\n    issuer: le\n  #@schema/validation min_len=1\n  owner: ""\n  #@schema/validation ("even", lambda v: v % 2 == 0)\n  shards: 2\n',
  });
  // a key the prototype's schema does not declare: reached from the declared scope, guarded on the way
  assert.match(
    schemaBlock(proto, 'Web'),
    /\n {8}application\.tier in \["gold", "silver"\] if application and "tier" in application and application\.tier != None, "application\.tier must be one of \[\\"gold\\", \\"silver\\"\]"\n/,
  );
  assert.match(
    schemaBlock(proto, 'Web'),
    /\n {8}len\(application\.tls\.issuer\) <= 10 if application and "tls" in application and application\.tls and "issuer" in application\.tls and application\.tls\.issuer != None, /,
  );
  // a key the prototype's schema declares: the check sits in the schema owning it
  assert.match(schemaBlock(proto, 'Application'), /\n {8}len\(image\) >= 1 if image != Undefined and image != None, /);
  for (const w of [
    'envs/prod/_apps/web/app-data.yaml: #@schema/validation min_len=1 at application.owner is not carried over: the value its schema document states does not satisfy it, and KCL checks every instantiation; restate it by hand',
    'envs/prod/_apps/web/app-data.yaml: #@schema/validation ("even", lambda v: v % 2 == 0) at application.shards is not carried over; restate it by hand',
  ])
    assert.ok(r.warnings.includes(w), `${w}\n${r.warnings.join('\n')}`);
});

test("the spec's own examples: Webapp's Application, and clients of Client with routes of Route", () => {
  const webapp = migrate(
    repo({
      'envs/env-data.yaml': ROOT.replace('proto: web', 'proto: webapp'),
      'envs/prod/env-data.yaml': PROD,
      'prototypes/webapp/app-data.yaml': `${SCHEMA}application:\n  containerPort: 80\n  #@schema/validation min_len=1\n  image: ""\n  ingress: true\n`,
      'envs/prod/_apps/webapp/app-data.yaml': `${VALUES}application:\n  image: nginx\n`,
    }),
    'repo',
  );
  assert.deepEqual(webapp.differences, []);
  assert.equal(
    webapp.files.get('prototypes/webapp/proto.k'),
    `import myks

schema Webapp(myks.App):
    proto: str = "webapp"
    application: Application = Application {}

schema Application:
    containerPort: int = 80
    image?: str
    ingress: bool = True

    check:
        len(image) >= 1 if image != Undefined, "application.image must not be empty"
`,
  );
  const { proto } = convert({
    'prototypes/web/app-data.yaml': `${SCHEMA}application:\n  clients:\n  - host: ""\n    port: 5001\n    routes:\n    - path: /\n`,
    'envs/_apps/web/app-data.yaml': `${VALUES}application:\n  clients:\n  - host: h\n`,
  });
  assert.equal(
    proto.slice(proto.indexOf('\nschema Application:')),
    `
schema Application:
    clients: [Client] = []

schema Client:
    host: str
    port: int = 5001
    routes: [Route] = []

schema Route:
    path: str = "/"
`,
  );
});

test("env-data schema documents: a validation of an application's scopes from a level every environment is under is a check of every prototype; the rest say why not", () => {
  const ENV_SCHEMA = '#@data/values-schema\n---\n#@overlay/match missing_ok=True\n';
  const { r, proto } = convert({
    'envs/env-data.00-schema.yaml':
      ENV_SCHEMA +
      '#@schema/validation min_len=1\ndomain: x\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  #@schema/validation one_of=["a", "b"]\n  tier: a\nhelm:\n  #@schema/validation min_len=2\n  namespace: ns\n  #@schema/validation max_len=3\n  kubeVersion: ""\n',
    'envs/prod/env-data.00-schema.yaml': ENV_SCHEMA + 'kbld:\n  #@schema/validation not_null=True\n  enabled: false\n',
    'envs/dev/env-data.yaml': PROD.replace('prod', 'dev'),
    'prototypes/web/app-data.yaml': SCHEMA + 'application:\n  image: nginx\nhelm:\n  kubeVersion: "1.30"\n',
  });
  const web = schemaBlock(proto, 'Web');
  assert.match(
    web,
    /\n {8}application\.tier in \["a", "b"\] if application and "tier" in application and application\.tier != None, /,
  );
  assert.match(web, /\n {8}len\(helm\.namespace\) >= 2 if helm and "namespace" in helm and helm\.namespace != None, /);
  assert.doesNotMatch(web, /kubeVersion\) <= 3|kbld/);
  for (const w of [
    'envs/env-data.00-schema.yaml: #@schema/validation min_len=1 at domain is not carried over (an environment value: the KCL tree holds environment data in plain dicts, and a check: block needs the schema that owns the field); restate it by hand',
    'envs/prod/env-data.00-schema.yaml: #@schema/validation not_null=True at kbld.enabled is not carried over (a level not every environment is under: as a check in proto.k it would apply to the applications of every environment); restate it by hand',
    'envs/env-data.00-schema.yaml: #@schema/validation max_len=3 at helm.kubeVersion is not carried over: a value an application file states does not satisfy it (a level below may replace it), and KCL checks every instantiation; restate it by hand',
  ])
    assert.ok(r.warnings.includes(w), `${w}\n${r.warnings.join('\n')}`);
  // the checks run where an application states the value
  const run = (body: string) => instantiateWeb(proto, body);
  run('application.tier = "b"');
  assert.throws(() => run('application.tier = "c"'), /application\.tier must be one of/);
  assert.throws(() => run('helm.namespace = "x"'), /helm\.namespace must be at least 2 long/);
});

// spec: "An attribute the ytt schema types without allowing null is required (containerPort: int):
// its default applies wherever no level sets it, and setting it to None fails, as ytt failed. A
// nullable value, one typed any, and one no schema document describes keep the ? that lets them be None."
test('a typed attribute is required (None fails); nullable, any and undescribed ones keep their ?', () => {
  const { proto } = convert({
    'prototypes/web/app-data.yaml':
      SCHEMA +
      'application:\n  containerPort: 80\n  #@schema/nullable\n  tag: ""\n  #@schema/type any=True\n  extra:\n    k: v\n',
  });
  const app = schemaBlock(proto, 'Application');
  assert.match(app, /\n {4}containerPort: int = 80\n/);
  assert.match(app, /\n {4}tag\?: any = None\n/);
  assert.match(app, /\n {4}extra\?: any = \{k = "v"\}\n/);
  const run = (body: string) => instantiateWeb(proto, body);
  run('application.tag = None');
  run('application.extra = None');
  run('');
  assert.throws(() => run('application.containerPort = None'), /containerPort/);
});
