/**
 * `kubecfg traceback` end to end through the command dispatcher (as a
 * render worker runs it): the spec's two examples byte for byte (the
 * absolute path is the test's temp dir instead of /dev/shm/kubecfg/example),
 * and every field of examples/busybox and examples/guestbook traced to the
 * line a person would name.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { CommandParams } from '../../protocol/index.js';
import { runCommand } from '../../server/commands/run.js';
import type { CommandName } from '../../server/worker/messages.js';
import { repoRoot } from '../support/repo-root.js';
import { NO_TTY as TTY } from '../support/command-params.js';

const REPO_ROOT = repoRoot(import.meta.url);

function run(command: CommandName, cwd: string, args: string[], flags: CommandParams['flags'] = {}) {
  const params: CommandParams = { requestId: 't', args, flags, cwd, env: {}, tty: TTY };
  return runCommand(command, params, { shouldStop: () => false, testHooks: false });
}

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'kcfg-traceback-'));
  dirs.push(d);
  return d;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// The spec's code.jsonnet (Provenance and Tracking), verbatim.
const CODE = `local kubecfg = import 'kubecfg.libsonnet';

{
  local outer = self,

  container:: {
    name: 'busybox',
    image: 'busybox:latest',
  },

  deployment: {
    local this = self,

    apiVersion: 'extensions/v1beta1',
    kind: 'Deployment',
    metadata: {
      name: 'busybox',
      labels: { name: 'busybox' },
    },
    spec: {
      replicas: 1,
      template: {
        metadata: { labels: this.metadata.labels },
        spec: {
          containers: [outer.container],
        },
      },
    },
  },
}
`;

const OVERLAY_TAIL = `} + {

  deployment+: {
    spec+: {
      replicas: 3,
    },
  },
}
`;

function showThenTrace(dir: string, line: number) {
  const shown = run('show', dir, ['code.jsonnet'], { 'show-provenance': true });
  assert.equal(shown.exitCode, 0, shown.stderr);
  writeFileSync(join(dir, 'output.yaml'), shown.stdout);
  return run('traceback', dir, [`output.yaml:${line}`], { features: ['traceback'] });
}

test('spec example: replicas: 1 traces to line 21', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'code.jsonnet'), CODE);
  const r = showThenTrace(dir, 12);
  assert.equal(readFileSync(join(dir, 'output.yaml'), 'utf8').split('\n')[11], '  replicas: 1');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(r.stderr, 'Tracing file="code.jsonnet", path="$.deployment.spec.replicas"\n');
  assert.equal(r.stdout, `${dir}/code.jsonnet:21 \n`);
});

test('spec example: after the overlay, replicas: 3 traces to line 34', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'code.jsonnet'), CODE.replace(/}\n$/, OVERLAY_TAIL));
  assert.equal(readFileSync(join(dir, 'code.jsonnet'), 'utf8').split('\n')[33], '      replicas: 3,');
  const r = showThenTrace(dir, 12);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(r.stderr, 'Tracing file="code.jsonnet", path="$.deployment.spec.replicas"\n');
  assert.equal(r.stdout, `${dir}/code.jsonnet:34 \n`);
});

// --all: every field the value passed through, latest first, as kubecfg prints ursonnet's roots.
function traceAll(dir: string, yamlLine: string, nth = 0) {
  const shown = run('show', dir, ['code.jsonnet'], { 'show-provenance': true });
  assert.equal(shown.exitCode, 0, shown.stderr);
  writeFileSync(join(dir, 'output.yaml'), shown.stdout);
  const line =
    shown.stdout
      .split('\n')
      .findIndex((l, i, all) => l === yamlLine && all.slice(0, i).filter((x) => x === yamlLine).length === nth) + 1;
  assert.ok(line > 0, yamlLine);
  return run('traceback', dir, [`output.yaml:${line}`], { features: ['traceback'], all: true });
}

test('--all: the spec examples are one line each, as kubecfg prints them', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'code.jsonnet'), CODE);
  assert.equal(traceAll(dir, '  replicas: 1').stdout, `${dir}/code.jsonnet:21 \n`);
  writeFileSync(join(dir, 'code.jsonnet'), CODE.replace(/}\n$/, OVERLAY_TAIL));
  // `deployment+: {...}` and `spec+: {...}` have object bodies: ursonnet does not trace them.
  assert.equal(traceAll(dir, '  replicas: 3').stdout, `${dir}/code.jsonnet:34 \n`);
});

test('--all: a value built from other fields lists them, the last evaluated first', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'code.jsonnet'), CODE);
  const labels = traceAll(dir, '        name: busybox');
  assert.equal(labels.exitCode, 0, labels.stderr);
  assert.match(labels.stderr, /path="\$\.deployment\.spec\.template\.metadata\.labels\.name"/);
  assert.equal(labels.stdout, `${dir}/code.jsonnet:18 \n${dir}/code.jsonnet:23 \n`);
  const containers = traceAll(dir, '      containers:');
  assert.equal(containers.exitCode, 0, containers.stderr);
  assert.equal(containers.stdout, [7, 8, 25].map((n) => `${dir}/code.jsonnet:${n} \n`).join(''));
});

test('traceback needs the traceback feature', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'output.yaml'), 'a: 1\n');
  const r = run('traceback', dir, ['output.yaml:1']);
  assert.equal(r.exitCode, 1);
  assert.match(r.stderr, /^traceback is an alpha feature; turn it on with --features=traceback\n$/);
});

test('traceback errors name the file and line', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'output.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
  const cases: [string, RegExp][] = [
    ['output.yaml:2', /output\.yaml:2: provenance annotation "kubecfg\.github\.com\/provenance-file" not found/],
    ['output.yaml', /argument must be <filename\.yaml>:<linenumber>/],
    ['missing.yaml:3', /missing\.yaml/],
  ];
  for (const [arg, want] of cases) {
    const r = run('traceback', dir, [arg], { features: ['traceback'] });
    assert.equal(r.exitCode, 1, arg);
    assert.match(r.stderr, want);
  }
});

// ---- every field of the examples --------------------------------------------

/** Expected source line per value path inside one app() object of guestbook; 'call' = the app(...) call's line. */
const GUESTBOOK_APP: Record<string, number | 'call'> = {
  'deployment.apiVersion': 10,
  'deployment.kind': 11,
  'deployment.metadata': 12,
  'deployment.metadata.labels': 7,
  'deployment.metadata.labels.app': 7,
  'deployment.metadata.labels.component': 'call',
  'deployment.metadata.labels.tier': 'call',
  'deployment.metadata.name': 'call',
  'deployment.spec': 13,
  'deployment.spec.replicas': 'call',
  'deployment.spec.selector': 15,
  'deployment.spec.selector.matchLabels': 7,
  'deployment.spec.selector.matchLabels.app': 7,
  'deployment.spec.selector.matchLabels.component': 'call',
  'deployment.spec.selector.matchLabels.tier': 'call',
  'deployment.spec.template': 16,
  'deployment.spec.template.metadata': 17,
  'deployment.spec.template.metadata.labels': 7,
  'deployment.spec.template.metadata.labels.app': 7,
  'deployment.spec.template.metadata.labels.component': 'call',
  'deployment.spec.template.metadata.labels.tier': 'call',
  'deployment.spec.template.spec': 18,
  'deployment.spec.template.spec.containers': 19,
  'deployment.spec.template.spec.containers[0].image': 'call',
  'deployment.spec.template.spec.containers[0].name': 'call',
  'deployment.spec.template.spec.containers[0].ports': 23,
  'deployment.spec.template.spec.containers[0].ports[0].containerPort': 'call',
  'deployment.spec.template.spec.containers[0].resources': 22,
  'deployment.spec.template.spec.containers[0].resources.requests': 22,
  'deployment.spec.template.spec.containers[0].resources.requests.cpu': 22,
  'deployment.spec.template.spec.containers[0].resources.requests.memory': 22,
  'service.apiVersion': 32,
  'service.kind': 33,
  'service.metadata': 34,
  'service.metadata.labels': 7,
  'service.metadata.labels.app': 7,
  'service.metadata.labels.component': 'call',
  'service.metadata.labels.tier': 'call',
  'service.metadata.name': 'call',
  'service.spec': 35,
  'service.spec.ports': 36,
  'service.spec.ports[0].port': 'call',
  'service.spec.ports[0].targetPort': 'call',
  'service.spec.selector': 7,
  'service.spec.selector.app': 7,
  'service.spec.selector.component': 'call',
  'service.spec.selector.tier': 'call',
};

