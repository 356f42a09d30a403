/**
 * Every example of the Cleat specification (its section numbers are in each
 * test's name; the examples are written out here, so nothing outside the
 * repository is read) as a test, with the exact error location (line:column),
 * code and value path.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkText, exportText } from '../../test/support/cleat-kit.js';
import { kubernetesOpenApiBytes } from '../../test/support/kubernetes-openapi.js';

const files = { 'schemas/kubernetes-1.37.json': kubernetesOpenApiBytes().toString('utf8') };

const SMALL = `import * as k8s from "./schemas/kubernetes-1.37.json"
type SmallDeployment = k8s.Deployment with {
  spec.replicas where self <= 10,
  spec.template.spec.containers[].image where contains(self, ":"),
  spec.strategy.type: "RollingUpdate" | "Recreate",
  spec.revisionHistoryLimit: Int = 3,
  -status,
}
`;

const DEPLOY_BODY = `metadata.name: "web",
  spec.selector.matchLabels.app: "web",
  spec.template.metadata.labels.app: "web",`;

test('§4.2 SmallDeployment: refuted refinements are compile errors at the value', () => {
  const src = `${SMALL}let d = SmallDeployment {
  ${DEPLOY_BODY}
  spec.replicas: 12,
  spec.template.spec.containers: [{ name: "web", image: "nginx" }],
}
`;
  assert.deepEqual(checkText(src, files), [
    '13:18 CLEAT_REFINEMENT value 12 does not satisfy `where self <= 10` (at spec.replicas)',
    '14:57 CLEAT_REFINEMENT value "nginx" does not satisfy `where contains(self, ":")` (at spec.template.spec.containers[0].image)',
  ]);
});

test('§4.2 SmallDeployment: narrowing rules (replacement must be a subtype, required fields stay)', () => {
  const src = `import * as k8s from "./schemas/kubernetes-1.37.json"
type A = k8s.Deployment with { spec.replicas: Str }
type B = k8s.Deployment with { -spec.selector }
type C = k8s.Deployment with { spec.replcias where self > 1 }
`;
  assert.deepEqual(checkText(src, files), [
    '2:32 CLEAT_BAD_WITH `spec.replicas`: Str is not a subtype of Int; `with` only narrows',
    '3:32 CLEAT_BAD_WITH cannot remove the required field `spec.selector`',
    '4:32 CLEAT_BAD_WITH unknown field `spec.replcias`; did you mean `replicas`?',
  ]);
});

test('§4.2 SmallDeployment: default filled, removed status rejected, value exported', () => {
  const src = `${SMALL}input replicas: Int = 2
export SmallDeployment {
  ${DEPLOY_BODY}
  spec.replicas: replicas,
  spec.template.spec.containers: [{ name: "web", image: "nginx:1.25" }],
}
`;
  const out = exportText(src, files);
  assert.match(out, /^---\napiVersion: apps\/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n/);
  assert.match(out, /  replicas: 2\n  revisionHistoryLimit: 3\n$/);
  assert.equal(
    exportText(src, files, { sets: ['replicas=11'] }),
    'ERROR\n10:8 CLEAT_REFINEMENT value 11 does not satisfy `where self <= 10` (at spec.replicas)',
  );
  const withStatus = src.replace('spec.replicas: replicas,', 'spec.replicas: replicas,\n  status.replicas: 1,');
  assert.deepEqual(checkText(withStatus, files), [
    '15:3 CLEAT_UNKNOWN_FIELD unknown field `status` in `SmallDeployment` (at status)',
  ]);
});

test('§4.2 refine: the NodePort policy error', () => {
  const src = `import * as k8s from "./schemas/kubernetes-1.37.json"
refine k8s.ServiceSpec with { type: "ClusterIP" | "LoadBalancer" }   // project policy
let s = k8s.Service { spec.type: "NodePort" }
let ok = k8s.Service { spec.type: "ClusterIP" }
`;
  assert.deepEqual(checkText(src, files), [
    '3:34 CLEAT_TYPE_MISMATCH expected `"ClusterIP" | "LoadBalancer"`, found `"NodePort"` (at spec.type)',
  ]);
});

test('§4.2 refine applies at run time too, and stacks in source order', () => {
  const src = `import * as k8s from "./schemas/kubernetes-1.37.json"
refine k8s.ServiceSpec with { type: "ClusterIP" | "LoadBalancer" | "NodePort" }
refine ServiceSpec2 with { type: "ClusterIP" }
input t: Json
export k8s.Service { metadata.name: "s", spec.type: t }
`;
  assert.deepEqual(checkText(src, files), ['3:1 CLEAT_UNKNOWN_NAME unknown type `ServiceSpec2`']);
  const ok = src.replace(
    'refine ServiceSpec2 with { type: "ClusterIP" }\n',
    'refine k8s.ServiceSpec with { type: "ClusterIP" | "NodePort" }\n',
  );
  assert.match(exportText(ok, files, { sets: ['t=NodePort'] }), /type: NodePort/);
  assert.equal(
    exportText(ok, files, { sets: ['t=LoadBalancer'] }),
    'ERROR\n5:8 CLEAT_TYPE_MISMATCH expected "ClusterIP" | "NodePort", found "LoadBalancer" (at spec.type)',
  );
});

test('§1 exact records: replcias is an error with a suggestion', () => {
  const src = `import * as k8s from "./schemas/kubernetes-1.37.json"
let d = k8s.Deployment { metadata.name: "x", spec.replcias: 3 }
`;
  assert.deepEqual(checkText(src, files), [
    '2:46 CLEAT_MISSING_FIELD missing required field `selector` of `apps.v1.DeploymentSpec` (at spec.selector)',
    '2:46 CLEAT_MISSING_FIELD missing required field `template` of `apps.v1.DeploymentSpec` (at spec.template)',
    '2:51 CLEAT_UNKNOWN_FIELD unknown field `replcias` in `apps.v1.DeploymentSpec`; did you mean `replicas`? (at spec.replcias)',
  ]);
});

test('§4.1 schema names: qualified, short, ambiguous', () => {
  const src = `import * as k8s from "./schemas/kubernetes-1.37.json"
import { Deployment, core.v1.Event as Event } from "./schemas/kubernetes-1.37.json"
let a = k8s.apps.v1.Deployment { metadata.name: "a", spec.selector: {}, spec.template: {} }
let b = Deployment { metadata.name: "b", spec.selector: {}, spec.template: {} }
let c = Event { metadata.name: "e", involvedObject: {} }
let e = k8s.Event { }
`;
  assert.deepEqual(checkText(src, files), [
    '6:9 CLEAT_AMBIGUOUS_NAME `Event` is ambiguous: use one of `core.v1.Event`, `events.v1.Event`',
  ]);
});

test('§4 program example exports', () => {
  const src = `type Env = "dev" | "staging" | "prod"

input env: Env                          // supplied at export time
input replicas: Int where self >= 1 = 2 // with a default

let name = "api"                        // top-level constant

fn port_name(p: Int) -> Str = "http-\\(p)"   // functions; the body is one expression

export { kind: "ConfigMap", metadata.name: name, data: { env: env, port: port_name(8080), replicas: str(replicas) } }
`;
  assert.equal(
    exportText(src, {}, { sets: ['env=prod'] }),
    '---\nkind: ConfigMap\nmetadata:\n  name: api\ndata:\n  env: prod\n  port: http-8080\n  replicas: "2"\n',
  );
  assert.equal(
    exportText(src, {}, { sets: ['env=test'] }),
    'ERROR\n3:1 CLEAT_TYPE_MISMATCH input `env` (Env): expected "dev" | "staging" | "prod", found "test" (at env)',
  );
  assert.equal(exportText(src, {}, {}), 'ERROR\n3:1 CLEAT_INPUT missing input `env` of type Env (at env)');
  assert.equal(
    exportText(src, {}, { sets: ['env=dev', 'replicas=0'] }),
    'ERROR\n4:1 CLEAT_REFINEMENT input `replicas` (Int where …): value 0 does not satisfy `where self >= 1` (at replicas)',
  );
  assert.equal(
    exportText(src, {}, { sets: ['env=dev', 'replcias=3'] }),
    'ERROR\nCLEAT_INPUT unknown input `replcias` (from --set); did you mean `replicas`? (at replcias)',
  );
});

test('§5.3 discriminated union narrowing in match', () => {
  const src = `import * as k8s from "./schemas/kubernetes-1.37.json"
fn count(r: k8s.Deployment | k8s.Service) -> Int = match r {
  d: { kind: "Deployment", .. } => d.spec.replicas ?? 1,
  _ => 0,
}
fn bad(r: k8s.Deployment | k8s.Service) -> Int = match r {
  d: { kind: "Deployment", .. } => d.spec.replicas ?? 1,
  s: { kind: "Service", .. } => s.spec.replicas ?? 1,
}
export { total: count(k8s.Deployment { metadata.name: "a", spec.replicas: 4, spec.selector: {}, spec.template: {} }) }
`;
  assert.deepEqual(checkText(src, files), ['8:40 CLEAT_UNKNOWN_FIELD `core.v1.ServiceSpec` has no field `replicas`']);
  assert.equal(exportText(src.replace(/fn bad[\s\S]*?\n}\n/, ''), files), '---\ntotal: 4\n');
});

test('§5.3 literal patterns make a match exhaustive', () => {
  const src = `type Env = "dev" | "staging" | "prod"
input env: Env
input debug: Bool
let a = match env { "dev" => 1, "staging" => 2, "prod" => 3 }
let b = match debug { true => 1, false => 0 }
let c = match env { "dev" => 1, "staging" => 2 }
let d = match debug { true => 1 }
let e = match env { _ => 1, "dev" => 2 }
`;
  assert.deepEqual(checkText(src), [
    '6:9 CLEAT_NONEXHAUSTIVE `match` is not exhaustive: `"prod"` not covered (add the missing arms or `_`)',
    '7:9 CLEAT_NONEXHAUSTIVE `match` is not exhaustive: `false` not covered (add the missing arms or `_`)',
    '8:29 CLEAT_NONEXHAUSTIVE this pattern is unreachable: earlier arms cover every value',
  ]);
});

test('§5.4 the prod patch with selectors', () => {
  const base = `import * as k8s from "./schemas/kubernetes-1.37.json"
fn app(name: Str, image: Str) -> [k8s.Deployment | k8s.Service] = [
  k8s.Deployment {
    metadata.name: name,
    metadata.labels.app: name,
    spec.selector.matchLabels.app: name,
    spec.strategy.type: "RollingUpdate",
    spec.template.metadata.labels.app: name,
    spec.template.spec.containers: [{ name: name, image: image }],
  },
  k8s.Service { metadata.name: name, spec.selector.app: name, spec.ports: [{ port: 80 }] },
]
`;
  const prod = `import * as base from "./base.cleat"
input image: Str = "nginx:1.25"
export base.app("api", image) with {
  [kind: "Deployment"].spec.replicas: 3,                                    // set
  [kind: "Deployment"].metadata.labels +: { tier: "prod" },                 // merge
  [kind: "Deployment"].spec.template.spec.containers[name: "api"].env +: [{ name: "LOG", value: "warn" }],
  [kind: "Service"].spec.type: "LoadBalancer",
  -[kind: "Deployment"].spec.strategy,                                      // remove
}
`;
  const fs = { ...files, 'base.cleat': base };
  assert.deepEqual(checkText(prod, fs), []);
  assert.equal(
    exportText(prod, fs),
    `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels:
    app: api
    tier: prod
spec:
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      containers:
      - name: api
        image: nginx:1.25
        env:
        - name: LOG
          value: warn
  replicas: 3
---
apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  selector:
    app: api
  ports:
  - port: 80
  type: LoadBalancer
`,
  );
  const typo = prod
    .replace('[kind: "Service"]', '[kind: "Servce"]')
    .replace('spec.replicas: 3', 'spec.replcias: 3')
    .replace('-[kind: "Deployment"].spec.strategy', '-[kind: "Deployment"].spec.selector');
  assert.deepEqual(checkText(typo, fs), [
    '4:29 CLEAT_UNKNOWN_FIELD unknown field `replcias` in `apps.v1.DeploymentSpec`; did you mean `replicas`? (at [kind: "Deployment"].spec.replcias)',
    '7:3 CLEAT_SELECTOR_NO_MATCH selector `[kind: "Servce"]` matches no element of `[apps.v1.Deployment | core.v1.Service]`',
    '8:3 CLEAT_BAD_WITH cannot remove the required field `selector` (at [kind: "Deployment"].spec.selector)',
  ]);
  assert.equal(
    exportText(prod.replace('name: "api"]', 'name: "apii"]'), fs),
    'ERROR\n6:3 CLEAT_SELECTOR_NO_MATCH selector `[name: "apii"]` matches no element (at [0].spec.template.spec.containers)',
  );
});

test('§5.4 anonymous objects are updated structurally', () => {
  assert.deepEqual(checkText('let a = { n: 1 } with { n: "one" }\nlet b: { n: "one" } = a\n'), []);
  assert.equal(exportText('export { x: 1 } with { x: "one" }\n'), '---\nx: one\n');
});

test('§9 components with waves', () => {
  const src = `let postgres_deployment = { kind: "Deployment", metadata.name: "pg" }
let postgres_service = { kind: "Service", metadata.name: "pg" }
let app_config = { kind: "ConfigMap", metadata.name: "cfg" }
let api_deployment = { kind: "Deployment", metadata.name: "api" }
let api_service = { kind: "Service", metadata.name: "api" }
export db = [ postgres_deployment, postgres_service ]
export config = [ app_config ]
export app after db, config = [ api_deployment, api_service ]
`;
  const out = exportText(src, {}, {}, { target: 'argocd' });
  const waves = [...out.matchAll(/sync-wave: "(\d)"/g)].map((m) => m[1]);
  assert.deepEqual(waves, ['0', '0', '0', '1', '1']);
  assert.deepEqual(
    checkText(`export a after b = []\nexport b after a = []\nexport c after c = []\nexport d after nope = []\n`),
    [
      '1:1 CLEAT_COMPONENT_CYCLE component cycle: a -> b -> a',
      '3:16 CLEAT_COMPONENT_CYCLE component `c` cannot depend on itself',
      '4:16 CLEAT_COMPONENT unknown component `nope`',
    ],
  );
});

test('§5 strings: interpolation, shell ${VAR} untouched, """ blocks', () => {
  const src = `let port = 8080
let conf = """
    server {
      listen \\(port);
    }
    """
export { conf: conf, cmd: "echo \${HOME} \\(port)", s: "\\(1.5) \\(true)" }
`;
  assert.equal(
    exportText(src),
    '---\nconf: |-\n  server {\n    listen 8080;\n  }\ncmd: "echo ${HOME} 8080"\ns: 1.5 true\n',
  );
  assert.deepEqual(checkText('let x = "a \\([1])"\n'), [
    '1:14 CLEAT_TYPE_MISMATCH only Str, Int, Float or Bool can be interpolated, found `[Int]`',
  ]);
});

test('§6 refinement examples: DnsLabel, Port, clamp', () => {
  const src = `type DnsLabel = Str where len(self) <= 63 && matches(self, "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
type Port     = Int where 1 <= self && self <= 65535
fn clamp(lo: Int, hi: Int where hi >= lo, x: Int) -> Int = max(lo, min(hi, x))
let a: DnsLabel = "web-1"
let b: DnsLabel = "Web_1"
let p: Port = 0
let q: Port = 443
let c = clamp(1, 10, 20)
let d = clamp(10, 1, 5)
let e = clamp(hi: 3, lo: 2, x: 1)
`;
  assert.deepEqual(checkText(src), [
    '5:19 CLEAT_REFINEMENT value "Web_1" does not satisfy `where len(self) <= 63 && matches(self, "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")`',
    '6:15 CLEAT_REFINEMENT value 0 does not satisfy `where 1 <= self && self <= 65535`',
    '9:19 CLEAT_REFINEMENT value 1 does not satisfy `where hi >= lo` (at hi)',
  ]);
  assert.equal(
    exportText(
      `${src
        .split('\n')
        .filter((l) => !/^let [bpd][: ]/.test(l))
        .join('\n')}export { c: c, e: e }\n`,
    ),
    '---\nc: 10\ne: 2\n',
  );
});

test('§6 known facts: path conditions and input refinements decide VCs', () => {
  const src = `type Small = Int where self <= 10
input n: Int where self >= 20
input m: Int
let a: Small = n
let b: Small = if m <= 10 then m else 10
let c: Small = m
`;
  assert.deepEqual(checkText(src), ['4:16 CLEAT_REFINEMENT `n` can never satisfy `where self <= 10` (known: >= 20)']);
  const runtime = `${src.replace('let a: Small = n\n', '')}export { b: b, c: c }\n`;
  assert.equal(exportText(runtime, {}, { sets: ['n=20', 'm=3'] }), '---\nb: 3\nc: 3\n');
  assert.equal(
    exportText(runtime, {}, { sets: ['n=20', 'm=11'] }),
    'ERROR\n5:16 CLEAT_REFINEMENT value 11 does not satisfy `where self <= 10`',
  );
});
