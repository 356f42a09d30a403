/**
 * The bearer token of the optional TCP listener (hazard 30): 256 random bits,
 * hex, written 0600 inside the 0700 runtime dir (O_EXCL after removing an old
 * one, so we never write through a planted symlink). Compared in constant
 * time; never logged.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { openSync, unlinkSync, writeSync, closeSync } from 'node:fs';

export function createTokenFile(path: string): string {
  const token = randomBytes(32).toString('hex');
  try {
    unlinkSync(path);
  } catch {
    // no old token
  }
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, token + '\n');
  } finally {
    closeSync(fd);
  }
  return token;
}

/** Checks an Authorization header value against the token without leaking timing or length. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7).trim(), 'utf8');
  const want = Buffer.from(token, 'utf8');
  // Compare equal-length buffers so the comparison time does not reveal the length.
  const padded = Buffer.alloc(want.length);
  given.copy(padded, 0, 0, Math.min(given.length, want.length));
  const same = timingSafeEqual(padded, want);
  return same && given.length === want.length;
}
