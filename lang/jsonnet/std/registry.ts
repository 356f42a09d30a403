/**
 * The one std registry: merges the evaluator-aware tables (arrays, objects,
 * math, types) with the data-only functions of std/pure (forced deeply to
 * JSON, results converted back, StdError turned into a runtime error), and
 * builds the `std` object (all fields hidden, as in std.jsonnet). Arity and
 * type errors come from each declaration.
 */
import type { JsonValue } from '../../common/json.js';
import type { Evaluator } from '../evaluator.js';
import { FuncValue, Layer, ObjectValue, Thunk, type FieldDef, type Value } from '../value.js';
import { arrayBuiltins } from './arrays.js';
import { type BuiltinSpec, type BuiltinTable, checkType } from './builtin.js';
import { formatBuiltins } from './format-lazy.js';
import { mathBuiltins } from './math.js';
import { objectBuiltins } from './objects.js';
import { typeBuiltins } from './types.js';

/** J2's data-only std functions (lang/jsonnet/std/pure/index.ts). */
export type PureStdTable = Record<
  string,
  { params: string[]; defaults?: Record<string, JsonValue>; fn: (args: JsonValue[]) => JsonValue }
>;

const NATIVE_TABLES: BuiltinTable[] = [typeBuiltins, arrayBuiltins, objectBuiltins, mathBuiltins, formatBuiltins];

function isStdError(e: unknown): e is Error {
  return e instanceof Error && e.name === 'StdError';
}

function adaptPure(spec: PureStdTable[string]): BuiltinSpec {
  const defaults: Record<string, (ev: Evaluator) => Value> = {};
  for (const [k, v] of Object.entries(spec.defaults ?? {})) defaults[k] = (ev) => ev.fromJson(v);
  return {
    params: spec.params,
    defaults,
    fn: (ev, args) => {
      const json = args.map((a) => ev.manifest(a));
      let r: JsonValue;
      try {
        r = spec.fn(json);
      } catch (e) {
        if (isStdError(e)) throw ev.error(e.message);
        if (e instanceof RangeError) throw ev.error(`std function failed: ${e.message}`);
        throw e;
      }
      return ev.fromJson(r);
    },
  };
}

function makeBuiltin(ev: Evaluator, name: string, spec: BuiltinSpec): FuncValue {
  const params = spec.params.map((p) => ({ name: p, defaultValue: null }));
  const defaults = spec.params.map((p) => {
    const d = spec.defaults?.[p];
    return d ? () => Thunk.computed(() => d(ev)) : undefined;
  });
  const types = spec.types;
  const impl = (args: Thunk[]): Value => {
    if (spec.lazyFn) return spec.lazyFn(ev, args);
    const vals = args.map((t) => ev.force(t));
    if (types) for (let i = 0; i < types.length; i++) checkType(ev, vals[i]!, types[i]!);
    return spec.fn!(ev, vals);
  };
  return new FuncValue(params, null, null, name, impl, defaults);
}

/** Builds the base std object for one evaluator. */
export function buildStd(ev: Evaluator, pure: PureStdTable | undefined): ObjectValue {
  const specs = new Map<string, BuiltinSpec>();
  if (pure) for (const [name, spec] of Object.entries(pure)) specs.set(name, adaptPure(spec));
  for (const table of NATIVE_TABLES) for (const [name, spec] of Object.entries(table)) specs.set(name, spec);
  const fields = new Map<string, FieldDef>();
  for (const [name, spec] of specs) {
    fields.set(name, {
      hide: 'hidden',
      plus: false,
      body: null,
      env: null,
      thunk: Thunk.ready(makeBuiltin(ev, name, spec)),
    });
  }
  fields.set('pi', { hide: 'hidden', plus: false, body: null, env: null, thunk: Thunk.ready(3.141592653589793) });
  const std = new ObjectValue([new Layer(fields, null, [], null)]);
  std.assertState = null;
  return std;
}
