/**
 * std.format (and so the `%` operator on strings) over thunks: the format
 * string is parsed first, then each array element or object field a code
 * uses is forced and turned into JSON on its own, as std.jsonnet does. Forcing
 * the whole value first (the data-only path) broke `'%(a)s' % {a: 1, b: error
 * 'x'}` and, on real mixins (`'...' % $._config` hundreds of times), rebuilt
 * the whole config object as JSON on every call. Object keys may name hidden
 * fields (std.objectHasAll). Overrides the data-only `format` in the registry.
 */
import type { JsonValue } from '../../common/json.js';
import type { Evaluator } from '../evaluator.js';
import { ArrayValue, ObjectValue, typeName, type Value } from '../value.js';
import type { BuiltinTable } from './builtin.js';
import { type FormatValues, formatWith } from './pure/index.js';

function valuesOf(ev: Evaluator, vals: Value): FormatValues {
  if (vals instanceof ArrayValue)
    return { kind: 'array', length: vals.length, at: (i) => ev.manifest(ev.force(vals.at(i))) };
  if (vals instanceof ObjectValue)
    return {
      kind: 'object',
      has: (k) => vals.hasField(k, true),
      get: (k) => ev.manifest(ev.objectIndex(vals, k)),
    };
  let json: JsonValue | undefined;
  return { kind: 'array', length: 1, at: () => (json ??= ev.manifest(vals)) };
}

export const formatBuiltins: BuiltinTable = {
  format: {
    params: ['str', 'vals'],
    lazyFn: (ev, [strThunk, valsThunk]) => {
      const str = ev.force(strThunk!);
      // std.jsonnet takes std.length(str) first, whose error has no "expected" part.
      if (typeof str !== 'string') throw ev.error(`Unexpected type ${typeName(str)}`);
      const vals = valuesOf(ev, ev.force(valsThunk!));
      try {
        return formatWith(str, vals);
      } catch (e) {
        if (e instanceof Error && e.name === 'StdError') throw ev.error(e.message);
        if (e instanceof RangeError) throw ev.error(`std function failed: ${e.message}`);
        throw e;
      }
    },
  },
};
