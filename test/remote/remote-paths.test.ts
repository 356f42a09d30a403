/**
 * Issue 21 item 5 (hazard 26): no answer of the remote service names its own directories. Requests
 * are made by hand (a hostile client skips the CLI's own checks) with inputs that escape the upload
 * root, imports that climb out of it, missing files, parse errors, import cycles, code flags that
 * read files; every string of every answer (result stdout/stderr, error message, error data) is
 * checked against the sandbox's absolute directory, which holds the work directory and the blob store.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { hasOpenssl, RemoteSandbox, type ServerHandle } from './harness.js';

const skip = hasOpenssl() ? false : 'openssl is not installed';

const FILES: Record<string, string> = {
  'app.jsonnet': '{ a: std.extVar("x") }\n',
  'sub/climb.jsonnet': '{ a: import "../../../etc/x" }\n',
  'sub/up.jsonnet': 'import "../../w.jsonnet"\n',
  'parse.jsonnet': '{ a: \n',
  'cycle.jsonnet': 'import "cycle.jsonnet"\n',
  'tla.jsonnet': 'function(x) x\n',
  'self.jsonnet': 'error "in " + std.thisFile\n',
};

const TTY = { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'never', noColor: true, forceColor: null };

describe('remote answers name no path of the service', { skip }, () => {
  let sb: RemoteSandbox;
  let srv: ServerHandle;
  let ca: string;
  const manifest: Record<string, string> = {};

  const rpc = (method: string, params: unknown): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const q = request(
        srv.url + '/rpc',
        {
          method: 'POST',
          ca,
          agent: false,
          headers: { authorization: `Bearer ${sb.tokens.get('team-p')}`, 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c));
          res.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
        },
      );
      q.on('error', reject);
      q.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    });

  const render = (args: string[], flags: Record<string, string[]> = {}, method = 'render/jsonnet') =>
    rpc('remote/render', {
      method,
      params: { requestId: 'r', args, flags, cwd: '.', env: {}, tty: TTY },
      manifest,
    });

  before(async () => {
    sb = new RemoteSandbox([{ name: 'team-p', allowCode: true }]);
    ca = readFileSync(sb.tls.ca, 'utf8');
    srv = await sb.startServer();
    const blobs = [];
    for (const [path, text] of Object.entries(FILES)) {
      const digest = 'sha256:' + createHash('sha256').update(text).digest('hex');
      manifest[path] = digest;
      blobs.push({ digest, data: Buffer.from(text).toString('base64') });
    }
    const up = await rpc('remote/upload', { blobs });
    assert.ok(up.result, JSON.stringify(up));
  });
  after(async () => {
    await srv?.stop();
    sb?.cleanup();
  });

  /** Every string of an answer (result fields, error message and data), one per line. */
  const strings = (v: unknown): string[] =>
    typeof v === 'string' ? [v] : v !== null && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];

  const noServicePath = (answer: Record<string, unknown>, what: string): string => {
    const text = strings(answer).join('\n');
    assert.ok(!text.includes(sb.dir), `${what}: the answer names the service's directory: ${text.slice(0, 600)}`);
    assert.doesNotMatch(text, /\/tmp\/|[0-9a-f]{32}/, `${what}: ${text.slice(0, 600)}`);
    return text;
  };

  test('inputs and file flags outside the upload root are refused, naming the value as sent', async () => {
    const cases: [string[], Record<string, string[]>, RegExp][] = [
      [['../../x.jsonnet'], {}, /input "\.\.\/\.\.\/x\.jsonnet" is outside the upload root/],
      [['/etc/x.jsonnet'], {}, /input "\/etc\/x\.jsonnet" is outside the upload root/],
      [['app.jsonnet'], { 'ext-str-file': ['x=../x'] }, /--ext-str-file "x=\.\.\/x" is outside the upload root/],
      [['tla.jsonnet'], { 'tla-code-file': ['x=sub/../../y'] }, /--tla-code-file "x=sub\/\.\.\/\.\.\/y" is outside/],
      [['app.jsonnet'], { jpath: ['../..'] }, /--jpath "\.\.\/\.\." is outside the upload root/],
    ];
    for (const [args, flags, want] of cases) {
      for (const method of ['render/jsonnet', 'render/show']) {
        const answer = await render(args, flags, method);
        const text = noServicePath(answer, `${method} ${args.join(' ')} ${JSON.stringify(flags)}`);
        assert.match(text, want);
      }
    }
    assert.deepEqual(sb.leftoverWorkdirs(), []);
  });

  test('render errors (imports climbing out, missing file, parse error, cycle, code reading files) are relative', async () => {
    const cases: [string[], Record<string, string[]>, RegExp][] = [
      [['sub/climb.jsonnet'], {}, /couldn't open import "\.\.\/\.\.\/\.\.\/etc\/x"/],
      [['sub/up.jsonnet'], {}, /couldn't open import "\.\.\/\.\.\/w\.jsonnet"/],
      [['missing.jsonnet'], {}, /missing\.jsonnet: no such file/],
      [['parse.jsonnet'], {}, /parse\.jsonnet:2:1/],
      [['cycle.jsonnet'], {}, /cycle\.jsonnet:1:1/],
      [['self.jsonnet'], {}, /RUNTIME ERROR: in self\.jsonnet/],
      // Code from a flag resolves its imports against the root: the error names them relative to it.
      [['app.jsonnet'], { 'ext-code': ['x=import "../../outside.libsonnet"'] }, /couldn't open import/],
      [['tla.jsonnet'], { 'tla-code': ['x=importstr "/etc/hostname-x"'] }, /hostname-x/],
    ];
    for (const [args, flags, want] of cases) {
      for (const method of ['render/jsonnet', 'render/show']) {
        const answer = await render(args, flags, method);
        const text = noServicePath(answer, `${method} ${args.join(' ')} ${JSON.stringify(flags)}`);
        assert.match(text, want, `${method} ${args.join(' ')}`);
      }
    }
  });
});
