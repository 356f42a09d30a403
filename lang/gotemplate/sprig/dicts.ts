/**
 * Sprig dict functions (https://masterminds.github.io/sprig/dicts.html).
 * As in Sprig, `set`, `unset`, `merge` and `mergeOverwrite` modify their first
 * argument and return it. `merge`/`mergeOverwrite` follow mergo's rules: a
 * destination value that is Go-empty (false, 0, "", nil, empty list or map) is
 * replaced; nested maps merge recursively; with overwrite, source scalars and
 * lists replace destination values (but a source map never replaces a
 * non-empty destination scalar). `keys` and `values` come out in sorted key
 * order (Go's are random), so output stays deterministic.
 */

import { compareCodepoints } from '../../common/json.js';
import { type FuncDef, pure } from '../function.js';
import { hasKey, isMap, mapSet, tagType, typeName } from '../value.js';
import { isEmpty, strval } from './convert.js';

function dict(...v: unknown[]): Record<string, unknown> {
  const d: Record<string, unknown> = {};
  for (let i = 0; i < v.length; i += 2) {
    const key = strval(v[i]);
    mapSet(d, key, i + 1 >= v.length ? '' : v[i + 1]);
  }
  return d;
}

function mergeInto(dst: Record<string, unknown>, src: Record<string, unknown>, overwrite: boolean): void {
  for (const key of Object.keys(src)) {
    const s = src[key];
    const exists = hasKey(dst, key);
    const d = exists ? dst[key] : undefined;
    if (s === null || s === undefined) {
      if (overwrite) mapSet(dst, key, null);
      continue;
    }
    if (isMap(s)) {
      if (exists && isMap(d)) mergeInto(d, s, overwrite);
      if (exists && !isEmpty(d)) continue;
      mapSet(dst, key, s);
      continue;
    }
    if (overwrite || !exists || isEmpty(d)) mapSet(dst, key, s);
  }
}

function mapsOf(ds: unknown[]): Record<string, unknown>[] {
  return ds as Record<string, unknown>[];
}

function sortedKeys(d: Record<string, unknown>): string[] {
  return Object.keys(d).sort(compareCodepoints);
}

function dig(...ps: unknown[]): unknown {
  if (ps.length < 3) throw new Error('dig needs at least three arguments');
  let cur = ps[ps.length - 1];
  const def = ps[ps.length - 2];
  const keys = ps.slice(0, -2);
  for (const k of keys) {
    if (typeof k !== 'string') throw new Error(`interface conversion: interface {} is ${typeName(k)}, not string`);
  }
  if (!isMap(cur))
    throw new Error(`interface conversion: interface {} is ${typeName(cur)}, not map[string]interface {}`);
  for (let i = 0; i < keys.length; i++) {
    const m = cur as Record<string, unknown>;
    const k = keys[i] as string;
    if (!hasKey(m, k)) return def;
    cur = m[k];
    if (i < keys.length - 1 && !isMap(cur)) {
      throw new Error(`interface conversion: interface {} is ${typeName(cur)}, not map[string]interface {}`);
    }
  }
  return cur;
}

const mergeFn =
  (overwrite: boolean) =>
  (dst: Record<string, unknown>, ...srcs: unknown[]) => {
    for (const s of mapsOf(srcs)) mergeInto(dst, s, overwrite);
    return dst;
  };

export const dictFuncs: Record<string, FuncDef> = {
  dict: pure([], dict, 'any'),
  get: pure(['map', 'string'], (d: Record<string, unknown> | null, k: string) => (d && hasKey(d, k) ? d[k] : '')),
  set: pure(['map', 'string', 'any'], (d: Record<string, unknown>, k: string, v: unknown) => {
    if (d === null) throw new Error('assignment to entry in nil map');
    mapSet(d, k, v);
    return d;
  }),
  unset: pure(['map', 'string'], (d: Record<string, unknown> | null, k: string) => {
    if (d) delete d[k];
    return d;
  }),
  hasKey: pure(['map', 'string'], (d: Record<string, unknown> | null, k: string) => d !== null && hasKey(d, k)),
  pluck: pure(
    ['string'],
    (k: string, ...ds: unknown[]) =>
      mapsOf(ds)
        .filter((d) => d && hasKey(d, k))
        .map((d) => d[k]),
    'map',
  ),
  keys: pure(
    [],
    (...ds: unknown[]) =>
      tagType(
        mapsOf(ds).flatMap((d) => (d ? sortedKeys(d) : [])),
        '[]string',
      ),
    'map',
  ),
  values: pure(['map'], (d: Record<string, unknown> | null) => (d ? sortedKeys(d).map((k) => d[k]) : [])),
  pick: pure(
    ['map'],
    (d: Record<string, unknown> | null, ...ks: string[]) => {
      const out: Record<string, unknown> = {};
      for (const k of ks) if (d && hasKey(d, k)) mapSet(out, k, d[k]);
      return out;
    },
    'string',
  ),
  omit: pure(
    ['map'],
    (d: Record<string, unknown> | null, ...ks: string[]) => {
      const out: Record<string, unknown> = {};
      if (d) for (const k of Object.keys(d)) if (!ks.includes(k)) mapSet(out, k, d[k]);
      return out;
    },
    'string',
  ),
  merge: pure(['map'], mergeFn(false), 'map'),
  mustMerge: pure(['map'], mergeFn(false), 'map'),
  mergeOverwrite: pure(['map'], mergeFn(true), 'map'),
  mustMergeOverwrite: pure(['map'], mergeFn(true), 'map'),
  dig: pure([], dig, 'any'),
};
