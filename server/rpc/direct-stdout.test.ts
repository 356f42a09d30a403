// The daemon's writes into a client's stdout pipe, with real pipes (named, made with mkfifo) and
// real processes whose stdout they are: the pipe is used only when it is the one the client named,
// a pipe without a reader is never waited on, and a reader that goes away or a cancel stops the write.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, fstatSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  DIRECT_MIN_BYTES,
  openStdoutPipe,
  parseStdoutPipe,
  PipeFirstOutput,
  writeToPipe,
  type StdoutPipe,
} from './direct-stdout.js';

const root = mkdtempSync('/tmp/kcfg-direct-');
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

let fifos = 0;
/** A named pipe with its read end (non-blocking) and write end open in this process. */
function pipe(): { readFd: number; writeFd: number; id: { dev: bigint; ino: bigint } } {
  const path = join(root, `fifo-${fifos++}`);
  execFileSync('mkfifo', [path]);
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(path, constants.O_WRONLY);
  const st = fstatSync(writeFd, { bigint: true });
  return { readFd, writeFd, id: { dev: st.dev, ino: st.ino } };
}

/** A process that waits, with `stdout` as its fd 1: what a CLI is while the daemon writes. */
async function processWithStdout(stdout: number | 'ignore'): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: ['ignore', stdout, 'ignore'] });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child.pid!;
}

