// A large stdout written by the daemon straight into the CLI's stdout pipe (server/rpc/direct-stdout.ts),
// through the built CLI in real shell pipelines: the same bytes as through the socket, in the same
// order with stderr, the same exit when the reader goes away, Ctrl-C stops it, and files, appends,
// a pid naming another process's pipe and the TCP listener keep the copy through the socket.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FRAMED_CONTENT_TYPE, STDOUT_PIPE_HEADER } from '../../protocol/index.js';
import { BUILT, CLI, commandParams, httpRequest, rpc, Sandbox, waitFor } from './harness.js';

/** About 1.5 MB of JSON: far more than a pipe holds (64 KiB), so a reader that stops is noticed. */
const MAIN = `{
  ['cm-%04d' % i]: {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'cm-%04d' % i, annotations: { note: 'héllo ☃ 𝄞' } },
    data: { ['k%d' % j]: std.repeat('x', 3 * j) for j in std.range(0, 20) },
  } for i in std.range(0, 1499)
}
`;

describe(
  'stdout written into the CLI pipe by the daemon',
  { skip: !BUILT && 'run npm run build first', timeout: 180_000 },
  () => {
    let sb: Sandbox;
    let dir: string;
    let reference: Buffer;
    before(async () => {
      sb = new Sandbox();
      dir = join(sb.work, 'repo');
      mkdirSync(dir);
      writeFileSync(join(dir, 'main.jsonnet'), MAIN);
      writeFileSync(join(dir, 'traced.jsonnet'), `std.trace('a warning on stderr', ${MAIN})`);
      const started = await sb.run(['daemon', 'start', '--listen', '127.0.0.1:0']);
      assert.equal(started.code, 0, started.stderr);
      reference = run('kubecfg show -o json --no-daemon main.jsonnet > ref.out').out('ref.out');
      assert.ok(reference.length > 1 << 20);
    });
    after(async () => {
      await sb.cleanup();
    });

    /** Runs a bash script in the repo, `kubecfg` being the built CLI; answers a reader of the files it wrote. */
    function run(script: string): { out: (file: string) => Buffer } {
      execFileSync('bash', ['-c', `set -e\nkubecfg() { "$KNODE" "$KCLI" "$@"; }\n${script}`], {
        cwd: dir,
        env: { ...sb.env, KNODE: process.execPath, KCLI: CLI },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      return { out: (file) => readFileSync(join(dir, file)) };
    }

    async function directWrites(): Promise<number> {
      const m = await httpRequest({ socketPath: sb.socket }, { method: 'GET', path: '/metrics' });
      return Number(/^kubecfg_output_direct_writes_total (\d+)$/m.exec(m.body)?.[1]);
    }

    it('a pipe gets the very bytes a file gets, miss and hit, and exit 0', async () => {
      run('kubecfg show -o json main.jsonnet | cat > miss.out; test "${PIPESTATUS[0]}" = 0');
      const before = await directWrites();
      const r = run('kubecfg show -o json main.jsonnet | cat > hit.out; test "${PIPESTATUS[0]}" = 0');
      assert.deepEqual(r.out('miss.out'), reference);
      assert.deepEqual(r.out('hit.out'), reference);
      assert.equal(await directWrites(), before + 1, 'the daemon wrote into the pipe');
    });

    it('a file, `>>` and a shell group sharing the file keep the copy through the socket (the offset)', async () => {
      const before = await directWrites();
      const r = run(
        [
          'kubecfg show -o json main.jsonnet > file.out',
          'echo first > append.out; kubecfg show -o json main.jsonnet >> append.out; echo last >> append.out',
          '{ echo a; kubecfg show -o json main.jsonnet; echo b; } > group.out',
        ].join('\n'),
      );
      assert.deepEqual(r.out('file.out'), reference);
      assert.deepEqual(r.out('append.out'), Buffer.concat([Buffer.from('first\n'), reference, Buffer.from('last\n')]));
      assert.deepEqual(r.out('group.out'), Buffer.concat([Buffer.from('a\n'), reference, Buffer.from('b\n')]));
      assert.equal(await directWrites(), before, 'nothing written around the CLI');
    });

    it('stderr after stdout, as through the socket, when both go into one pipe (2>&1)', async () => {
      const r = run(
        [
          'kubecfg show -o json traced.jsonnet > both-file.out 2>&1',
          'kubecfg show -o json traced.jsonnet 2>&1 | cat > both-pipe.out; test "${PIPESTATUS[0]}" = 0',
        ].join('\n'),
      );
      const viaFile = r.out('both-file.out');
      assert.ok(viaFile.subarray(0, reference.length).equals(reference), 'stdout first');
      assert.match(viaFile.subarray(reference.length).toString(), /a warning on stderr/);
      assert.deepEqual(r.out('both-pipe.out'), viaFile);
    });

    it('a reader that goes away: exit 0 and nothing on stderr, as when the CLI writes', async () => {
      const r = run(
        [
          'kubecfg show -o json main.jsonnet 2> stderr.out | head -c 100 > head.out',
          'echo "${PIPESTATUS[0]}" > code.out',
        ].join('\n'),
      );
      assert.deepEqual(r.out('head.out'), reference.subarray(0, 100));
      assert.equal(r.out('code.out').toString(), '0\n');
      assert.equal(r.out('stderr.out').toString(), '');
    });

    it('Ctrl-C while the daemon waits on a full pipe: the CLI exits 130 and the daemon stops writing', async () => {
      const fifo = join(sb.work, 'never-read');
      execFileSync('mkfifo', [fifo]);
      const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const writeFd = openSync(fifo, constants.O_WRONLY);
      const child = spawn(process.execPath, [CLI, 'show', '-o', 'json', 'main.jsonnet'], {
        cwd: dir,
        env: sb.env,
        stdio: ['ignore', writeFd, 'pipe'],
      });
      closeSync(writeFd);
      const inFlight = async (): Promise<number> => {
        const m = await httpRequest({ socketPath: sb.socket }, { method: 'GET', path: '/metrics' });
        return Number(/^kubecfg_requests_in_flight (\d+)$/m.exec(m.body)?.[1]);
      };
      await waitFor('the request to be in flight', async () => ((await inFlight()) === 1 ? true : undefined), 30_000);
      const code = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGINT');
      assert.equal(await code, 130);
      await waitFor('the daemon to end the request', async () => ((await inFlight()) === 0 ? true : undefined), 10_000);
      closeSync(readFd);
    });

    it("a pid naming another process's pipe gets the bytes through the socket", async () => {
      const params = { ...commandParams(sb, 'other-pid', ['main.jsonnet'], { format: 'json' }), cwd: dir };
      // This test process's pid with an inode no pipe has: the daemon checks, and frames the output.
      const reply = await httpRequest(
        { socketPath: sb.socket },
        {
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'render/show', params }),
          headers: { accept: FRAMED_CONTENT_TYPE, [STDOUT_PIPE_HEADER]: `${process.pid} 1 1` },
        },
      );
      assert.equal(reply.status, 200);
      assert.match(reply.body, /"method":"stream\/bytes".*"length":\d+/);
      assert.doesNotMatch(reply.body, /stream\/direct/);
      assert.ok(reply.body.includes(reference.toString('utf8')), 'the whole output in the response');
    });

    it('the offer of a real pipe is taken on the unix socket and ignored on the TCP listener', async () => {
      const fifo = join(sb.work, 'offered');
      execFileSync('mkfifo', [fifo]);
      const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const writeFd = openSync(fifo, constants.O_WRONLY);
      const st = fstatSync(writeFd, { bigint: true });
      // A process whose stdout is that pipe, as the CLI would be.
      const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], {
        stdio: ['ignore', writeFd, 'ignore'],
      });
      await new Promise((resolve) => holder.once('spawn', resolve));
      closeSync(writeFd);
      const reader = new Socket({ fd: readFd, readable: true, writable: false });
      const piped: Buffer[] = [];
      reader.on('data', (c: Buffer) => piped.push(c));
      const status = (await rpc(sb.socket, 'daemon/status', {})).result;
      const port = Number(status.tcpListen.split(':')[1]);
      const token = readFileSync(join(sb.daemonDir, 'tcp-token'), 'utf8').trim();
      const ask = (target: { socketPath: string } | { host: string; port: number }, id: string, auth = {}) =>
        httpRequest(target, {
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'render/show',
            params: { ...commandParams(sb, id, ['main.jsonnet'], { format: 'json' }), cwd: dir },
          }),
          headers: { ...auth, accept: FRAMED_CONTENT_TYPE, [STDOUT_PIPE_HEADER]: `${holder.pid} ${st.dev} ${st.ino}` },
        });
      try {
        const viaTcp = await ask({ host: '127.0.0.1', port }, 'over-tcp', { authorization: `Bearer ${token}` });
        assert.match(viaTcp.body, /"method":"stream\/bytes"/);
        assert.doesNotMatch(viaTcp.body, /stream\/direct/);
        assert.ok(viaTcp.body.includes(reference.toString('utf8')), 'the output in the TCP response');

        const viaSocket = await ask({ socketPath: sb.socket }, 'over-socket');
        assert.match(viaSocket.body, new RegExp(`"method":"stream/direct".*"length":${reference.length}}`));
        assert.doesNotMatch(viaSocket.body, /stream\/bytes/);
        await waitFor('the pipe to be read', () =>
          Buffer.concat(piped).length >= reference.length ? true : undefined,
        );
        assert.deepEqual(Buffer.concat(piped), reference, 'the output in the pipe');
      } finally {
        holder.kill('SIGKILL');
        reader.destroy();
      }
    });
  },
);
