/**
 * Sprig hash functions (https://masterminds.github.io/sprig/crypto.html):
 * sha1sum, sha256sum, sha512sum (hex of the UTF-8 bytes) and adler32sum
 * (decimal). Key, certificate and password generators are withheld (see profile.ts).
 */

import { createHash } from 'node:crypto';
import { type FuncDef, pure } from '../function.js';
import { utf8Bytes } from '../value.js';

function hash(alg: string): (s: string) => string {
  return (s) => createHash(alg).update(utf8Bytes(s)).digest('hex');
}

export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const x of bytes) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

export const cryptoFuncs: Record<string, FuncDef> = {
  sha1sum: pure(['string'], hash('sha1')),
  sha256sum: pure(['string'], hash('sha256')),
  sha512sum: pure(['string'], hash('sha512')),
  adler32sum: pure(['string'], (s: string) => String(adler32(utf8Bytes(s)))),
};
