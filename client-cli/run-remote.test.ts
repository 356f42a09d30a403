import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, describe, it } from 'node:test';
import {
  ErrorCodes,
  FRAMED_CONTENT_TYPE,
  Notifications,
  PROTOCOL_VERSION,
  STDOUT_PIPE_HEADER,
  type CommandParams,
} from '../protocol/index.js';
import { daemonPaths, ensureSecureDir, type DaemonPaths } from './paths.js';
import { isBuildSkew, runRemote } from './run-remote.js';
import { RpcCallError } from './connection.js';

/** What the fake daemon answers to one command: an error, or output lines and an exit code. */
type Answer = { error: { code: number; message: string; data?: unknown } } | { stdout: string; exitCode: number };

const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function sandbox(): DaemonPaths {
  const root = mkdtempSync('/tmp/kcfg-rr-');
  roots.push(root);
  const paths = daemonPaths({ XDG_RUNTIME_DIR: root, XDG_STATE_HOME: root });
  ensureSecureDir(paths.dir);
  return paths;
}

/** A daemon stand-in on the sandbox socket: answers commands from `answers` in turn, records params. */
function fakeDaemon(paths: DaemonPaths, answers: Answer[]): Promise<{ server: Server; seen: CommandParams[] }> {
  const seen: CommandParams[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const msg = JSON.parse(body) as { id: number; params: CommandParams };
      seen.push(msg.params);
      const answer = answers.shift() ?? { error: { code: ErrorCodes.InternalError, message: 'no more answers' } };
      if ('error' in answer) {
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: answer.error }) + '\n');
        return;
      }
      const note = { stream: 'stdout', data: answer.stdout, requestId: msg.params.requestId };
      res.write(JSON.stringify({ jsonrpc: '2.0', method: Notifications.output, params: note }) + '\n');
      res.end(
        JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { exitCode: answer.exitCode, cached: true } }) + '\n',
      );
    });
  });
  return new Promise((resolve) => server.listen(paths.socket, () => resolve({ server, seen })));
}

const params = (): CommandParams => ({
  requestId: 'r1',
  args: ['a.jsonnet'],
  flags: {},
  cwd: '/',
  env: {},
  tty: { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'auto', noColor: false, forceColor: null },
});

interface Trace {
  out: string[];
  err: string[];
  calls: string[];
}

async function run(
  paths: DaemonPaths,
  onStart: () => Promise<unknown>,
  onStop: () => Promise<unknown> = async () => undefined,
): Promise<Trace & { code: number }> {
  const t: Trace = { out: [], err: [], calls: [] };
  const code = await runRemote(paths, 'render/show', params(), {
    start: async () => {
      t.calls.push('start');
      await onStart();
    },
    stop: async (_p, reason) => {
      t.calls.push(`stop: ${reason.startsWith('replaced by a CLI of build') ? 'replaced' : reason}`);
      await onStop();
    },
    write: (stream, data) => (stream === 'stdout' ? t.out : t.err).push(data),
  });
  return { ...t, code };
}

describe('runRemote: the version handshake travels with the command', () => {
  it('sends the CLI build with the command and needs no other request', async () => {
    const paths = sandbox();
    const { server, seen } = await fakeDaemon(paths, [{ stdout: 'kind: A\n', exitCode: 0 }]);
    try {
      const r = await run(paths, async () => assert.fail('must not start a daemon'));
      assert.deepEqual([r.code, r.out, r.calls], [0, ['kind: A\n'], []]);
      assert.equal(seen.length, 1);
      assert.deepEqual(seen[0]!.client, { protocolVersion: PROTOCOL_VERSION, buildId: 'unbundled' });
    } finally {
      server.close();
    }
  });

  it('starts a daemon when nothing listens, then sends once more', async () => {
    const paths = sandbox();
    let server: Server | undefined;
    try {
      const r = await run(paths, async () => {
        server = (await fakeDaemon(paths, [{ stdout: 'ok\n', exitCode: 3 }])).server;
      });
      assert.deepEqual([r.code, r.out, r.calls], [3, ['ok\n'], ['start']]);
    } finally {
      server?.close();
    }
  });

  it('the first call: nothing listens, so it runs here, then starts a daemon without waiting', async () => {
    const paths = sandbox();
    const calls: string[] = [];
    const code = await runRemote(paths, 'render/show', params(), {
      start: async () => assert.fail('must not wait for a daemon'),
      inProcess: async () => {
        calls.push('in-process');
        return 7;
      },
      startDetached: () => calls.push('start detached'),
      write: () => assert.fail('the in-process run writes its own output'),
    });
    assert.deepEqual([code, calls], [7, ['in-process', 'start detached']]);
  });

  it('the first call with a daemon listening goes to the daemon', async () => {
    const paths = sandbox();
    const { server } = await fakeDaemon(paths, [{ stdout: 'from daemon\n', exitCode: 0 }]);
    try {
      const out: string[] = [];
      const code = await runRemote(paths, 'render/show', params(), {
        inProcess: async () => assert.fail('a daemon answers'),
        startDetached: () => assert.fail('a daemon answers'),
        write: (_s, data) => out.push(data),
      });
      assert.deepEqual([code, out], [0, ['from daemon\n']]);
    } finally {
      server.close();
    }
  });

  const refusals: [string, Answer][] = [
    ['VersionMismatch (a daemon of another build)', { error: { code: ErrorCodes.VersionMismatch, message: 'skew' } }],
    [
      'params.client refused as unknown (a daemon older than the field)',
      {
        error: { code: ErrorCodes.InvalidParams, message: 'unknown field', data: { field: 'params.client' } },
      },
    ],
    ['MethodNotFound (a daemon without the command)', { error: { code: ErrorCodes.MethodNotFound, message: 'no' } }],
  ];
  for (const [name, refusal] of refusals) {
    it(`replaces the daemon after ${name}`, async () => {
      const paths = sandbox();
      const old = await fakeDaemon(paths, [refusal]);
      let fresh: Server | undefined;
      try {
        const r = await run(
          paths,
          async () => {
            fresh = (await fakeDaemon(paths, [{ stdout: 'new\n', exitCode: 0 }])).server;
          },
          () => new Promise<void>((resolve) => old.server.close(() => resolve())),
        );
        assert.deepEqual([r.code, r.out, r.calls], [0, ['new\n'], ['stop: replaced', 'start']]);
        assert.equal(old.seen.length, 1, 'the old daemon saw the command once and ran nothing');
      } finally {
        old.server.close();
        fresh?.close();
      }
    });
  }

  it('reports a second refusal instead of replacing again', async () => {
    const paths = sandbox();
    const skew: Answer = { error: { code: ErrorCodes.VersionMismatch, message: 'still another build' } };
    const { server } = await fakeDaemon(paths, [skew, skew]);
    try {
      const r = await run(paths, async () => undefined);
      assert.deepEqual([r.code, r.err, r.calls], [1, ['kubecfg: still another build\n'], ['stop: replaced', 'start']]);
    } finally {
      server.close();
    }
  });

  it('reports other errors as they are, without touching the daemon', async () => {
    const paths = sandbox();
    const bad: Answer = {
      error: {
        code: ErrorCodes.InvalidParams,
        message: 'params.flags.x: unknown flag',
        data: { field: 'params.flags.x' },
      },
    };
    const { server } = await fakeDaemon(paths, [bad]);
    try {
      const r = await run(paths, async () => assert.fail('must not start a daemon'));
      assert.deepEqual([r.code, r.err, r.calls], [1, ['kubecfg: params.flags.x: unknown flag\n'], []]);
    } finally {
      server.close();
    }
  });
});