function guestbookTable(): Map<string, number> {
  const table = new Map<string, number>();
  const apps: [string, number][] = [
    ['redisLeader', 43],
    ['redisFollower', 44],
    ['frontend', 45],
  ];
  for (const [app, call] of apps)
    for (const [path, line] of Object.entries(GUESTBOOK_APP))
      table.set(`$.${app}.${path}`, line === 'call' ? call : line);
  // The frontend's extras: env (given on the call's second line) and the overlay's service type.
  const env = '$.frontend.deployment.spec.template.spec.containers[0].env';
  for (const p of [env, `${env}[0].name`, `${env}[0].value`]) table.set(p, 46);
  table.set('$.frontend.service.spec', 47);
  table.set('$.frontend.service.spec.type', 47);
  return table;
}

const BUSYBOX: Map<string, number> = new Map([
  ['$.deployment.apiVersion', 16],
  ['$.deployment.kind', 17],
  ['$.deployment.metadata', 18],
  ['$.deployment.metadata.labels', 20],
  ['$.deployment.metadata.labels.name', 20],
  ['$.deployment.metadata.name', 19],
  ['$.deployment.spec', 22],
  ['$.deployment.spec.replicas', 23],
  ['$.deployment.spec.template', 24],
  ['$.deployment.spec.template.metadata', 25],
  ['$.deployment.spec.template.metadata.labels', 20],
  ['$.deployment.spec.template.metadata.labels.name', 20],
  ['$.deployment.spec.template.spec', 26],
  ['$.deployment.spec.template.spec.containers', 27],
  ['$.deployment.spec.template.spec.containers[0].image', 10],
  ['$.deployment.spec.template.spec.containers[0].name', 9],
]);

