// Content digests as the OCI image spec defines them ("algorithm:hex"). We compute sha256 and
// verify sha256 and sha512. Invariant: a Digest string returned by parseDigest is lower-case and
// has the exact hex length of its algorithm.
import { createHash } from 'node:crypto';
import { OciError } from './errors.js';

const DIGEST_SHAPES: Record<string, number> = { sha256: 64, sha512: 128 };

export interface ParsedDigest {
  algorithm: 'sha256' | 'sha512';
  hex: string;
}

export function parseDigest(digest: string, where = 'digest'): ParsedDigest {
  const m = /^(sha256|sha512):([a-f0-9]+)$/.exec(digest);
  if (m === null || m[2]!.length !== DIGEST_SHAPES[m[1]!]) {
    throw new OciError(
      'OCI_REFERENCE',
      `${where}: ${JSON.stringify(truncate(digest))} is not a sha256/sha512 digest (algorithm:lower-case hex)`,
    );
  }
  return { algorithm: m[1] as 'sha256' | 'sha512', hex: m[2]! };
}

export function isDigest(s: string): boolean {
  const m = /^(sha256|sha512):([a-f0-9]+)$/.exec(s);
  return m !== null && m[2]!.length === DIGEST_SHAPES[m[1]!];
}

export function sha256Digest(data: Uint8Array): string {
  return 'sha256:' + createHash('sha256').update(data).digest('hex');
}

/** Throws OCI_DIGEST_MISMATCH unless data hashes to expected. `what` names the object for the message. */
export function verifyDigest(data: Uint8Array, expected: string, what: string): void {
  const { algorithm } = parseDigest(expected, what);
  const actual = `${algorithm}:` + createHash(algorithm).update(data).digest('hex');
  if (actual !== expected) {
    throw new OciError(
      'OCI_DIGEST_MISMATCH',
      `${what}: content digest is ${actual}, expected ${expected} (refusing tampered or corrupt content)`,
    );
  }
}

function truncate(s: string): string {
  return s.length > 80 ? s.slice(0, 77) + '...' : s;
}
