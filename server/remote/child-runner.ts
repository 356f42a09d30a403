/**
 * Render children for the remote service, kept warm per tenant (hazards
 * 14-18, 31). A child is `sh -c 'ulimit -St CPU; ulimit -v AS; exec node
 * --max-old-space-size=HEAP render-child.js'` with an empty environment; it
 * loads the engine once and then renders one request at a time, so the
 * Jsonnet parse cache (keyed by path and content digest) stays warm between a
 * tenant's renders, as in the local daemon's workers. Children are never
 * shared between tenants.
 *
 * Per render: before a warm child is reused, its CPU soft limit is moved to
 * (CPU used so far + the budget) with prlimit (a child whose limit cannot be
 * renewed is not reused); the wall-clock deadline is armed when the request is sent
 * (SIGTERM, then SIGKILL after the grace period), and the reply line is capped.
 * A child that was stopped, crashed, or served its quota of renders is
 * discarded; the next render starts a fresh one. The child's stderr is read
 * only to classify a kill and is never sent to a client. A cancelled render
 * (the client hung up) kills its child at once; the child is not reused.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHILD_STARTED, type RenderChildReply, type RenderChildRequest } from './child-protocol.js';

export interface ChildLimits {
  /** Wall-clock deadline of one render; then SIGTERM, and SIGKILL after graceMs. */
  wallMs: number;
  graceMs: number;
  /** CPU seconds one render may use (RLIMIT_CPU soft limit; the kernel sends SIGXCPU). */
  cpuSeconds: number;
  /** V8 old-space limit of the child. */
  heapMb: number;
  /** RLIMIT_AS of the child, MiB (covers what the V8 heap limit does not: buffers, native allocations); 0 = none. */
  addressSpaceMb: number;
  /** Largest rendered output (stdout) accepted; stderr (std.trace, error text) has the same cap. */
  outputBytes: number;
}

/** 'diagnostics': stderr (std.trace output, error text) past the output cap. */
/**
 * 'memory': the V8 heap limit fired; 'address-space': a native allocation failed under RLIMIT_AS
 * (std::bad_alloc, a failed mmap) while the heap was within its limit.
 */
export type KillReason = 'timeout' | 'cpu' | 'memory' | 'address-space' | 'output' | 'diagnostics' | 'crash';

export type ChildResult =
  | { kind: 'done'; reply: Extract<RenderChildReply, { kind: 'done' }> }
  | { kind: 'killed'; reason: KillReason; signal?: string | null; stderrTail?: string }
  | { kind: 'cancelled' };

export interface RunOptions {
  /** Wall-clock budget of this run when less than the limit (a later fetch round of one request). */
  wallMs?: number;
  /** Aborted when the client is gone: the child is killed and the run answers 'cancelled'. */
  signal?: AbortSignal;
}

/**
 * How to start the child entry: compiled code starts the compiled child beside it and
 * nothing else; only when this module itself runs from the TypeScript sources (tests
 * under tsx) is the child started through tsx too, a devDependency production never loads.
 */
function childCommand(): string[] {
  if (import.meta.url.endsWith('.js')) return [fileURLToPath(new URL('./render-child.js', import.meta.url))];
  return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('./render-child.ts', import.meta.url))];
}

const STDERR_KEEP = 16 * 1024;
const STARTUP_MS = 30_000;
/** Renders one child serves before it is replaced (bounds slow leaks and cache growth). */
const RENDERS_PER_CHILD = 200;
const IDLE_CHILD_MS = 10 * 60_000;

/** Exported for its table test: which limit a dead child's signal and last stderr point at. */
export function classify(signal: NodeJS.Signals | null, stderr: string, addressSpaceMb: number): KillReason {
  if (signal === 'SIGXCPU') return 'cpu';
  if (/Reached heap limit|JavaScript heap out of memory/i.test(stderr)) return 'memory';
  if (/out of memory|allocation failed|bad_alloc|Cannot allocate memory/i.test(stderr))
    return addressSpaceMb > 0 ? 'address-space' : 'memory';
  return 'crash';
}

/**
 * Largest WebAssembly memory the child may reserve, in 64 KiB pages (128 MiB). Importing undici
 * instantiates its llhttp parser, and V8 reserves the whole 4 GiB a wasm32 memory may grow to (2 GiB
 * when that does not fit): under the default address-space limit (heap x 2 + 2 GiB) that left too
 * little for the heap to grow, and a 120 MB render died of std::bad_alloc. The child never parses
 * HTTP, and llhttp needs a few pages.
 */
