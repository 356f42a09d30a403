/**
 * std functions about types and values (https://jsonnet.org/ref/stdlib.html#types):
 * type, isX, length, toString, equality helpers, id, xor/xnor, assertEqual,
 * and the ones that reach the evaluator's host: trace, extVar, native.
 */
import type { JsonValue } from '../../common/json.js';
import type { Evaluator } from '../evaluator.js';
import { serializeCompact } from '../manifest.js';
import { ArrayValue, FuncValue, ObjectValue, Thunk, type Value, codepointLength, typeName } from '../value.js';
import type { BuiltinTable } from './builtin.js';

/** The `id` function used as the default keyF. */
export function identityDefault(ev: Evaluator): Value {
  const f = ev.baseStd.layers[0]!.fields.get('id')!.thunk!.value;
  return f!;
}

/** std.__compare: -1, 0 or 1, with std.jsonnet's messages for mismatched or unordered types. */
function compare3(ev: Evaluator, a: Value, b: Value): number {
  const ta = typeName(a);
  const tb = typeName(b);
  if (ta !== tb) throw ev.error(`Comparison requires matching types. Got ${ta} and ${tb}`);
  if (ta === 'function' || ta === 'object' || ta === 'boolean')
    throw ev.error(`Values of type ${ta} are not comparable.`);
  if (a instanceof ArrayValue && b instanceof ArrayValue) {
    const n = Math.min(a.elems.length, b.elems.length);
    for (let i = 0; i < n; i++) {
      const c = compare3(ev, ev.force(a.elems[i]!), ev.force(b.elems[i]!));
      if (c !== 0) return c;
    }
    return Math.sign(a.elems.length - b.elems.length);
  }
  const c = ev.compare(a, b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

function isType(t: string): BuiltinTable[string] {
  return { params: ['v'], fn: (_ev, [v]) => typeName(v!) === t };
}

export const typeBuiltins: BuiltinTable = {
  type: { params: ['x'], fn: (_ev, [x]) => typeName(x!) },
  isString: isType('string'),
  isNumber: isType('number'),
  isBoolean: isType('boolean'),
  isObject: isType('object'),
  isArray: isType('array'),
  isFunction: isType('function'),
  isNull: isType('null'),
  length: {
    params: ['x'],
    fn: (ev, [x]) => {
      if (typeof x === 'string') return codepointLength(x);
      if (x instanceof ArrayValue) return x.length;
      if (x instanceof ObjectValue) return x.visibleFields().length;
      if (x instanceof FuncValue) return ev.functionArity(x);
      throw ev.error(`Unexpected type ${typeName(x!)}`);
    },
  },
  toString: { params: ['a'], fn: (ev: Evaluator, [a]: Value[]) => ev.toStringValue(a as Value) },
  id: { params: ['x'], fn: (_ev, [x]) => x! },
  primitiveEquals: {
    params: ['x', 'y'],
    fn: (ev, [x, y]) => {
      if (typeName(x!) !== typeName(y!)) return false;
      if (x instanceof FuncValue) throw ev.error('Cannot test equality of functions');
      if (x instanceof ArrayValue || x instanceof ObjectValue) {
        throw ev.error(`primitiveEquals operates on primitive types, got ${typeName(x)}`);
      }
      return x === y;
    },
  },
  equals: { params: ['x', 'y'], fn: (ev, [x, y]) => ev.equals(x!, y!) },
  xor: {
    params: ['x', 'y'],
    types: ['boolean', 'boolean'],
    fn: (_ev, [x, y]) => x !== y,
  },
  xnor: {
    params: ['x', 'y'],
    types: ['boolean', 'boolean'],
    fn: (_ev, [x, y]) => x === y,
  },
  assertEqual: {
    params: ['a', 'b'],
    fn: (ev, [a, b]) => {
      if (ev.equals(a!, b!)) return true;
      const show = (v: Value): string => (typeof v === 'string' ? serializeCompact(v) : ev.toStringValue(v));
      throw ev.error(`Assertion failed. ${show(a!)} != ${show(b!)}`);
    },
  },
  trace: {
    params: ['str', 'rest'],
    lazyFn: (ev, [strT, restT]) => {
      const s = ev.force(strT!);
      if (typeof s !== 'string') throw ev.typeError(s, 'string');
      ev.traceMessage(s);
      return ev.force(restT!);
    },
  },
  // std.jsonnet's internal three-way comparison helpers (used by some libraries).
  __compare: { params: ['v1', 'v2'], fn: (ev, [a, b]) => compare3(ev, a as Value, b as Value) },
  __compare_array: {
    params: ['arr1', 'arr2'],
    types: ['array', 'array'],
    fn: (ev, [a, b]) => compare3(ev, a as Value, b as Value),
  },
  __array_less: {
    params: ['arr1', 'arr2'],
    types: ['array', 'array'],
    fn: (ev, [a, b]) => compare3(ev, a as Value, b as Value) === -1,
  },
  __array_greater: {
    params: ['arr1', 'arr2'],
    types: ['array', 'array'],
    fn: (ev, [a, b]) => compare3(ev, a as Value, b as Value) === 1,
  },
  __array_less_or_equal: {
    params: ['arr1', 'arr2'],
    types: ['array', 'array'],
    fn: (ev, [a, b]) => compare3(ev, a as Value, b as Value) <= 0,
  },
  __array_greater_or_equal: {
    params: ['arr1', 'arr2'],
    types: ['array', 'array'],
    fn: (ev, [a, b]) => compare3(ev, a as Value, b as Value) >= 0,
  },
  extVar: {
    params: ['x'],
    types: ['string'],
    fn: (ev, [x]) => ev.extVar(x as string),
  },
  native: {
    params: ['x'],
    types: ['string'],
    fn: (ev, [x]) => {
      const natives = ev.options.natives;
      const name = x as string;
      if (!natives || !Object.prototype.hasOwnProperty.call(natives, name)) return null;
      const nf = natives[name]!;
      return new FuncValue(
        nf.params.map((p) => ({ name: p, defaultValue: null })),
        null,
        null,
        name,
        (args: Thunk[]) => {
          const json: JsonValue[] = args.map((t) => ev.manifest(ev.force(t)));
          let r: JsonValue;
          try {
            r = nf.fn(json);
          } catch (e) {
            if (isNativeFault(e)) throw ev.error(`native function ${JSON.stringify(name)} panicked: ${faultText(e)}`);
            throw ev.error((e as Error).message);
          }
          return ev.fromJson(r);
        },
        null,
      );
    },
  },
};

/**
 * A native reports a failure by throwing an Error (go-jsonnet: the error it
 * returns; its message is the Jsonnet error). A JS fault escaping it
 * (TypeError, RangeError, ...) or a thrown non-Error is what Go calls a
 * panic, which go-jsonnet reports as `native function "f" panicked: ...`.
 */
function isNativeFault(e: unknown): boolean {
  return (
    !(e instanceof Error) ||
    e instanceof TypeError ||
    e instanceof RangeError ||
    e instanceof ReferenceError ||
    e instanceof SyntaxError ||
    e instanceof EvalError ||
    e instanceof URIError
  );
}

function faultText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
