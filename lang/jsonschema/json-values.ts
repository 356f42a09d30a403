/**
 * JSON value helpers both validators share (v5 for kubecfg's native, v6 for
 * Helm): the libraries' equality, a canonical key for uniqueItems, RE2
 * pattern matching, and key order where the libraries iterate a Go map.
 */

import type { JsonValue } from '../common/json.js';
import { compareCodepoints } from '../common/json.js';
import { compileGoRegexp } from '../go/regexp/go-regexp.js';
import { wellFormed } from '../common/well-formed.js';

export type JsonObject = { [key: string]: JsonValue };

export function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasOwn(o: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** Where the library ranges over a Go map (random order), we take keys in codepoint order. */
export function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(compareCodepoints);
}

/** The libraries' equals(): numbers by value, objects by members, arrays in order. */
export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEquals(x, b[i]!));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => hasOwn(b, k) && jsonEquals(a[k]!, b[k]!));
  }
  return false;
}

/** A stable text key for uniqueItems: equal JSON values, equal keys. */
function canonicalKey(v: JsonValue): string {
  if (Array.isArray(v)) return '[' + v.map(canonicalKey).join(',') + ']';
  if (isObject(v))
    return (
      '{' +
      sortedKeys(v)
        .map((k) => JSON.stringify(k) + ':' + canonicalKey(v[k]!))
        .join(',') +
      '}'
    );
  return JSON.stringify(v);
}

/** The first duplicate pair [j, i] (smallest i, then the earliest j), as both libraries report it. */
export function firstDuplicate(items: readonly JsonValue[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const key = canonicalKey(item);
    const j = seen.get(key);
    if (j !== undefined) return [j, i];
    seen.set(key, i);
  }
  return undefined;
}

export function patternMatches(pattern: string, subject: string): boolean {
  return compileGoRegexp(pattern).test(wellFormed(subject));
}

export interface NumericBounds {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** A schema's number bounds; in draft 4 a boolean exclusiveMinimum/Maximum makes minimum/maximum exclusive. */
export function numericBounds(s: JsonObject, version: number): NumericBounds {
  const num = (v: JsonValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
  const b: NumericBounds = {
    minimum: num(s.minimum),
    maximum: num(s.maximum),
    exclusiveMinimum: num(s.exclusiveMinimum),
    exclusiveMaximum: num(s.exclusiveMaximum),
  };
  if (version === 4 && s.exclusiveMinimum === true) [b.minimum, b.exclusiveMinimum] = [undefined, b.minimum];
  if (version === 4 && s.exclusiveMaximum === true) [b.maximum, b.exclusiveMaximum] = [undefined, b.maximum];
  return b;
}