const CHILD_WASM_MAX_PAGES = 2048;

/** CPU seconds a process has used (utime + stime from /proc), or undefined off Linux. */
function cpuSecondsUsed(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

function setCpuSoftLimit(pid: number, seconds: number): Promise<boolean> {
  return new Promise((resolve) =>
    execFile('prlimit', ['--pid', String(pid), `--cpu=${seconds}:unlimited`], { env: {} }, (err) => resolve(!err)),
  );
}

class WarmChild {
  readonly proc: ChildProcess;
  readonly ready: Promise<boolean>;
  renders = 0;
  exited = false;
  private stderr = '';
  private stdoutBuf: Buffer[] = [];
  private stdoutBytes = 0;
  private onLine: ((line: string) => void) | null = null;
  private onExit: ((signal: NodeJS.Signals | null) => void) | null = null;
  /** Set when the reply line outgrew its cap and the child was killed for it. */
  overflowed = false;
  idleTimer: NodeJS.Timeout | undefined;

  constructor(
    workBase: string,
    importHosts: readonly string[],
    private readonly limits: ChildLimits,
  ) {
    const script = 'ulimit -St "$1" && ulimit -v "$2" && shift 2 && exec "$@"';
    // WebAssembly's guard-region reservation (undici's HTTP parser, tsx's lexer) cannot fit under
    // an address-space limit; without the trap handler it needs only the memory it uses.
    const node = [
      process.execPath,
      `--max-old-space-size=${limits.heapMb}`,
      '--stack-size=984',
      ...(limits.addressSpaceMb > 0
        ? ['--disable-wasm-trap-handler', `--wasm-max-mem-pages=${CHILD_WASM_MAX_PAGES}`]
        : []),
      ...childCommand(),
    ];
    this.proc = spawn(
      '/bin/sh',
      [
        '-c',
        script,
        'kubecfg-render',
        String(limits.cpuSeconds),
        limits.addressSpaceMb > 0 ? String(limits.addressSpaceMb * 1024) : 'unlimited',
        ...node,
        JSON.stringify(importHosts),
      ],
      { env: {}, cwd: workBase, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    // The reply line carries stdout and stderr (each within outputBytes, checked by the child) JSON-escaped
    // (up to 6 bytes per byte), plus deps: past this the child is not following the protocol.
    const stdoutCap = limits.outputBytes * 12 + 16 * 1024 * 1024;
    this.ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.kill();
        resolve(false);
      }, STARTUP_MS);
      this.proc.stderr!.setEncoding('utf8');
      this.proc.stderr!.on('data', (chunk: string) => {
        if (this.stderr.length < STDERR_KEEP) this.stderr += chunk.slice(0, STDERR_KEEP - this.stderr.length);
        if (this.stderr.includes(CHILD_STARTED)) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      this.proc.on('close', (_code, signal) => {
        clearTimeout(timer);
        this.exited = true;
        resolve(false);
        this.onExit?.(signal);
      });
    });
    this.proc.on('error', () => this.kill());
    this.proc.stdin!.on('error', () => {});
    this.proc.stdout!.on('data', (chunk: Buffer) => {
      this.stdoutBytes += chunk.length;
      if (this.stdoutBytes > stdoutCap) {
        this.overflowed = true;
        this.kill();
        return;
      }
      let nl = chunk.indexOf(10);
      while (nl >= 0) {
        this.stdoutBuf.push(chunk.subarray(0, nl));
        const line = Buffer.concat(this.stdoutBuf).toString('utf8');
        this.stdoutBuf = [];
        this.stdoutBytes = 0;
        this.onLine?.(line);
        chunk = chunk.subarray(nl + 1);
        nl = chunk.indexOf(10);
      }
      if (chunk.length) this.stdoutBuf.push(chunk);
    });
  }

  kill(): void {
    if (!this.exited) this.proc.kill('SIGKILL');
  }

  /** Gives the next render the full CPU budget on top of what this child used so far. False: cannot (no prlimit). */
  async renewCpuBudget(): Promise<boolean> {
    const pid = this.proc.pid;
    const used = pid !== undefined ? cpuSecondsUsed(pid) : undefined;
    if (pid === undefined || used === undefined) return false;
    return setCpuSoftLimit(pid, Math.ceil(used) + this.limits.cpuSeconds);
  }

  async render(request: RenderChildRequest, opts: RunOptions = {}): Promise<ChildResult> {
    const { limits } = this;
    this.renders++;
    this.stderr = ''; // classify this render's failure by its own output only
    return new Promise<ChildResult>((resolve) => {
      let forced: KillReason | null = null;
      let cancelled = false;
      let killTimer: NodeJS.Timeout | undefined;
      const { signal } = opts;
      const onAbort = (): void => {
        cancelled = true;
        this.kill();
      };
      const finish = (result: ChildResult): void => {
        clearTimeout(wall);
        if (killTimer) clearTimeout(killTimer);
        signal?.removeEventListener('abort', onAbort);
        this.onLine = null;
        this.onExit = null;
        resolve(cancelled ? { kind: 'cancelled' } : result);
      };
      const wall = setTimeout(
        () => {
          forced = 'timeout';
          this.proc.kill('SIGTERM');
          killTimer = setTimeout(() => this.kill(), limits.graceMs);
        },
        Math.max(1, Math.min(limits.wallMs, opts.wallMs ?? limits.wallMs)),
      );
      this.onExit = (signal) =>
        finish({
          kind: 'killed',
          reason: forced ?? (this.overflowed ? 'output' : classify(signal, this.stderr, limits.addressSpaceMb)),
          signal,
          stderrTail: this.stderr.slice(-400),
        });
      this.onLine = (line) => {
        if (forced) return;
        let reply: RenderChildReply;
        try {
          reply = JSON.parse(line) as RenderChildReply;
        } catch {
          this.kill();
          return finish({ kind: 'killed', reason: 'crash' });
        }
        finish(
          reply.kind === 'output-too-large'
            ? { kind: 'killed', reason: reply.stream === 'stderr' ? 'diagnostics' : 'output' }
            : { kind: 'done', reply },
        );
      };
      if (this.exited) return finish({ kind: 'killed', reason: classify(null, this.stderr, limits.addressSpaceMb) });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.proc.stdin!.write(JSON.stringify(request) + '\n');
    });
  }
}

/** Warm render children, per tenant; a tenant's children never serve another tenant. */
export class ChildPool {
  private readonly idle = new Map<string, WarmChild[]>();
  private readonly all = new Set<WarmChild>();

  constructor(
    private readonly workBase: string,
    private readonly limits: ChildLimits,
  ) {}

  async run(
    tenant: { name: string; importHosts: readonly string[]; maxConcurrent: number },
    request: RenderChildRequest,
    opts: RunOptions = {},
  ): Promise<ChildResult> {
    if (opts.signal?.aborted) return { kind: 'cancelled' };
    let list = this.idle.get(tenant.name);
    if (!list) this.idle.set(tenant.name, (list = []));
    let child = list.pop();
    while (child?.exited) child = list.pop();
    if (child) clearTimeout(child.idleTimer);
    else {
      child = new WarmChild(this.workBase, tenant.importHosts, this.limits);
      this.all.add(child);
      child.proc.on('close', () => this.all.delete(child!));
      const onAbort = (): void => child!.kill();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const ready = await child.ready;
      opts.signal?.removeEventListener('abort', onAbort);
      if (opts.signal?.aborted) return { kind: 'cancelled' };
      if (!ready) return { kind: 'killed', reason: 'crash' };
    }
    const result = await child.render(request, opts);
    if (
      result.kind === 'done' &&
      !child.exited &&
      child.renders < RENDERS_PER_CHILD &&
      list.length < tenant.maxConcurrent &&
      (await child.renewCpuBudget())
    ) {
      const warm = child;
      warm.idleTimer = setTimeout(() => {
        const l = this.idle.get(tenant.name);
        const i = l?.indexOf(warm) ?? -1;
        if (i >= 0) l!.splice(i, 1);
        warm.kill();
      }, IDLE_CHILD_MS);
      warm.idleTimer.unref();
      list.push(warm);
    } else child.kill();
    return result;
  }

  get size(): number {
    return this.all.size;
  }

  close(): void {
    for (const c of this.all) {
      clearTimeout(c.idleTimer);
      c.kill();
    }
    this.idle.clear();
  }
}
