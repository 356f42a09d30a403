// Content digests: the only thing cache keys are built from.
// Invariant: digestOf(x) is the lowercase hex SHA-256 of x's bytes (strings are hashed as UTF-8),
// so a digest taken in a worker thread equals one taken in the daemon for the same content.
import { createHash } from 'node:crypto';

export function digestOf(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Digest of a JSON-like value with object keys sorted, so logically equal requests get the same
 * key however their objects were built. `undefined` members are skipped as JSON.stringify does;
 * values JSON cannot express (functions, symbols, bigint, NaN/Infinity) are refused with the
 * value path, because silently dropping them would let two different requests share a key.
 */
export function stableDigest(value: unknown): string {
  return digestOf(canonicalJson(value, '$'));
}

function canonicalJson(value: unknown, where: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`stableDigest: ${where} is ${value}, which JSON cannot express`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${value.map((item, i) => canonicalJson(item ?? null, `${where}[${i}]`)).join(',')}]`;
      }
      if (value instanceof Uint8Array) return JSON.stringify(`sha256:${digestOf(value)}`);
      // Sorting by UTF-16 code units is fine here: the order only has to be deterministic.
      const record = value as Record<string, unknown>;
      const parts: string[] = [];
      for (const key of Object.keys(record).sort()) {
        const member = record[key];
        if (member === undefined) continue;
        parts.push(`${JSON.stringify(key)}:${canonicalJson(member, `${where}.${key}`)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      throw new TypeError(`stableDigest: ${where} is a ${typeof value}, which JSON cannot express`);
  }
}
