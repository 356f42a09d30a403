/**
 * Shared helpers for the daemon tests: a sandbox per test (its own
 * XDG_RUNTIME_DIR and XDG_STATE_HOME under a short /tmp path), running the
 * built CLI (dist/bin/kubecfg.js, found from the repo root), raw JSON-RPC
 * over the socket, and cleanup that stops every daemon the sandbox started.
 * Real processes and sockets; no mocks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_TTY as TTY } from '../support/command-params.js';

function findRepoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && readFileSync(pkg, 'utf8').includes('"name": "kubecfg-ts"')) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the repository root (package.json of kubecfg-ts)');
    dir = up;
  }
}

export const REPO_ROOT = findRepoRoot();
export const CLI = join(REPO_ROOT, 'dist', 'bin', 'kubecfg.js');
export const SERVER_MAIN = join(REPO_ROOT, 'dist', 'server', 'main.js');
/** Daemon tests need a build (`npm run build`); without one they are skipped. */
export const BUILT = existsSync(CLI) && existsSync(SERVER_MAIN);

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

export class Sandbox {
  readonly root: string;
  readonly runtimeDir: string;
  readonly stateDir: string;
  readonly work: string;
  readonly env: Record<string, string>;
  private readonly children = new Set<ChildProcess>();

  constructor(extraEnv: Record<string, string> = {}) {
    this.root = mkdtempSync('/tmp/kcfg-t-');
    this.runtimeDir = join(this.root, 'run');
    this.stateDir = join(this.root, 'state');
    this.work = join(this.root, 'work');
    mkdirSync(this.runtimeDir, { mode: 0o700 });
    mkdirSync(this.work);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.startsWith('KUBECFG_') && k !== 'NODE_OPTIONS') env[k] = v;
    this.env = {
      ...env,
      XDG_RUNTIME_DIR: this.runtimeDir,
      XDG_STATE_HOME: this.stateDir,
      KUBECFG_DAEMON_TEST_HOOKS: '1',
      KUBECFG_DAEMON_TEST_HOOK_MODULE: fileURLToPath(new URL('../support/daemon-test-hooks.js', import.meta.url)),
      ...extraEnv,
    };
  }

  get daemonDir(): string {
    return join(this.runtimeDir, 'kubecfg');
  }

  get socket(): string {
    return join(this.daemonDir, 'daemon.sock');
  }

  get logFile(): string {
    return join(this.stateDir, 'kubecfg', 'daemon.log');
  }

  spawnCli(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): ChildProcess {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd ?? this.work,
      env: { ...this.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.add(child);
    child.on('exit', () => this.children.delete(child));
    return child;
  }

  run(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<RunResult> {
    return collect(this.spawnCli(args, opts));
  }

  /** Pids of live daemon processes started for this sandbox (found through /proc). */
  daemonPids(): number[] {
    const pids: number[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
        if (!cmd.includes('server/main.js')) continue;
        const environ = readFileSync(`/proc/${name}/environ`, 'utf8');
        if (!environ.split('\0').includes(`XDG_RUNTIME_DIR=${this.runtimeDir}`)) continue;
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue; // zombie
        pids.push(Number(name));
      } catch {
        // process went away
      }
    }
    return pids;
  }

  async cleanup(): Promise<void> {
    for (const child of this.children) child.kill('SIGKILL');
    for (const pid of this.daemonPids()) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
    await waitFor('daemons to exit', () => this.daemonPids().length === 0 || undefined, 5000).catch(() => {
      for (const pid of this.daemonPids()) process.kill(pid, 'SIGKILL');
    });
    rmSync(this.root, { recursive: true, force: true });
  }
}

export function collect(child: ChildProcess): Promise<RunResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request to the daemon (unix socket or TCP), body sent as is. */
export function httpRequest(
  target: { socketPath: string } | { host: string; port: number },
  opts: { method?: string; path?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const body = opts.body ?? '';
    const req = request({
      ...target,
      method: opts.method ?? 'POST',
      path: opts.path ?? '/rpc',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...opts.headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.end(body);
  });
}

export async function rpc(socketPath: string, method: string, params: unknown, id: number | string = 1): Promise<any> {
  const reply = await httpRequest({ socketPath }, { body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  return JSON.parse(reply.body.trim().split('\n').pop()!);
}

/** Writes a test-hook input (see test/support/daemon-test-hooks.ts) and returns its name. */
export function hookFile(sandbox: Sandbox, name: string, content: string): string {
  const file = `${name}.kubecfg-test-hook`;
  rmSync(join(sandbox.work, file), { force: true });
  writeFileSync(join(sandbox.work, file), content);
  return file;
}

export { TTY };

export function commandParams(
  sandbox: Sandbox,
  requestId: string,
  args: string[],
  flags: Record<string, unknown> = {},
): Record<string, unknown> {
  return { requestId, args, flags, cwd: sandbox.work, env: {}, tty: TTY };
}
