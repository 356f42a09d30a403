/**
 * std object functions (https://jsonnet.org/ref/stdlib.html#objects):
 * objectFields, objectValues and objectKeysValues (and their All forms),
 * mapWithKey, mergePatch, prune. Field lists are sorted by code point, as
 * go-jsonnet's objectFieldsEx sorts them; values stay lazy where they are in
 * std.jsonnet.
 */
import type { Evaluator } from '../evaluator.js';
import { compareStrings } from '../evaluator.js';
import { ArrayValue, FuncValue, Layer, ObjectValue, Thunk, type Value, typeName } from '../value.js';
import type { BuiltinTable } from './builtin.js';
import { arrayOf } from './arrays.js';

/** Sorted names; the visible list is the object's manifest-order cache (read-only: never mutate it). */
function fieldNames(o: ObjectValue, hidden: boolean): readonly string[] {
  return hidden ? o.allFields().slice().sort(compareStrings) : o.sortedVisibleFields(compareStrings);
}

function lazyField(ev: Evaluator, o: ObjectValue, k: string): Thunk {
  return Thunk.computed(() => ev.objectIndex(o, k));
}

function keysValues(ev: Evaluator, o: ObjectValue, hidden: boolean): Value {
  return new ArrayValue(
    fieldNames(o, hidden).map((k) =>
      Thunk.ready(
        ev.makeNativeObject([
          ['key', Thunk.ready(k)],
          ['value', lazyField(ev, o, k)],
        ]),
      ),
    ),
  );
}

function isContent(ev: Evaluator, v: Value): boolean {
  if (v === null) return false;
  if (v instanceof ArrayValue) return v.elems.length > 0;
  if (v instanceof ObjectValue) return v.visibleFields().length > 0;
  void ev;
  return true;
}

function prune(ev: Evaluator, v: Value): Value {
  if (v instanceof ArrayValue) {
    const out: Value[] = [];
    for (const t of v.elems) {
      const p = prune(ev, ev.force(t));
      if (isContent(ev, p)) out.push(p);
    }
    return arrayOf(out);
  }
  if (v instanceof ObjectValue) {
    const out: [string, Thunk][] = [];
    for (const k of fieldNames(v, false)) {
      const p = prune(ev, ev.objectIndex(v, k));
      if (isContent(ev, p)) out.push([k, Thunk.ready(p)]);
    }
    return ev.makeNativeObject(out);
  }
  return v;
}

function mergePatch(ev: Evaluator, target: Value, patch: Value): Value {
  if (!(patch instanceof ObjectValue)) return patch;
  const t = target instanceof ObjectValue ? target : null;
  const targetFields = t ? fieldNames(t, false) : [];
  const patchFields = fieldNames(patch, false);
  const patchSet = new Set(patchFields);
  const targetSet = new Set(targetFields);
  const names = [...new Set([...targetFields, ...patchFields])].sort(compareStrings);
  const out: [string, Thunk][] = [];
  for (const k of names) {
    if (!patchSet.has(k)) {
      out.push([k, lazyField(ev, t!, k)]);
      continue;
    }
    const pv = ev.objectIndex(patch, k);
    if (pv === null) continue;
    const tv = targetSet.has(k) ? ev.objectIndex(t!, k) : null;
    out.push([k, Thunk.ready(mergePatch(ev, tv, pv))]);
  }
  return ev.makeNativeObject(out);
}

