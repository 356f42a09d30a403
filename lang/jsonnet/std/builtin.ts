/**
 * How a std builtin is declared: once, with its parameter names (so named
 * arguments work), optional defaults (made lazily, so a default may be an
 * error), optional parameter types (type errors are generated from them with
 * go-jsonnet's "Unexpected type X, expected Y" wording), and an
 * implementation over forced values (`fn`) or over thunks (`lazyFn`).
 */
import type { Evaluator } from '../evaluator.js';
import { ArrayValue, FuncValue, ObjectValue, type Thunk, type Value } from '../value.js';
import { formatFloat } from '../../go/strconv.js';

export type ParamType = 'any' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'function';

export interface BuiltinSpec {
  params: string[];
  /** Defaults of optional parameters, computed only when the argument is omitted. */
  defaults?: Record<string, (ev: Evaluator) => Value>;
  types?: ParamType[];
  fn?: (ev: Evaluator, args: Value[]) => Value;
  lazyFn?: (ev: Evaluator, args: Thunk[]) => Value;
}

export type BuiltinTable = Record<string, BuiltinSpec>;

export function checkType(ev: Evaluator, v: Value, t: ParamType): void {
  switch (t) {
    case 'any':
      return;
    case 'number':
    case 'string':
    case 'boolean':
      if (typeof v !== t) throw ev.typeError(v, t);
      return;
    case 'array':
      if (!(v instanceof ArrayValue)) throw ev.typeError(v, 'array');
      return;
    case 'object':
      if (!(v instanceof ObjectValue)) throw ev.typeError(v, 'object');
      return;
    case 'function':
      if (!(v instanceof FuncValue)) throw ev.typeError(v, 'function');
      return;
  }
}

/** go-jsonnet's getInt: an integer that fits int32. */
export function intArg(ev: Evaluator, v: Value): number {
  if (typeof v !== 'number') throw ev.typeError(v, 'number');
  if ((v | 0) !== v) throw ev.error(`Expected an integer, but got ${formatFloat(v, 'g', -1)}`);
  return v;
}
