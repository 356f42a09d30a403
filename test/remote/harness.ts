/**
 * Two processes on loopback for the remote-render tests: the service
 * (server/remote/main) with a test CA made by openssl, its own store and work
 * directories and a tokens file; and the kubecfg CLI run with `--remote` from
 * a separate working directory. Runs the compiled files under dist/ when the
 * test itself runs from dist/, else the sources through tsx. Every process and
 * temp directory a sandbox made is removed by cleanup().
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { dirname, join } from 'node:path';
import { repoRoot } from '../support/repo-root.js';

export const FROM_DIST = import.meta.url.endsWith('.js');
const ROOT = repoRoot(import.meta.url);
const TSX = ['--import', import.meta.resolve('tsx')];

function serverCommand(): string[] {
  return FROM_DIST ? [join(ROOT, 'dist/server/remote/main.js')] : [...TSX, join(ROOT, 'server/remote/main.ts')];
}

function cliCommand(): string[] {
  return FROM_DIST ? [join(ROOT, 'dist/bin/kubecfg.js')] : [...TSX, join(ROOT, 'client-cli/main.ts')];
}

export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface TenantSpec {
  name: string;
  allowCode?: boolean;
  maxConcurrent?: number;
  maxQueued?: number;
  /** Hosts this tenant's remote (https/oci) imports may reach. */
  importHosts?: string[];
}

export interface ServerHandle {
  url: string;
  port: number;
  proc: ChildProcess;
  logs(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export class RemoteSandbox {
  readonly dir: string;
  readonly tls: { ca: string; cert: string; key: string };
  readonly tokens = new Map<string, string>();
  readonly tokensFile: string;
  readonly storeDir: string;
  readonly workDir: string;
  private readonly procs = new Set<ChildProcess>();

  constructor(tenants: TenantSpec[]) {
    this.dir = mkdtempSync('/tmp/kcfg-remote-t-');
    const tlsDir = join(this.dir, 'tls');
    mkdirSync(tlsDir);
    const ssl = (args: string[]): void => void execFileSync('openssl', args, { cwd: tlsDir, stdio: 'ignore' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    ssl([
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '1',
      '-subj',
      '/CN=kubecfg-remote-test-ca',
    ]);
    ssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
    writeFileSync(join(tlsDir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    ssl([
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-days',
      '1',
      '-extfile',
      'ext.cnf',
    ]);
    this.tls = { ca: join(tlsDir, 'ca.crt'), cert: join(tlsDir, 'server.crt'), key: join(tlsDir, 'server.key') };
    for (const t of tenants) this.tokens.set(t.name, randomBytes(32).toString('hex'));
    this.tokensFile = join(this.dir, 'tokens.json');
    writeFileSync(
      this.tokensFile,
      JSON.stringify({ tenants: tenants.map((t) => ({ ...t, token: this.tokens.get(t.name) })) }),
      { mode: 0o600 },
    );
    chmodSync(this.tokensFile, 0o600);
    this.storeDir = join(this.dir, 'store');
    this.workDir = join(this.dir, 'work');
  }

  /**
   * Starts the service, by default through its own entry with the sandbox's store and work
   * directories; with `viaCli` as users do, `kubecfg daemon start --tls-cert ... --tokens ...`
   * (store and work directories then default under the sandbox's HOME).
   */
  async startServer(extraArgs: string[] = [], port = 0, viaCli = false): Promise<ServerHandle> {
    const tlsArgs = ['--listen', `127.0.0.1:${port}`, '--tls-cert', this.tls.cert, '--tls-key', this.tls.key];
    const args = viaCli
      ? [...cliCommand(), 'daemon', 'start', ...tlsArgs, '--tokens', this.tokensFile, ...extraArgs]
      : this.serviceArgs(extraArgs, port);
    return this.spawnServer(args);
  }

  private serviceArgs(extraArgs: string[], port: number): string[] {
    return [
      ...serverCommand(),
      '--listen',
      `127.0.0.1:${port}`,
      '--tls-cert',
      this.tls.cert,
      '--tls-key',
      this.tls.key,
      '--tokens',
      this.tokensFile,
      '--store',
      this.storeDir,
      '--work-dir',
      this.workDir,
      '--log-level',
      'debug',
      ...extraArgs,
    ];
  }

  private async spawnServer(args: string[]): Promise<ServerHandle> {
    const proc = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.dir },
    });
    this.procs.add(proc);
    let out = '';
    let err = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    const ready = await new Promise<number>((resolve, reject) => {
      proc.stderr.setEncoding('utf8').on('data', (c: string) => {
        err += c;
        const m = /READY (\d+)/.exec(err);
        if (m) resolve(Number(m[1]));
      });
      proc.on('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
    });
    const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
    return {
      url: `https://127.0.0.1:${ready}`,
      port: ready,
      proc,
      logs: () => out + err,
      stop: async (signal = 'SIGTERM') => {
        proc.kill(signal);
        const code = await exited;
        this.procs.delete(proc);
        return code;
      },
    };
  }

  /** A working directory for one client, with files (path → content). */
  clientDir(name: string, files: Record<string, string>): string {
    const dir = join(this.dir, 'clients', name);
    for (const [p, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), content);
    }
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  runClient(
    cwd: string,
    tenant: string,
    url: string,
    args: string[],
    extraEnv: Record<string, string> = {},
  ): Promise<RunResult> {
    return this.startClient(cwd, tenant, url, args, extraEnv).result;
  }

  /** Like runClient, with the process at hand (to interrupt it). */
  startClient(
    cwd: string,
    tenant: string,
    url: string,
    args: string[],
    extraEnv: Record<string, string> = {},
  ): { proc: ChildProcess; result: Promise<RunResult> } {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.dir,
      XDG_RUNTIME_DIR: join(this.dir, 'run'),
      KUBECFG_REMOTE: url,
      KUBECFG_REMOTE_TOKEN: this.tokens.get(tenant) ?? '',
      KUBECFG_REMOTE_CA: this.tls.ca,
      ...extraEnv,
    };
    const proc = spawn(process.execPath, [...cliCommand(), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.procs.add(proc);
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const result = new Promise<RunResult>((resolve) =>
      proc.on('close', (code) => {
        this.procs.delete(proc);
        resolve({ code, stdout, stderr });
      }),
    );
    return { proc, result };
  }

  /** Request work directories left behind (must be none after each request). */
  leftoverWorkdirs(): string[] {
    try {
      return readdirSync(this.workDir);
    } catch {
      return [];
    }
  }

  cleanup(): void {
    for (const p of this.procs) p.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** GET (no body) on the service with its test CA: `/metrics`, `/readyz`, `/healthz`. */
export function getText(url: string, ca: string, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    httpsRequest(url + path, { ca, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    })
      .on('error', reject)
      .end();
  });
}

export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m && m[1] === name && (m[2] ?? '') === want) return Number(m[3]);
  }
  return 0;
}