for (const [example, table] of [
  ['busybox', BUSYBOX],
  ['guestbook', guestbookTable()],
] as const) {
  test(`every field of examples/${example}.jsonnet traces to its line`, () => {
    const out = tempDir();
    const shown = run('show', REPO_ROOT, [`examples/${example}.jsonnet`], { 'show-provenance': true });
    assert.equal(shown.exitCode, 0, shown.stderr);
    const yaml = join(out, 'rendered.yaml');
    writeFileSync(yaml, shown.stdout);
    const seen = new Set<string>();
    shown.stdout.split('\n').forEach((text, i) => {
      // Separators, and the annotations show added (they are not in the source).
      if (text === '---' || text === '' || /^\s*annotations:|kubecfg\.github\.com\//.test(text)) return;
      const r = run('traceback', REPO_ROOT, [`${yaml}:${i + 1}`], { features: ['traceback'] });
      assert.equal(r.exitCode, 0, `${text}: ${r.stderr}`);
      const path = /path="([^"]*)"/.exec(r.stderr)?.[1] ?? '';
      assert.ok(table.has(path), `line ${i + 1} (${text.trim()}) traced ${path}, which the table does not list`);
      assert.equal(
        r.stdout,
        `${REPO_ROOT}/examples/${example}.jsonnet:${table.get(path)} \n`,
        `${path} (${text.trim()})`,
      );
      seen.add(path);
    });
    assert.deepEqual(
      [...table.keys()].filter((p) => !seen.has(p)),
      [],
      'table rows no rendered line reached',
    );
  });
}