/** Reads whatever the pipe holds now. */
function drain(fd: number): Buffer {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw err;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

describe('parseStdoutPipe', () => {
  const cases: [string | string[] | undefined, StdoutPipe | undefined][] = [
    ['1234 64768 987654', { pid: 1234, dev: 64768n, ino: 987654n }],
    [' 7 0 18446744073709551615 ', { pid: 7, dev: 0n, ino: 18446744073709551615n }],
    [undefined, undefined],
    [['1 2 3', '1 2 3'], undefined],
    ['', undefined],
    ['0 1 2', undefined],
    ['-1 1 2', undefined],
    ['12 1', undefined],
    ['12 1 2 3', undefined],
    ['12 0x1 2', undefined],
    ['../1 2 3', undefined],
    ['12345678901 1 2', undefined],
  ];
  for (const [value, want] of cases)
    it(`${JSON.stringify(value)} → ${want ? 'used' : 'ignored'}`, () => assert.deepEqual(parseStdoutPipe(value), want));
});

describe('openStdoutPipe and writeToPipe (real pipes and processes)', () => {
  it("writes every byte into the pipe the process's stdout is", async () => {
    const p = pipe();
    const pid = await processWithStdout(p.writeFd);
    const stream = openStdoutPipe({ pid, ...p.id });
    assert.ok(stream, 'the pipe opens through /proc');
    const data = Buffer.from('héllo ☃\n'.repeat(1000));
    assert.equal(await writeToPipe(stream, data, new AbortController().signal), undefined);
    assert.deepEqual(drain(p.readFd), data);
    closeSync(p.readFd);
    closeSync(p.writeFd);
  });

  it('refuses a pipe other than the one named (another pipe, another process, not a pipe, no process)', async () => {
    const named = pipe();
    const other = pipe();
    const otherPid = await processWithStdout(other.writeFd);
    assert.equal(openStdoutPipe({ pid: otherPid, ...named.id }), undefined, "another process's pipe");
    assert.equal(
      openStdoutPipe({ pid: otherPid, dev: other.id.dev + 1n, ino: other.id.ino }),
      undefined,
      'same inode, other device',
    );
    const devNullPid = await processWithStdout('ignore');
    assert.equal(openStdoutPipe({ pid: devNullPid, ...named.id }), undefined, 'stdout is /dev/null');
    assert.equal(openStdoutPipe({ pid: 2 ** 31 - 2, ...named.id }), undefined, 'no such process');
    for (const fd of [named.readFd, named.writeFd, other.readFd, other.writeFd]) closeSync(fd);
  });

  it('does not wait for a pipe without a reader', async () => {
    const p = pipe();
    const pid = await processWithStdout(p.writeFd);
    closeSync(p.readFd);
    // A blocking open would hang here; the non-blocking one fails with ENXIO.
    assert.equal(openStdoutPipe({ pid, ...p.id }), undefined);
    closeSync(p.writeFd);
  });

  it('answers EPIPE when the reader goes away during the write', async () => {
    const p = pipe();
    const pid = await processWithStdout(p.writeFd);
    const stream = openStdoutPipe({ pid, ...p.id })!;
    // More than the pipe holds, so the write is still going when the reader closes.
    const writing = writeToPipe(stream, Buffer.alloc(4 << 20, 0x61), new AbortController().signal);
    setImmediate(() => closeSync(p.readFd));
    assert.equal(await writing, 'EPIPE');
    closeSync(p.writeFd);
  });

  it('answers ECANCELED when the request is cancelled during the write, and stops writing', async () => {
    const p = pipe();
    const pid = await processWithStdout(p.writeFd);
    const stream = openStdoutPipe({ pid, ...p.id })!;
    const ctl = new AbortController();
    const writing = writeToPipe(stream, Buffer.alloc(4 << 20, 0x61), ctl.signal);
    setImmediate(() => ctl.abort());
    assert.equal(await writing, 'ECANCELED');
    const got = drain(p.readFd).length;
    assert.ok(got < 4 << 20, `stopped before the end (${got} bytes in the pipe)`);
    assert.equal(drain(p.readFd).length, 0, 'nothing more arrives');
    closeSync(p.readFd);
    closeSync(p.writeFd);
  });

  it('answers ECANCELED at once for a request already cancelled', async () => {
    const p = pipe();
    const pid = await processWithStdout(p.writeFd);
    const ctl = new AbortController();
    ctl.abort();
    assert.equal(await writeToPipe(openStdoutPipe({ pid, ...p.id })!, Buffer.from('x'), ctl.signal), 'ECANCELED');
    assert.equal(drain(p.readFd).length, 0);
    closeSync(p.readFd);
    closeSync(p.writeFd);
  });
});

describe('PipeFirstOutput: the order of direct writes and frames', () => {
  const big = (c: string): Buffer => Buffer.alloc(DIRECT_MIN_BYTES * 3, c);
  async function session(writes: ['stdout' | 'stderr', Buffer][]): Promise<string[]> {
    const p = pipe();
    const pid = await processWithStdout(p.writeFd);
    const events: string[] = [];
    const out = new PipeFirstOutput(
      { pid, ...p.id },
      new AbortController().signal,
      (stream, data) => events.push(`frame ${stream} ${data.length}`),
      (length, error) => events.push(`direct ${length}${error ? ` ${error}` : ''}`),
    );
    // A reader, so a write larger than the pipe can end.
    const reading = setInterval(() => drain(p.readFd), 1);
    try {
      for (const [stream, data] of writes) out.write(stream, data);
      await out.drained();
    } finally {
      clearInterval(reading);
      closeSync(p.readFd);
      closeSync(p.writeFd);
    }
    return events;
  }

  it('stderr written after a direct stdout waits for it', async () => {
    const events = await session([
      ['stdout', big('a')],
      ['stderr', Buffer.from('warning\n')],
    ]);
    assert.deepEqual(events, [`direct ${DIRECT_MIN_BYTES * 3}`, 'frame stderr 8']);
  });

  it('two large stdouts in a row both go direct, in order; a small one is framed', async () => {
    const events = await session([
      ['stdout', big('a')],
      ['stdout', big('b')],
      ['stdout', Buffer.from('tail\n')],
    ]);
    assert.deepEqual(events, [`direct ${DIRECT_MIN_BYTES * 3}`, `direct ${DIRECT_MIN_BYTES * 3}`, 'frame stdout 5']);
  });

  it('after a frame nothing goes direct (the client may not have copied it yet)', async () => {
    const events = await session([
      ['stderr', Buffer.from('first\n')],
      ['stdout', big('a')],
    ]);
    assert.deepEqual(events, ['frame stderr 6', `frame stdout ${DIRECT_MIN_BYTES * 3}`]);
  });
});
