// Property tests (hazard 39): parsers of untrusted input either succeed or throw OciError; no
// TypeError/RangeError escapes, whatever the bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readTar } from './tar-reader.js';
import { writeTar } from './tar-writer.js';
import { parseManifest } from './manifests.js';
import { parseOciImportUrl, parseReference } from './reference.js';
import { parseChallenges } from './auth.js';
import { parseDockerConfig } from './docker-config.js';
import { parseBundleConfig } from './bundle.js';
import { OciError } from './errors.js';

function onlyOciErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof OciError, `non-OciError escaped: ${String(e)}`);
  }
}

const LIMITS = { maxFileBytes: 1 << 16, maxTotalBytes: 1 << 18, maxEntries: 100 };

test('readTar on random bytes and on mutated valid archives throws only OciError', () => {
  const enc = new TextEncoder();
  const valid = writeTar([
    { path: 'a.jsonnet', data: enc.encode('{}') },
    { path: 'lib/' + 'x'.repeat(120) + '.libsonnet', data: enc.encode('1') },
    { path: 'ü/b', data: new Uint8Array(700) },
  ]);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => onlyOciErrors(() => readTar(bytes, 'fuzz', LIMITS))),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.nat(valid.byteLength - 1), fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 8,
      }),
      (edits) => {
        const copy = new Uint8Array(valid);
        for (const [at, byte] of edits) copy[at] = byte;
        onlyOciErrors(() => readTar(copy, 'fuzz', LIMITS));
      },
    ),
    { numRuns: 500 },
  );
});

test('reference, URL, challenge, manifest, config parsers throw only OciError', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), (s) => {
      onlyOciErrors(() => parseReference(s));
      onlyOciErrors(() => parseOciImportUrl('oci://' + s));
      onlyOciErrors(() => parseChallenges(s));
      onlyOciErrors(() => parseDockerConfig(s, 'c'));
      onlyOciErrors(() => parseBundleConfig(new TextEncoder().encode(s), 'c'));
    }),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(
      fc.jsonValue({ maxDepth: 4 }),
      fc.constantFrom(
        undefined,
        'application/json',
        'application/vnd.oci.image.manifest.v1+json',
        'application/vnd.oci.image.index.v1+json',
      ),
      (doc, ct) => {
        onlyOciErrors(() => parseManifest(new TextEncoder().encode(JSON.stringify(doc)), ct, 'm'));
        onlyOciErrors(() => parseDockerConfig(JSON.stringify(doc), 'c'));
        onlyOciErrors(() => parseBundleConfig(new TextEncoder().encode(JSON.stringify(doc)), 'c'));
      },
    ),
    { numRuns: 500 },
  );
});
