/**
 * Sprig default and flow functions (https://masterminds.github.io/sprig/defaults.html,
 * flow_control.html): default, empty, coalesce, all, any, ternary, fail.
 * "Empty" is Go's zero value (see convert.ts isEmpty).
 */

import { type FuncDef, pure } from '../function.js';
import { isEmpty } from './convert.js';

export const defaultFuncs: Record<string, FuncDef> = {
  default: pure(
    ['any'],
    (d: unknown, ...given: unknown[]) => (given.length === 0 || isEmpty(given[0]) ? d : given[0]),
    'any',
  ),
  empty: pure(['any'], isEmpty),
  coalesce: pure([], (...vs: unknown[]) => vs.find((v) => !isEmpty(v)) ?? null, 'any'),
  all: pure([], (...vs: unknown[]) => vs.every((v) => !isEmpty(v)), 'any'),
  any: pure([], (...vs: unknown[]) => vs.some((v) => !isEmpty(v)), 'any'),
  ternary: pure(['any', 'any', 'bool'], (t: unknown, f: unknown, c: boolean) => (c ? t : f)),
  fail: pure(['string'], (msg: string) => {
    throw new Error(msg);
  }),
};
