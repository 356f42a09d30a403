/**
 * `bench/kcl/run`: `kcl run` of a generated myks-shaped tree (prototype schemas subclassing
 * myks.App, a root level declaring the applications, one package per environment overriding
 * them in app-<name>.k files, myks.with_apps / myks.finalize) against our Jsonnet engine
 * computing the same values from the same data, in the same run. Both outputs are checked
 * to hold the same values first. Prints medians and the ratios (the target: as fast
 * as Jsonnet): cold (every file parsed, as on a first run) and with the parses reused (the
 * daemon's parse cache when only evaluation reruns). No assertions on time. BENCH_CPU=1
 * measures CPU time instead of wall time.
 */
import { evaluateSnippet } from '../../lang/jsonnet/index.js';
import { parseModule, runKcl, type KclHost, type Module } from '../../lang/kcl/index.js';
import { memoryHost } from '../../lang/kcl/memory-host.js';
import { fmtMs, median, printTable, timeMs } from '../lib/measure.js';

const ENVS = Number(process.env.BENCH_KCL_ENVS ?? 20);
const APPS = Number(process.env.BENCH_KCL_APPS ?? 30);
const PROTOS = 5;
const runs = Number(process.env.BENCH_RUNS ?? 5);

function kclTree(): Record<string, string> {
  const f: Record<string, string> = { '/t/kcl.mod': '[package]\nname = "bench"\n' };
  for (let j = 0; j < PROTOS; j++)
    f[`/t/prototypes/p${j}/proto.k`] =
      `import myks\n\nschema P${j}(myks.App):\n    proto: str = "p${j}"\n    application: Application = Application {}\n\n` +
      `schema Application:\n    replicas: int = 1\n    image: str = "img${j}"\n    port: int = 8080\n` +
      `    labels: {str:str} = {app = "p${j}"}\n\n    check:\n        replicas >= 1, "replicas must be at least 1"\n`;
  const imports = [...Array(PROTOS).keys()].map((j) => `import prototypes.p${j}`).join('\n');
  const decls = [...Array(APPS).keys()]
    .map((k) => `    a${k} = p${k % PROTOS}.P${k % PROTOS} {\n        application.image = "registry/a${k}:1.0"\n    }`)
    .join('\n');
  f['/t/envs/env.k'] =
    'import myks\n\n_level = {\n    environment.id = ""\n    argocd.enabled = True\n    helm.namespace = "default"\n}\n\nlevel = myks.with_apps(_level, _apps)\n';
  f['/t/envs/apps.k'] = `import myks\n${imports}\n\n_apps: myks.Apps {\n${decls}\n}\n`;
  for (let i = 0; i < ENVS; i++) {
    f[`/t/envs/e${i}/env.k`] =
      `import myks\nimport envs\n\n_level = envs.level | {\n    environment.id = "e${i}"\n    helm.namespace = "e${i}"\n}\n\n` +
      'env = myks.finalize(myks.with_apps(_level, _apps))\n';
    for (let k = 0; k < APPS; k++)
      f[`/t/envs/e${i}/app-a${k}.k`] =
        `import myks\n\n_apps: myks.Apps {\n    a${k}.application.replicas = ${i + k + 1}\n}\n`;
  }
  f['/t/main.k'] =
    [...Array(ENVS).keys()].map((i) => `import envs.e${i}`).join('\n') +
    '\n\nenvironments = {\n' +
    [...Array(ENVS).keys()].map((i) => `    "e${i}" = e${i}.env`).join('\n') +
    '\n}\n';
  return f;
}

function jsonnetProgram(): string {
  return `
local proto(j) = { proto: 'p' + j, application: { replicas: 1, image: 'img' + j, port: 8080, labels: { app: 'p' + j } } };
local names = ['a' + k for k in std.range(0, ${APPS - 1})];
local root = {
  environment: { id: '' }, argocd: { enabled: true }, helm: { namespace: 'default' },
  applications: { ['a' + k]: proto(k % ${PROTOS}) + { application+: { image: 'registry/a' + k + ':1.0' } } for k in std.range(0, ${APPS - 1}) },
};
local env(i) =
  local lvl = root + {
    environment+: { id: 'e' + i }, helm+: { namespace: 'e' + i },
    applications+: { ['a' + k]+: { application+: { replicas: i + k + 1 } } for k in std.range(0, ${APPS - 1}) },
  };
  assert std.all([lvl.applications[n].application.replicas >= 1 for n in names]) : 'replicas must be at least 1';
  lvl + { environment+: { applications: [{ proto: lvl.applications[n].proto, name: n } for n in names] } };
{ environments: { ['e' + i]: env(i) for i in std.range(0, ${ENVS - 1}) } }
`;
}

/** Key-order-insensitive equality of two JSON values. */
function sameValues(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValues(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return (
      ka.join() === kb.join() &&
      ka.every((k) => sameValues((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}

/** CPU time (user + system) of fn: on a shared machine it moves far less than wall time. */
function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

// BENCH_CPU=1: CPU times instead of wall times (compare builds on a loaded machine with it).
const clock = process.env.BENCH_CPU === '1' ? cpuMs : timeMs;

function measure(fn: () => void): number {
  fn(); // warm-up: JIT compilation on both sides alike
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(clock(fn));
  return median(times);
}

const files = kclTree();
const host = memoryHost(files);
const code = jsonnetProgram();
const kclOut = JSON.parse(runKcl(host, { paths: ['/t/main.k'], format: 'json' }));
const jsonnetOut = evaluateSnippet('bench.jsonnet', code);
if (!sameValues(kclOut, jsonnetOut)) {
  console.error('kcl and jsonnet disagree on the values');
  process.exit(1);
}
const kclMs = measure(() => runKcl(host, { paths: ['/t/main.k'] }));
// The daemon's warm path: files unchanged since the last run, so their parses are reused.
const parsed = new Map<string, Module>();
const warmHost: KclHost = {
  ...host,
  parse: (path, text) => {
    let m = parsed.get(path);
    if (!m) parsed.set(path, (m = parseModule(path, text)));
    return m;
  },
};
const kclWarmMs = measure(() => runKcl(warmHost, { paths: ['/t/main.k'] }));
const jsonnetMs = measure(() => evaluateSnippet('bench.jsonnet', code));
const kLines = Object.values(files).reduce((n, t) => n + t.split('\n').length, 0);
printTable([
  [
    'case',
    'envs x apps',
    'kcl files',
    'kcl lines',
    'kcl run',
    'kcl run, parsed',
    'jsonnet',
    'kcl/jsonnet',
    'parsed/jsonnet',
  ],
  [
    'myks tree',
    `${ENVS} x ${APPS}`,
    String(Object.keys(files).length),
    String(kLines),
    fmtMs(kclMs),
    fmtMs(kclWarmMs),
    fmtMs(jsonnetMs),
    `${(kclMs / jsonnetMs).toFixed(2)}x`,
    `${(kclWarmMs / jsonnetMs).toFixed(2)}x`,
  ],
]);
