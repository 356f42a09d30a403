import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RemoteSnapshot } from '../remote-inputs/remote-types.js';
import { CodecError, decodeReport, decodeSnapshot, encodeSnapshot } from './snapshot-codec.js';

test('a snapshot survives the JSON line to the render child byte for byte', () => {
  // A bundle path may be any text, `__proto__` included: it stays an ordinary key.
  const bundleFiles = Object.create(null) as Record<string, Uint8Array>;
  bundleFiles['main.jsonnet'] = new TextEncoder().encode('{}');
  bundleFiles['__proto__'] = new Uint8Array([1]);
  const snapshot: RemoteSnapshot = {
    'http https://h/lib.libsonnet': {
      kind: 'http',
      status: 'ok',
      url: 'https://h/lib.libsonnet',
      bytes: new Uint8Array([0, 255, 10, 65]),
      digest: 'sha256:x',
    },
    'http https://h/gone': { kind: 'http', status: 'not-found', url: 'https://h/gone' },
    'oci r/a:v1': {
      kind: 'oci',
      status: 'ok',
      pinned: 'r/a@sha256:1',
      entrypoint: 'main.jsonnet',
      features: ['yakl'],
      files: bundleFiles,
    },
    'image nginx': { kind: 'image', status: 'error', message: 'refused' },
  };
  const back = decodeSnapshot(
    JSON.parse(JSON.stringify(encodeSnapshot(snapshot))) as ReturnType<typeof encodeSnapshot>,
  );
  assert.deepEqual(Object.keys(back), Object.keys(snapshot));
  for (const key of Object.keys(snapshot)) {
    const { files: a, ...restBack } = back[key] as { files?: Record<string, Uint8Array> };
    const { files: b, ...restWant } = snapshot[key] as { files?: Record<string, Uint8Array> };
    assert.deepEqual(restBack, restWant, key);
    assert.deepEqual(Object.entries(a ?? {}), Object.entries(b ?? {}), key);
  }
});

test('a child report is checked field by field', () => {
  const policy = { allowHosts: ['a'], insecureRegistries: [], ociTagTtlMs: 1000 };
  const good = {
    needs: [
      { kind: 'http', url: 'https://h/x' },
      { kind: 'oci', reference: 'r/a:v1' },
      { kind: 'image', image: 'nginx' },
    ],
    deps: [
      { kind: 'http', url: 'https://h/x', digest: null },
      { kind: 'oci-tag', reference: 'r/a:v1', pinned: 'r/a@sha256:1' },
      { kind: 'image', image: 'nginx', resolved: 'sha256:2' },
    ],
    policy: { ...policy, dockerConfig: '/root/.docker/config.json', onlyAllowedHosts: false },
  };
  // Only the known fields come through: the parent sets credentials and the strict rule itself.
  assert.deepEqual(decodeReport(good), { needs: good.needs, deps: good.deps, policy });
  const bad: [unknown, RegExp][] = [
    [null, /remote: expected an object/],
    [{ ...good, needs: {} }, /remote.needs: expected an array/],
    [{ ...good, needs: [{ kind: 'file', path: '/etc/passwd' }] }, /remote.needs\[0\].kind: unknown/],
    [{ ...good, needs: [{ kind: 'http', url: 1 }] }, /remote.needs\[0\].url: expected a string/],
    [{ ...good, deps: [{ kind: 'http', url: 'u', digest: 5 }] }, /remote.deps\[0\].digest/],
    [{ ...good, policy: { ...policy, ociTagTtlMs: -1 } }, /ociTagTtlMs/],
    [{ ...good, policy: { ...policy, allowHosts: [1] } }, /allowHosts\[0\]/],
  ];
  for (const [input, message] of bad)
    assert.throws(
      () => decodeReport(input),
      (e: unknown) => e instanceof CodecError && message.test(e.message),
    );
});
