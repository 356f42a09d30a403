// Runs a docker credential helper (`docker-credential-NAME get`, server URL on stdin) and parses
// its answer. Invariants: the helper name is a plain word (no path tricks); it gets a timeout and
// an output cap; its stdout/stderr (which hold secrets) never reach an error message.
import { spawn } from 'node:child_process';
import { OciError } from './errors.js';

export interface HelperCredential {
  username: string;
  secret: string;
}

export interface CredentialHelperOptions {
  /** Environment for the helper (PATH decides which binary runs); defaults to this process's. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

const MAX_HELPER_OUTPUT = 64 * 1024;

/** Returns undefined when the helper has no credentials for serverUrl. */
export function runCredentialHelper(
  name: string,
  serverUrl: string,
  opts: CredentialHelperOptions = {},
): Promise<HelperCredential | undefined> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    return Promise.reject(
      new OciError(
        'OCI_CREDENTIALS',
        `docker config: credential helper name ${JSON.stringify(name)} is not a plain name`,
      ),
    );
  }
  const program = `docker-credential-${name}`;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const child = spawn(program, ['get'], { env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    // Our own timer rather than spawn's `timeout`, which is not cleared when the spawn fails.
    const timer = setTimeout(() => fail(`no answer within ${timeoutMs} ms`), timeoutMs);
    const out: Buffer[] = [];
    let outBytes = 0;
    let errText = '';
    let settled = false;
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new OciError('OCI_CREDENTIALS', `credential helper ${program} for ${serverUrl}: ${why}`));
    };
    child.on('error', (e: NodeJS.ErrnoException) =>
      fail(e.code === 'ENOENT' ? 'not found on PATH' : `cannot run (${e.code ?? 'error'})`),
    );
    child.stdout.on('data', (d: Buffer) => {
      outBytes += d.byteLength;
      if (outBytes > MAX_HELPER_OUTPUT) fail('output larger than 64 KiB');
      else out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      if (errText.length < 4096) errText += d.toString('utf8');
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(serverUrl);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (settled) return;
      const stdout = Buffer.concat(out).toString('utf8');
      if (signal !== null) return fail(`killed by ${signal}`);
      if (code !== 0) {
        // The helper protocol's way of saying "no entry"; any other failure is an error.
        if (/credentials not found/i.test(stdout + errText)) {
          settled = true;
          return resolve(undefined);
        }
        return fail(`exited with status ${code}`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(stdout);
      } catch {
        return fail('printed something that is not JSON');
      }
      const rec = parsed as { Username?: unknown; Secret?: unknown };
      if (
        parsed === null ||
        typeof parsed !== 'object' ||
        typeof rec.Username !== 'string' ||
        typeof rec.Secret !== 'string'
      ) {
        return fail('answer lacks string Username and Secret fields');
      }
      settled = true;
      resolve({ username: rec.Username, secret: rec.Secret });
    });
  });
}