describe('runRemote: output the daemon writes into the stdout pipe', () => {
  /** Answers one framed command with the given lines before the result; records the request's headers. */
  function framedDaemon(paths: DaemonPaths, lines: object[]): Promise<{ server: Server; headers: Headers[] }> {
    const headers: Headers[] = [];
    const server = createServer((req, res) => {
      headers.push(new Headers(req.headers as Record<string, string>));
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': FRAMED_CONTENT_TYPE });
        for (const line of lines) res.write(JSON.stringify({ jsonrpc: '2.0', ...line }) + '\n');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { exitCode: 4, cached: true } }) + '\n');
      });
    });
    return new Promise((resolve) => server.listen(paths.socket, () => resolve({ server, headers })));
  }
  const direct = (extra: object) => ({
    method: Notifications.direct,
    params: { requestId: 'r1', stream: 'stdout', length: 100000, ...extra },
  });

  it('offers the pipe on the socket; a write that ended well changes nothing', async () => {
    const paths = sandbox();
    const { server, headers } = await framedDaemon(paths, [direct({})]);
    try {
      const errors: string[] = [];
      const code = await runRemote(paths, 'render/show', params(), {
        writeBytes: () => assert.fail('no bytes through the socket'),
        stdoutPipe: '123 45 6789',
        onDirectError: (c) => errors.push(c),
      });
      assert.deepEqual([code, errors], [4, []]);
      assert.equal(headers[0]!.get(STDOUT_PIPE_HEADER), '123 45 6789');
      assert.equal(headers[0]!.get('accept'), FRAMED_CONTENT_TYPE);
    } finally {
      server.close();
    }
  });

  it("a failed write in the daemon is the CLI's failed stdout (EPIPE)", async () => {
    const paths = sandbox();
    const { server } = await framedDaemon(paths, [direct({ error: 'EPIPE' })]);
    try {
      const errors: string[] = [];
      await runRemote(paths, 'render/show', params(), {
        writeBytes: () => undefined,
        stdoutPipe: '123 45 6789',
        onDirectError: (c) => errors.push(c),
      });
      assert.deepEqual(errors, ['EPIPE']);
    } finally {
      server.close();
    }
  });

  it('offers nothing when output goes to a caller (no pipe of its own) or as NDJSON', async () => {
    const paths = sandbox();
    const { server, headers } = await framedDaemon(paths, []);
    try {
      await runRemote(paths, 'render/show', params(), { writeBytes: () => undefined });
      await runRemote(paths, 'render/show', params(), { write: () => undefined, stdoutPipe: '1 2 3' });
      assert.equal(headers[0]!.get(STDOUT_PIPE_HEADER), null);
      assert.equal(headers[1]!.get(STDOUT_PIPE_HEADER), null, 'no framed stream, no offer');
    } finally {
      server.close();
    }
  });
});

describe('isBuildSkew', () => {
  const cases: [string, unknown, boolean][] = [
    ['VersionMismatch', new RpcCallError(ErrorCodes.VersionMismatch, 'x'), true],
    ['MethodNotFound', new RpcCallError(ErrorCodes.MethodNotFound, 'x'), true],
    ['params.client refused', new RpcCallError(ErrorCodes.InvalidParams, 'x', { field: 'params.client' }), true],
    ['another field refused', new RpcCallError(ErrorCodes.InvalidParams, 'x', { field: 'params.args' }), false],
    ['InvalidParams without data', new RpcCallError(ErrorCodes.InvalidParams, 'x'), false],
    ['a cancelled request', new RpcCallError(ErrorCodes.RequestCancelled, 'x'), false],
    ['not an RPC error', new Error('x'), false],
  ];
  for (const [name, err, expected] of cases) it(name, () => assert.equal(isBuildSkew(err), expected));
});
