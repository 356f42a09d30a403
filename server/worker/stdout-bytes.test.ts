import assert from 'node:assert/strict';
import { test } from 'node:test';
import { knownStdoutBytes, withChanges, withStdoutBytes } from './stdout-bytes.js';
import { stdoutBytes, writeOutput, type CachedOutput } from '../command-runner.js';

const text = 'kind: ConfigMap “quoted” ☃ 𝄞\n'.repeat(3);

test('stdout decodes from the UTF-8 bytes when read, once, and spreads like a plain field', () => {
  const bytes = new TextEncoder().encode(text);
  const out = withStdoutBytes<CachedOutput>({ exitCode: 0, stderr: '' }, bytes);
  assert.equal(knownStdoutBytes(out), bytes);
  assert.equal(out.stdout, text);
  assert.equal(out.stdout, out.stdout, 'the same string each time');
  assert.deepEqual({ ...out }, { exitCode: 0, stderr: '', stdout: text });
  assert.equal(knownStdoutBytes({ ...out }), undefined, 'a copy is a plain object');
});

test('the framed stream sends the bytes as they came, without decoding them', () => {
  const bytes = new TextEncoder().encode(text);
  let decoded = false;
  const out = withStdoutBytes<CachedOutput>({ exitCode: 0, stderr: 'warn\n' }, bytes);
  const getter = Object.getOwnPropertyDescriptor(out, 'stdout')!.get!;
  Object.defineProperty(out, 'stdout', {
    get: () => {
      decoded = true;
      return getter();
    },
  });
  const written: [string, Buffer][] = [];
  writeOutput({ write: () => assert.fail('string path'), writeBytes: (s, b) => written.push([s, b]) }, out);
  assert.equal(decoded, false);
  assert.deepEqual(
    written.map(([s, b]) => [s, b.toString('utf8')]),
    [
      ['stdout', text],
      ['stderr', 'warn\n'],
    ],
  );
  assert.equal(stdoutBytes(out).buffer, bytes.buffer, 'a view of the received bytes, not a copy');
});

test('withChanges keeps the bytes and never decodes them, unless stdout itself changes', () => {
  const bytes = new TextEncoder().encode(text);
  const out = withStdoutBytes<CachedOutput>({ exitCode: 0, stderr: '' }, bytes);
  Object.defineProperty(out, 'stdout', { enumerable: true, get: () => assert.fail('decoded') });
  const changed = withChanges(out, { stderr: 'warn\n' });
  assert.equal(knownStdoutBytes(changed), bytes);
  assert.equal(changed.stderr, 'warn\n');
  assert.equal(changed.exitCode, 0);
  const emptied = withChanges(out, { stdout: '' });
  assert.equal(emptied.stdout, '');
  assert.equal(knownStdoutBytes(emptied), undefined);
  const plain = withChanges<CachedOutput>({ exitCode: 1, stdout: 'x', stderr: '' }, { exitCode: 2 });
  assert.deepEqual(plain, { exitCode: 2, stdout: 'x', stderr: '' });
});