// ---- YAKL: the .yakl line ----------------------------------------------------

const YAKL = `'&port': \${'8' + '0'}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web
data:
  mode: prod
  port: \${port}
  other: \${std.join('-', ['a', 'b'])}
`;

test('a .yakl file traces to its own lines (locals, computed values, block keys)', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'app.yakl'), YAKL);
  const shown = run('show', dir, ['app.yakl'], { 'show-provenance': true, features: ['yakl'] });
  assert.equal(shown.exitCode, 0, shown.stderr);
  writeFileSync(join(dir, 'out.yaml'), shown.stdout);
  const want: Record<string, number> = {
    '$.apiVersion': 3,
    '$.kind': 4,
    '$.metadata': 5,
    '$.metadata.name': 6,
    '$.data': 7,
    '$.data.mode': 8,
    '$.data.port': 1,
    '$.data.other': 10,
  };
  const seen: string[] = [];
  shown.stdout.split('\n').forEach((text, i) => {
    if (text === '---' || text === '' || /^\s*annotations:|kubecfg\.github\.com\//.test(text)) return;
    const r = run('traceback', dir, [`out.yaml:${i + 1}`], { features: ['traceback', 'yakl'] });
    const path = /path="([^"]*)"/.exec(r.stderr)?.[1] ?? '';
    assert.equal(r.stdout, `${dir}/app.yakl:${want[path]} \n`, `${path}: ${r.stderr}`);
    seen.push(path);
  });
  assert.deepEqual(seen.sort(), Object.keys(want).sort());
});

// ---- eval --trace -----------------------------------------------------------

test('eval --trace prints the value, then where it was defined (stderr)', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'code.jsonnet'), CODE.replace(/}\n$/, OVERLAY_TAIL));
  const cases: [string | undefined, string, number][] = [
    ['$.deployment.spec.replicas', '3\n\n', 34],
    ['$.deployment.spec.template.metadata.labels.name', 'busybox\n\n', 18],
    ['$.deployment.spec.template.spec.containers[0].image', 'busybox:latest\n\n', 8],
  ];
  for (const [expr, stdout, line] of cases) {
    const r = run('eval', dir, ['code.jsonnet'], { features: ['eval'], trace: true, ...(expr ? { expr } : {}) });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, stdout);
    assert.equal(r.stderr, `${dir}/code.jsonnet:${line} \n`, String(expr));
  }
  const whole = run('eval', dir, ['code.jsonnet'], { features: ['eval'], trace: true });
  assert.equal(whole.stderr, `${dir}/code.jsonnet:3 \n`);
  const exec = run('eval', dir, ['code.jsonnet'], { features: ['eval'], trace: true, exec: '1' });
  assert.equal(exec.exitCode, 1);
  assert.match(exec.stderr, /--trace follows FILE or -e EXPR/);
});

// ---- List items -------------------------------------------------------------

const LIST = `{
  list: {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '1' } },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'b' },
        data: {
          x: '2',
        },
      },
    ],
  },
}
`;

test('an object from a List is found among the items by its identity', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'list.jsonnet'), LIST);
  const shown = run('show', dir, ['list.jsonnet'], { 'show-provenance': true });
  assert.equal(shown.exitCode, 0, shown.stderr);
  writeFileSync(join(dir, 'out.yaml'), shown.stdout);
  const lines = shown.stdout.split('\n');
  const x2 = lines.indexOf('  x: "2"') + 1;
  assert.ok(x2 > 0, shown.stdout);
  const r = run('traceback', dir, [`out.yaml:${x2}`], { features: ['traceback'] });
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(r.stderr, 'Tracing file="list.jsonnet", path="$.list.items[1].data.x"\n');
  assert.equal(r.stdout, `${dir}/list.jsonnet:12 \n`);
});
