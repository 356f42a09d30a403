/**
 * `kubecfg httpd` over real HTTP: the session (server/httpd/session.ts)
 * listens on 127.0.0.1:0 and renders through a CommandRunner with the
 * daemon's result cache; the executor runs the `httpd` worker command in
 * this process (the daemon runs the same command on its worker pool).
 * Covers the spec's Metacontroller example end to end with a request shaped
 * as Metacontroller sends it, 50 concurrent requests with one failing hook,
 * edit-then-request, the 400/404/405/500/504 answers, /healthz, /metrics,
 * start-up errors, YAKL hooks and stopping on cancel.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ResultCache } from '../../cache/index.js';
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import { CommandRunner, type CachedOutput, type Executor } from '../../server/command-runner.js';
import { runCommand } from '../../server/commands/run.js';
import { runHttpd } from '../../server/httpd/session.js';
import { JobCancelledError } from '../../server/worker/pool.js';
import { NO_TTY as TTY } from '../support/command-params.js';

// The hook of the spec's Metacontroller section: a sync hook answering children, status and resyncAfterSeconds.
const SYNC = `local process = function(request) {
  local parent = request.parent,

  deployment:: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'useless-' + parent.spec.name,
      namespace: parent.metadata.namespace,
      labels: { app: 'useless', instance: parent.spec.name },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: $.deployment.metadata.labels },
      template: {
        metadata: { labels: $.deployment.metadata.labels },
        spec: { containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', 'infinity'] }] },
      },
    },
  },

  resyncAfterSeconds: 30.0,
  status: {
    observedGeneration: std.get(request.parent.metadata, 'generation', 0),
    ready: if std.length(std.objectFields(request.children)) > 0 then 'true' else 'false',
  },
  children: [
    $.deployment,
  ],
};

//Top Level Function
function(request)
  local response = process(request);
  std.trace('request: ' + std.manifestJsonEx(request, '  ') + '\\n\\nresponse: ' + std.manifestJsonEx(response, '  '), response)
`;

const FAIL = `function(request)
  { x: error 'no children for ' + request.parent.metadata.name }
`;

/** What Metacontroller POSTs to a CompositeController's sync hook. */
function metacontrollerRequest(name: string, generation: number, children?: Record<string, unknown>): unknown {
  return {
    controller: {
      apiVersion: 'metacontroller.k8s.io/v1alpha1',
      kind: 'CompositeController',
      metadata: { name: 'useless-controller' },
      spec: {
        generateSelector: true,
        parentResource: { apiVersion: 'example.com/v1', resource: 'uselesspods' },
        childResources: [{ apiVersion: 'apps/v1', resource: 'deployments', updateStrategy: { method: 'InPlace' } }],
        hooks: { sync: { webhook: { url: 'http://useless-controller.metacontroller/sync' } } },
      },
    },
    parent: {
      apiVersion: 'example.com/v1',
      kind: 'UselessPod',
      metadata: { name: 'test1', namespace: 'default', generation, uid: '7d3c1b0e' },
      spec: { name },
    },
    // Children by `Kind.apiVersion`, then by name: none yet before the first sync.
    children: children ? { 'Deployment.apps/v1': children } : {},
    related: {},
    finalizing: false,
  };
}

interface Reply {
  status: number;
  type: string | undefined;
  body: string;
}

function http(port: number, method: string, path: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method,
      path,
      agent: false,
      headers: body !== undefined ? { 'content-type': 'application/json' } : {},
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: text }));
    });
    req.end(body);
  });
}

/** An executor running the worker command here; `slow.jsonnet` never finishes (for deadlines). */
const executor: Executor = {
  execute: (command, params) =>
    params.args[0] === 'slow.jsonnet' && params.flags['__httpd-request'] !== undefined
      ? new Promise(() => {})
      : new Promise((resolve) =>
          setImmediate(() => resolve(runCommand(command, params, { shouldStop: () => false, testHooks: false }))),
        ),
};

class Session {
  log = '';
  private waiters: (() => void)[] = [];
  readonly ctl = new AbortController();
  readonly done: Promise<CommandResult>;

  constructor(dir: string, args: string[], flags: CommandParams['flags'] = {}) {
    const runner = new CommandRunner(executor, new ResultCache<CachedOutput>({ maxBytes: 16 * 1024 * 1024 }), null);
    const params: CommandParams = {
      requestId: 'httpd-test',
      args,
      flags: { features: ['httpd', 'yakl'], 'listen-addr': '127.0.0.1:0', ...flags },
      cwd: dir,
      env: {},
      tty: TTY,
    };
    const sink = {
      write: (_stream: 'stdout' | 'stderr', data: string) => {
        this.log += data;
        for (const w of this.waiters.splice(0)) w();
      },
    };
    this.done = runHttpd(runner, params, sink, this.ctl.signal);
    this.done.catch(() => {});
  }