export const objectBuiltins: BuiltinTable = {
  objectFieldsEx: {
    params: ['obj', 'hidden'],
    types: ['object', 'boolean'],
    fn: (_ev, [o, h]) => arrayOf(fieldNames(o as ObjectValue, h as boolean)),
  },
  objectFields: { params: ['o'], types: ['object'], fn: (_ev, [o]) => arrayOf(fieldNames(o as ObjectValue, false)) },
  objectFieldsAll: { params: ['o'], types: ['object'], fn: (_ev, [o]) => arrayOf(fieldNames(o as ObjectValue, true)) },
  objectHasEx: {
    params: ['obj', 'fname', 'hidden'],
    types: ['object', 'string', 'boolean'],
    fn: (_ev, [o, f, h]) => (o as ObjectValue).hasField(f as string, h as boolean),
  },
  objectHas: {
    params: ['o', 'f'],
    types: ['object', 'string'],
    fn: (_ev, [o, f]) => (o as ObjectValue).hasField(f as string, false),
  },
  objectHasAll: {
    params: ['o', 'f'],
    types: ['object', 'string'],
    fn: (_ev, [o, f]) => (o as ObjectValue).hasField(f as string, true),
  },
  objectValues: {
    params: ['o'],
    types: ['object'],
    fn: (ev, [o]) => new ArrayValue(fieldNames(o as ObjectValue, false).map((k) => lazyField(ev, o as ObjectValue, k))),
  },
  objectValuesAll: {
    params: ['o'],
    types: ['object'],
    fn: (ev, [o]) => new ArrayValue(fieldNames(o as ObjectValue, true).map((k) => lazyField(ev, o as ObjectValue, k))),
  },
  objectKeysValues: { params: ['o'], types: ['object'], fn: (ev, [o]) => keysValues(ev, o as ObjectValue, false) },
  objectKeysValuesAll: { params: ['o'], types: ['object'], fn: (ev, [o]) => keysValues(ev, o as ObjectValue, true) },
  get: {
    params: ['o', 'f', 'default', 'inc_hidden'],
    defaults: { default: () => null, inc_hidden: () => true },
    lazyFn: (ev, [oT, fT, dT, hT]) => {
      const o = ev.force(oT!);
      const f = ev.force(fT!);
      const h = ev.force(hT!);
      if (!(o instanceof ObjectValue)) throw ev.typeError(o, 'object');
      if (typeof f !== 'string') throw ev.typeError(f, 'string');
      if (typeof h !== 'boolean') throw ev.typeError(h, 'boolean');
      return o.hasField(f, h) ? ev.objectIndex(o, f) : ev.force(dT!);
    },
  },
  objectRemoveKey: {
    params: ['obj', 'key'],
    types: ['object', 'string'],
    fn: (ev, [o, k]) => {
      const obj = o as ObjectValue;
      const key = k as string;
      // One literal's object (all go-jsonnet handles): the same field
      // definitions minus `key`, still unbound, so `self` and `super` in them
      // mean the object the result becomes part of (`{a: 1} +
      // std.objectRemoveKey({b: super.a}, 'a')` has b = 1); visibility kept,
      // asserts dropped, as go-jsonnet.
      if (obj.layers.length === 1) {
        const l = obj.layers[0]!;
        const fields = new Map(l.fields);
        fields.delete(key);
        return new ObjectValue([new Layer(fields, l.literal, [], l.closure)]);
      }
      // A composed object (go-jsonnet fails on it): its fields as computed in
      // the original, so inheritance inside it still holds (C++ jsonnet's answer).
      const out: [string, Thunk][] = [];
      const hidden: [string, Thunk][] = [];
      for (const [name, visible] of obj.fieldVisibility()) {
        if (name === key) continue;
        (visible ? out : hidden).push([name, lazyField(ev, obj, name)]);
      }
      const a = ev.makeNativeObject(out);
      if (hidden.length === 0) return a;
      return new ObjectValue([...a.layers, ...ev.makeNativeObject(hidden, 'hidden').layers]);
    },
  },
  mapWithKey: {
    params: ['func', 'obj'],
    fn: (ev, [f, o]) => {
      if (!(f instanceof FuncValue)) throw ev.error(`std.mapWithKey first param must be function, got ${typeName(f!)}`);
      if (!(o instanceof ObjectValue))
        throw ev.error(`std.mapWithKey second param must be object, got ${typeName(o!)}`);
      return ev.makeNativeObject(
        fieldNames(o, false).map((k) => [
          k,
          Thunk.computed(() => ev.callThunks(f, [Thunk.ready(k), lazyField(ev, o, k)])),
        ]),
      );
    },
  },
  mergePatch: { params: ['target', 'patch'], fn: (ev, [t, p]) => mergePatch(ev, t!, p!) },
  prune: { params: ['a'], fn: (ev, [a]) => prune(ev, a!) },
};
