import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// Runs from source (tsx) and from the compiled dist/ tree alike.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const MAIN = fileURLToPath(new URL(FROM_SOURCE ? './main.ts' : './main.js', import.meta.url));
const NODE_ARGS = FROM_SOURCE ? ['--import', 'tsx', MAIN] : [MAIN];

test('main.ts starts on the given port, writes a kubeconfig and stops on SIGTERM', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'apiserver-main-'));
  const kubeconfig = join(dir, 'kc.yaml');
  const child = spawn(process.execPath, [...NODE_ARGS, '--port', '0', '--kubeconfig-out', kubeconfig, '--token', 't'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (\S+)/.exec(out);
        if (m !== null) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
    });
    assert.match(readFileSync(kubeconfig, 'utf8'), new RegExp(`server: ${url.replace(/[.]/g, '\\.')}`));
    const res = await fetch(`${url}/version`, { headers: { authorization: 'Bearer t' } });
    assert.equal(res.status, 200);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

test('main.ts refuses a bad port with a message and exit code 1', async () => {
  const child = spawn(process.execPath, [...NODE_ARGS, '--port', 'abc'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 1);
  assert.match(err, /--port: not a port number: abc/);
});