  /** Waits until the log matches `re` (or the session ends). */
  async waitLog(re: RegExp): Promise<RegExpExecArray> {
    let ended = false;
    const end = (): void => {
      ended = true;
      for (const w of this.waiters.splice(0)) w();
    };
    this.done.then(end, end);
    for (;;) {
      const m = re.exec(this.log);
      if (m) return m;
      if (ended) throw new Error(`session ended; log:\n${this.log}`);
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  async port(): Promise<number> {
    const first = await this.waitLog(/^Listening on 127\.0\.0\.1:(\d+)\n/);
    return Number(first[1]);
  }
}

const dirs: string[] = [];
function tempDir(files: Record<string, string>): string {
  const d = mkdtempSync(join(tmpdir(), 'kcfg-httpd-'));
  dirs.push(d);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
  return d;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('httpd serving sync.jsonnet and fail.jsonnet', () => {
  let dir: string;
  let session: Session;
  let port: number;
  before(async () => {
    dir = tempDir({
      'sync.jsonnet': SYNC,
      'fail.jsonnet': FAIL,
      'slow.jsonnet': 'function(request) request',
      'hook.yakl': "${function(request) {echo: request.parent.spec.name, via: 'yakl'}}\n",
    });
    session = new Session(dir, ['sync.jsonnet', 'fail.jsonnet', 'slow.jsonnet', 'hook.yakl'], { timeout: '300ms' });
    port = await session.port();
  });
  after(async () => {
    session.ctl.abort();
    await assert.rejects(session.done, JobCancelledError);
    // The listener is closed with the session.
    await assert.rejects(http(port, 'GET', '/healthz'), /ECONNREFUSED/);
  });

  test('the first log line names the address, then one line per hook', () => {
    assert.match(
      session.log,
      /^Listening on 127\.0\.0\.1:\d+\nPOST \/sync calls the top-level function of sync\.jsonnet\n/,
    );
    assert.match(session.log, /POST \/hook calls the top-level function of hook\.yakl/);
  });

  test('the Metacontroller sync example answers children, status and resyncAfterSeconds', async () => {
    const reply = await http(port, 'POST', '/sync', JSON.stringify(metacontrollerRequest('instance1', 2)));
    assert.equal(reply.status, 200, reply.body);
    assert.equal(reply.type, 'application/json');
    // kubecfg's JSON: the jsonnet command's layout (three-space indent, final newline).
    assert.match(reply.body, /^\{\n   "children": \[\n/);
    assert.ok(reply.body.endsWith('}\n'));
    const response = JSON.parse(reply.body);
    assert.equal(response.resyncAfterSeconds, 30);
    assert.deepEqual(response.status, { observedGeneration: 2, ready: 'false' });
    assert.equal(response.children.length, 1);
    const deployment = response.children[0];
    assert.equal(deployment.kind, 'Deployment');
    assert.deepEqual(deployment.metadata, {
      name: 'useless-instance1',
      namespace: 'default',
      labels: { app: 'useless', instance: 'instance1' },
    });
    assert.deepEqual(deployment.spec.selector.matchLabels, { app: 'useless', instance: 'instance1' });
    // std.trace goes to the log the client streams.
    await session.waitLog(/TRACE: sync\.jsonnet:\d+ request: \{/);
    await session.waitLog(/POST \/sync 200 \d+ms/);
  });

  test('children observed make the status ready', async () => {
    const reply = await http(
      port,
      'POST',
      '/sync',
      JSON.stringify(metacontrollerRequest('instance1', 3, { 'useless-instance1': {} })),
    );
    assert.equal(reply.status, 200, reply.body);
    assert.deepEqual(JSON.parse(reply.body).status, { observedGeneration: 3, ready: 'true' });
  });

  test('a YAKL hook', async () => {
    const reply = await http(port, 'POST', '/hook', JSON.stringify(metacontrollerRequest('y', 1)));
    assert.equal(reply.status, 200, reply.body);
    assert.deepEqual(JSON.parse(reply.body), { echo: 'y', via: 'yakl' });
  });

  const errors: { name: string; method: string; path: string; body?: string; status: number; text: RegExp }[] = [
    {
      name: 'malformed JSON',
      method: 'POST',
      path: '/sync',
      body: '{"parent": ',
      status: 400,
      text: /^malformed JSON request body: /,
    },
    {
      name: 'an empty body',
      method: 'POST',
      path: '/sync',
      body: '',
      status: 400,
      text: /^malformed JSON request body/,
    },
    { name: 'an unknown path', method: 'POST', path: '/nope', body: '{}', status: 404, text: /^404 page not found\n$/ },
    { name: 'GET on a hook', method: 'GET', path: '/sync', status: 405, text: /^Method not allowed\n$/ },
    {
      name: 'an evaluation error',
      method: 'POST',
      path: '/fail',
      body: JSON.stringify(metacontrollerRequest('z', 1)),
      status: 500,
      text: /^RUNTIME ERROR: no children for test1\n\tfail\.jsonnet:2:\d+/,
    },
    {
      name: 'a missing field of the request',
      method: 'POST',
      path: '/sync',
      body: '{}',
      status: 500,
      text: /RUNTIME ERROR: Field does not exist: parent\n\tsync\.jsonnet:\d+:\d+/,
    },
    {
      name: 'the deadline',
      method: 'POST',
      path: '/slow',
      body: '{}',
      status: 504,
      text: /took longer than --timeout 300ms/,
    },
  ];
  for (const e of errors) {
    test(`${e.status} for ${e.name}`, async () => {
      const reply = await http(port, e.method, e.path, e.body);
      assert.equal(reply.status, e.status, reply.body);
      assert.match(reply.body, e.text);
      if (e.status !== 404 && e.status !== 405) assert.match(reply.type ?? '', /^text\/plain/);
    });
  }

  test('a 500 is logged with the located error', async () => {
    await http(port, 'POST', '/fail', '{"parent": {"metadata": {"name": "logged"}}}');
    await session.waitLog(/POST \/fail 500 \d+ms\nRUNTIME ERROR: no children for logged\n\tfail\.jsonnet:2:/);
  });

  test('50 concurrent requests, half to a failing hook: the other hook keeps serving', async () => {
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        http(port, 'POST', i % 2 ? '/fail' : '/sync', JSON.stringify(metacontrollerRequest(`c${i}`, i))).then((r) => ({
          i,
          r,
        })),
      ),
    );
    for (const { i, r } of replies) {
      if (i % 2) assert.equal(r.status, 500, r.body);
      else {
        assert.equal(r.status, 200, r.body);
        assert.equal(JSON.parse(r.body).children[0].metadata.name, `useless-c${i}`);
      }
    }
  });

  test('an edit takes effect on the next request, without a restart', async () => {
    const body = JSON.stringify(metacontrollerRequest('edited', 1));
    assert.equal(JSON.parse((await http(port, 'POST', '/sync', body)).body).resyncAfterSeconds, 30);
    writeFileSync(join(dir, 'sync.jsonnet'), SYNC.replace('resyncAfterSeconds: 30.0', 'resyncAfterSeconds: 45.0'));
    assert.equal(JSON.parse((await http(port, 'POST', '/sync', body)).body).resyncAfterSeconds, 45);
    writeFileSync(join(dir, 'sync.jsonnet'), SYNC);
  });

  test('/healthz and /metrics', async () => {
    const health = await http(port, 'GET', '/healthz');
    assert.equal(health.status, 200);
    assert.equal(health.body, 'ok\n');
    const metrics = await http(port, 'GET', '/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.body, /^kubecfg_httpd_requests_total\{path="\/sync",status="200"\} \d+$/m);
    assert.match(metrics.body, /^kubecfg_httpd_requests_total\{path="\/fail",status="500"\} \d+$/m);
    assert.match(metrics.body, /^kubecfg_httpd_requests_total\{path="other",status="404"\} \d+$/m);
    assert.match(metrics.body, /^kubecfg_httpd_request_duration_seconds_count\{path="\/sync"\} \d+$/m);
  });
});

describe('httpd start-up errors: nothing is served', () => {
  const cases: {
    name: string;
    files: Record<string, string>;
    args: string[];
    flags?: CommandParams['flags'];
    want: RegExp;
  }[] = [
    {
      name: 'a file without a top-level function',
      files: { 'obj.jsonnet': '{ a: 1 }' },
      args: ['obj.jsonnet'],
      want: /obj\.jsonnet: httpd calls the file's top-level function with the request, but the file's value is an object/,
    },
    {
      name: 'a function without a request parameter',
      files: { 'f.jsonnet': 'function(req) req' },
      args: ['f.jsonnet'],
      want: /f\.jsonnet: the top-level function has no parameter named request \(its parameters: req\)/,
    },
    {
      name: 'a syntax error',
      files: { 'bad.jsonnet': 'function(request) {' },
      args: ['bad.jsonnet'],
      want: /bad\.jsonnet:1:\d+/,
    },
    { name: 'a missing file', files: {}, args: ['gone.jsonnet'], want: /.*gone\.jsonnet/ },
    {
      name: 'the feature is off',
      files: { 'f.jsonnet': 'function(request) request' },
      args: ['f.jsonnet'],
      flags: { features: [] },
      want: /httpd is an alpha feature; turn it on with --features=httpd/,
    },
    {
      name: 'two files on one route',
      files: { 'f.jsonnet': 'function(request) request' },
      args: ['f.jsonnet', './f.jsonnet'],
      want: /f\.jsonnet and \.\/f\.jsonnet would both be served at \/f/,
    },
    {
      name: 'a bad listen address',
      files: { 'f.jsonnet': 'function(request) request' },
      args: ['f.jsonnet'],
      flags: { 'listen-addr': 'localhost' },
      want: /invalid listen address "localhost": missing port in address/,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const session = new Session(tempDir(c.files), c.args, c.flags);
      const result = await session.done;
      assert.equal(result.exitCode, 1);
      assert.match(session.log, c.want);
      assert.doesNotMatch(session.log, /Listening on/);
    });
  }
});
