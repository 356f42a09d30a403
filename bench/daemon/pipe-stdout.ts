/**
 * Runs a process with its stdout a pipe this process reads, as a shell pipeline (`kubecfg show |
 * kubectl apply -f -`) does: Node's spawn gives a child a socket pair instead, which the daemon
 * cannot write into (server/rpc/direct-stdout.ts), so the two are measured apart. A named pipe
 * (mkfifo) stands for the anonymous pipe a shell makes: both are pipes to the kernel and to /proc.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PipeRunner {
  /** Runs `argv` (after node) and answers its wall time in ms, once it exited and its stdout was read. */
  run(argv: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; expectBytes: number }): Promise<number>;
  close(): void;
}

export function pipeRunner(): PipeRunner {
  const dir = mkdtempSync(join(tmpdir(), 'kubecfg-bench-pipe-'));
  const fifo = join(dir, 'stdout');
  const made = spawnSync('mkfifo', [fifo]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  // This end stays open here too, so the pipe never reports an end between runs.
  const writeFd = openSync(fifo, constants.O_WRONLY);
  const reader = new Socket({ fd: readFd, readable: true, writable: false });
  let received = 0;
  let wanted: { bytes: number; done: () => void } | null = null;
  reader.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (wanted && received >= wanted.bytes) wanted.done();
  });
  return {
    async run(argv, opts) {
      received = 0;
      const t0 = process.hrtime.bigint();
      const read = new Promise<void>((resolve) => {
        wanted = { bytes: opts.expectBytes, done: resolve };
        if (opts.expectBytes === 0) resolve();
      });
      const child = spawn(process.execPath, argv, {
        env: opts.env,
        cwd: opts.cwd,
        stdio: ['ignore', writeFd, 'ignore'],
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      await read;
      wanted = null;
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0 || received !== opts.expectBytes)
        throw new Error(`${argv.join(' ')}: exit ${code}, ${received} of ${opts.expectBytes} bytes`);
      return ms;
    },
    close() {
      reader.destroy();
      closeSync(writeFd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
