/**
 * Plain JSON values as every language hands them to its callers (render/,
 * server/). Invariants: objects are created with `jsonObject` so that a key
 * such as `__proto__` is an ordinary own property; printers never rely on JS
 * key order (integer-like keys come first in JS) and sort keys themselves
 * with `compareCodepoints`, which orders as Go and Jsonnet do (by Unicode
 * code point, not UTF-16 code unit).
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** An object from entries, safe for any key (including `__proto__`). */
export function jsonObject(entries: Iterable<readonly [string, JsonValue]>): JsonObject {
  const obj: JsonObject = {};
  for (const [k, v] of entries) {
    if (k === '__proto__')
      Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
    else obj[k] = v;
  }
  return obj;
}

/** Sets one key safely (see jsonObject). */
export function setJsonKey(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

export function isJsonObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Orders strings by Unicode code point, as Go's string comparison and Jsonnet's std.sort do. */
export function compareCodepoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (astral code points) sort after every BMP code unit above them.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Own keys of a JSON object, sorted by code point. */
export function sortedKeys(obj: JsonObject): string[] {
  return Object.keys(obj).sort(compareCodepoints);
}
