/**
 * Sprig list functions (https://masterminds.github.io/sprig/lists.html) and
 * the integer sequences until/untilStep/seq. Lists are never modified in
 * place: every function returns a new []interface{}. Non-must variants fail
 * the template with the error the must variant returns, as Sprig's panics do.
 * Sequences are capped at 10000 items (hazard 18) with a TPL_LIMIT error.
 */

import { compareCodepoints } from '../../common/json.js';
import { FuncError } from '../errors.js';
import { type FuncDef, pure } from '../function.js';
import { kindOf, tagType, typeName } from '../value.js';
import { deepEqual, isEmpty, strval, toInt64 } from './convert.js';

/** Our cap on until/untilStep/seq lengths. */
export const MAX_SEQUENCE_ITEMS = 10000;

function listOf(v: unknown, verb: string): unknown[] {
  if (Array.isArray(v)) return v;
  throw new Error(`Cannot ${verb} type ${v === null || v === undefined ? '<nil>' : typeName(v)}`);
}

/** Wraps a must* function so the plain variant reports the same failure. */
function both(
  name: string,
  f: (...a: any[]) => unknown,
  params: FuncDef['params'],
  variadic?: FuncDef['variadic'],
): Record<string, FuncDef> {
  const d = pure(params, f, variadic);
  return { [name]: d, ['must' + name[0]!.toUpperCase() + name.slice(1)]: d };
}

function untilStep(start: number, stop: number, step: number): number[] {
  const v: number[] = [];
  if (step === 0) return tagType(v, '[]int');
  const iterations = Math.abs(stop - start) / Math.abs(step);
  if (iterations > MAX_SEQUENCE_ITEMS) {
    throw new FuncError(
      `too many iterations: ${Math.ceil(iterations)} exceeds the limit of ${MAX_SEQUENCE_ITEMS} items`,
      'TPL_LIMIT',
    );
  }
  if (stop < start) {
    if (step >= 0) return tagType(v, '[]int');
    for (let i = start; i > stop; i += step) v.push(i);
    return tagType(v, '[]int');
  }
  if (step <= 0) return tagType(v, '[]int');
  for (let i = start; i < stop; i += step) v.push(i);
  return tagType(v, '[]int');
}

function seq(...params: number[]): string {
  let inc = 1;
  let out: number[];
  switch (params.length) {
    case 1: {
      const end = params[0]!;
      if (end < 1) inc = -1;
      out = untilStep(1, end + inc, inc);
      break;
    }
    case 2: {
      const [start, end] = params as [number, number];
      const step = end < start ? -1 : 1;
      out = untilStep(start, end + step, step);
      break;
    }
    case 3: {
      const [start, step, end] = params as [number, number, number];
      if (end < start) {
        inc = -1;
        if (step > 0) return '';
      }
      out = untilStep(start, end + inc, step);
      break;
    }
    default:
      return '';
  }
  return out.join(' ');
}

function has(needle: unknown, haystack: unknown): boolean {
  if (haystack === null || haystack === undefined) return false;
  return listOf(haystack, 'find has on').some((x) => deepEqual(x, needle));
}

export const listFuncs: Record<string, FuncDef> = {
  list: pure([], (...v: unknown[]) => v, 'any'),
  tuple: pure([], (...v: unknown[]) => v, 'any'),
  until: pure(['int'], (n: number) => untilStep(0, n, n < 0 ? -1 : 1)),
  untilStep: pure(['int', 'int', 'int'], untilStep),
  seq: pure([], seq, 'int'),
  ...both('append', (l: unknown, v: unknown) => [...listOf(l, 'push on'), v], ['any', 'any']),
  ...both('push', (l: unknown, v: unknown) => [...listOf(l, 'push on'), v], ['any', 'any']),
  ...both('prepend', (l: unknown, v: unknown) => [v, ...listOf(l, 'prepend on')], ['any', 'any']),
  ...both(
    'first',
    (l: unknown) => {
      const a = listOf(l, 'find first on');
      return a.length ? a[0] : null;
    },
    ['any'],
  ),
  ...both(
    'last',
    (l: unknown) => {
      const a = listOf(l, 'find last on');
      return a.length ? a[a.length - 1] : null;
    },
    ['any'],
  ),
  ...both(
    'rest',
    (l: unknown) => {
      const a = listOf(l, 'find rest on');
      return a.length ? a.slice(1) : null;
    },
    ['any'],
  ),
  ...both(
    'initial',
    (l: unknown) => {
      const a = listOf(l, 'find initial on');
      return a.length ? a.slice(0, -1) : null;
    },
    ['any'],
  ),
  ...both('reverse', (l: unknown) => [...listOf(l, 'find reverse on')].reverse(), ['any']),
  ...both(
    'uniq',
    (l: unknown) => {
      const out: unknown[] = [];
      for (const x of listOf(l, 'find uniq on')) if (!out.some((y) => deepEqual(x, y))) out.push(x);
      return out;
    },
    ['any'],
  ),
  ...both('compact', (l: unknown) => listOf(l, 'compact on').filter((x) => !isEmpty(x)), ['any']),
  ...both(
    'without',
    (l: unknown, ...omit: unknown[]) => listOf(l, 'find without on').filter((x) => !omit.some((o) => deepEqual(x, o))),
    ['any'],
    'any',
  ),
  ...both('has', has, ['any', 'any']),
  ...both(
    'slice',
    (l: unknown, ...idx: unknown[]) => {
      if (!Array.isArray(l))
        throw new Error(`list should be type of slice or array but ${l === null ? 'invalid' : kindOf(l)}`);
      if (l.length === 0) return null;
      const start = idx.length > 0 ? toInt64(idx[0]) : 0;
      const end = idx.length > 1 ? toInt64(idx[1]) : l.length;
      if (start < 0 || end > l.length || start > end) throw new Error(`reflect: slice index out of range`);
      return l.slice(start, end);
    },
    ['any'],
    'any',
  ),
  ...both(
    'chunk',
    (size: number, l: unknown) => {
      const a = listOf(l, 'chunk');
      if (size <= 0) throw new Error('runtime error: integer divide by zero');
      const out: unknown[][] = [];
      for (let i = 0; i < a.length; i += size) out.push(a.slice(i, i + size));
      return tagType(out, '[][]interface {}');
    },
    ['int', 'any'],
  ),
  concat: pure(
    [],
    (...lists: unknown[]) => {
      const out: unknown[] = [];
      for (const l of lists) out.push(...listOf(l, 'concat'));
      return out;
    },
    'any',
  ),
  sortAlpha: pure(['any'], (v: unknown) => {
    if (!Array.isArray(v)) return tagType([strval(v)], '[]string');
    return tagType(
      v
        .filter((x) => x !== null)
        .map(strval)
        .sort(compareCodepoints),
      '[]string',
    );
  }),
};
