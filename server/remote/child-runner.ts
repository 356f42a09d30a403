/**
 * Runs one remote render in a child process under OS limits (hazards 14-18,
 * 31): `sh -c 'ulimit -t CPU; ulimit -v AS; exec node --max-old-space-size=HEAP
 * render-child.js'`, with an empty environment, a wall-clock deadline on the
 * render (armed when the child reports it has loaded; SIGTERM, then SIGKILL
 * after a grace period) and a cap on what it may write. The
 * outcome is either the child's reply or a kill with its reason; the child's
 * stderr is read only to classify the kill and is never sent to a client.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RenderChildReply, RenderChildRequest } from './render-child.js';

export interface ChildLimits {
  /** Wall-clock deadline; then SIGTERM, and SIGKILL after graceMs. */
  wallMs: number;
  graceMs: number;
  /** RLIMIT_CPU seconds (the kernel sends SIGXCPU, then SIGKILL at the hard limit). */
  cpuSeconds: number;
  /** V8 old-space limit of the child. */
  heapMb: number;
  /** RLIMIT_AS of the child, MiB (covers what the V8 heap limit does not: buffers, native allocations); 0 = none. */
  addressSpaceMb: number;
  /** Largest rendered output (stdout) accepted. */
  outputBytes: number;
}

export type KillReason = 'timeout' | 'cpu' | 'memory' | 'output' | 'crash' | 'cancelled';

export type ChildResult =
  { kind: 'done'; reply: Extract<RenderChildReply, { kind: 'done' }> } | { kind: 'killed'; reason: KillReason };

/** How to start the child entry: the compiled .js beside us, or the .ts source through tsx (tests from sources). */
export function childCommand(): string[] {
  const js = new URL('./render-child.js', import.meta.url);
  if (existsSync(fileURLToPath(js))) return [fileURLToPath(js)];
  const ts = new URL('./render-child.ts', import.meta.url);
  return ['--import', import.meta.resolve('tsx'), fileURLToPath(ts)];
}

const STDERR_KEEP = 16 * 1024;
const STARTUP_MS = 30_000;
/** The child's first stderr line once its modules are loaded. */
export const CHILD_STARTED = 'kubecfg-render-child: started\n';

function classify(signal: NodeJS.Signals | null, stderr: string): KillReason {
  if (signal === 'SIGXCPU') return 'cpu';
  if (/out of memory|allocation failed|bad_alloc|Cannot allocate memory/i.test(stderr)) return 'memory';
  return 'crash';
}

export function runRenderChild(
  request: RenderChildRequest,
  limits: ChildLimits,
  signal?: AbortSignal,
): Promise<ChildResult> {
  const script = 'ulimit -t "$1" && ulimit -v "$2" && shift 2 && exec "$@"';
  const node = [process.execPath, `--max-old-space-size=${limits.heapMb}`, '--stack-size=984', ...childCommand()];
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      script,
      'kubecfg-render',
      String(limits.cpuSeconds),
      limits.addressSpaceMb > 0 ? String(limits.addressSpaceMb * 1024) : 'unlimited',
      ...node,
    ],
    { env: {}, cwd: request.root, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  // Room for the JSON envelope and escaping around the capped output.
  const stdoutCap = limits.outputBytes * 2 + 16 * 1024 * 1024;
  return new Promise<ChildResult>((resolve) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let forced: KillReason | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (reason: KillReason): void => {
      if (forced) return;
      forced = reason;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), limits.graceMs);
    };
    // The deadline counts render time: it starts when the child says it has loaded its code
    // (under a separate, generous bound for start-up itself).
    let wall = setTimeout(() => stop('timeout'), Math.max(limits.wallMs, STARTUP_MS));
    let started = false;
    const onAbort = (): void => stop('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > stdoutCap) {
        stop('output');
        return;
      }
      out.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (err.length < STDERR_KEEP) err += chunk.slice(0, STDERR_KEEP - err.length);
      if (!started && err.includes(CHILD_STARTED)) {
        started = true;
        clearTimeout(wall);
        if (!forced) wall = setTimeout(() => stop('timeout'), limits.wallMs);
      }
    });
    child.stdin.on('error', () => {});
    child.on('error', () => stop('crash'));
    child.on('close', (code, sig) => {
      clearTimeout(wall);
      if (killTimer) clearTimeout(killTimer);
      signal?.removeEventListener('abort', onAbort);
      if (forced) return resolve({ kind: 'killed', reason: forced });
      if (code === 0) {
        try {
          const reply = JSON.parse(Buffer.concat(out).toString('utf8')) as RenderChildReply;
          if (reply.kind === 'output-too-large') return resolve({ kind: 'killed', reason: 'output' });
          return resolve({ kind: 'done', reply });
        } catch {
          return resolve({ kind: 'killed', reason: 'crash' });
        }
      }
      resolve({ kind: 'killed', reason: classify(sig, err) });
    });
    child.stdin.end(JSON.stringify(request));
  });
}
