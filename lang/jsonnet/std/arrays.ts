/**
 * std array functions (https://jsonnet.org/ref/stdlib.html#arrays): map,
 * filter, folds, makeArray, range, join, sort and sets, ... Results keep
 * Jsonnet's laziness where go-jsonnet's do (map/makeArray elements are thunks
 * evaluated on demand); error texts follow go-jsonnet / std.jsonnet.
 */
import type { Evaluator } from '../evaluator.js';
import { ArrayValue, FuncValue, Thunk, type Value, toCodepoints, typeName } from '../value.js';
import { type BuiltinTable, intArg } from './builtin.js';
import { identityDefault } from './types.js';

export function arrayOf(values: readonly Value[]): ArrayValue {
  return new ArrayValue(values.map((v) => Thunk.ready(v)));
}

/** Elements of an array, or the characters of a string, as thunks. */
function indexable(ev: Evaluator, v: Value, what: string): Thunk[] {
  if (v instanceof ArrayValue) return v.elems;
  if (typeof v === 'string') return toCodepoints(v).map((c) => Thunk.ready(c));
  throw ev.error(what);
}

function fn(ev: Evaluator, v: Value, what: string): FuncValue {
  if (!(v instanceof FuncValue)) throw ev.error(`${what}, got ${typeName(v)}`);
  return v;
}

function forceAll(ev: Evaluator, a: ArrayValue): Value[] {
  return a.elems.map((t) => ev.force(t));
}

function sortValues(ev: Evaluator, arr: Value[], keyF: Value): Value[] {
  const keys = keyF instanceof FuncValue && keyF.builtinName === 'id' ? arr : arr.map((x) => ev.call(keyF, [x]));
  const idx = arr.map((_, i) => i);
  idx.sort((a, b) => ev.compare(keys[a]!, keys[b]!) || a - b);
  return idx.map((i) => arr[i]!);
}

function keyOf(ev: Evaluator, keyF: Value, x: Value): Value {
  return keyF instanceof FuncValue && keyF.builtinName === 'id' ? x : ev.call(keyF, [x]);
}

/**
 * Low estimates of the heap bytes of one element (measured on Node 20: a ready thunk with its
 * array slot ~64, a lazy makeArray element with its closure ~160, a shared slot 8), so a
 * refusal is never wrong: only what cannot fit is refused before it starts.
 */
const READY_ELEMENT_BYTES = 48;
const LAZY_ELEMENT_BYTES = 100;
const SLOT_BYTES = 8;

/** Bytes of a string of `length` UTF-16 units (one byte each if it is Latin-1, else two). */
function stringBytes(sample: string, length: number): number {
  return /^[\x00-\xff]*$/.test(sample) ? length : 2 * length;
}

export const arrayBuiltins: BuiltinTable = {
  makeArray: {
    params: ['sz', 'func'],
    fn: (ev, [szV, f]) => {
      const sz = intArg(ev, szV!);
      if (sz < 0) throw ev.error(`makeArray requires size >= 0, got ${sz}`);
      if (!(f instanceof FuncValue)) throw ev.typeError(f!, 'function');
      ev.checkAllocation(`std.makeArray(${sz}, ...)`, sz * LAZY_ELEMENT_BYTES);
      const out = new Array<Thunk>(sz);
      for (let i = 0; i < sz; i++) {
        if ((i & 0xffff) === 0xffff) ev.poll();
        // go-jsonnet evaluates each element as a location-less node, so the
        // trace (also of a stack overflow) shows it as an empty frame.
        out[i] = Thunk.computed(() => {
          ev.cur = '';
          return ev.call(f, [i]);
        });
      }
      return new ArrayValue(out);
    },
  },
  map: {
    params: ['func', 'arr'],
    fn: (ev, [f, arr]) => {
      const func = fn(ev, f!, 'std.map first param must be function');
      if (!(arr instanceof ArrayValue) && typeof arr !== 'string') {
        throw ev.error(`std.map second param must be array / string, got ${typeName(arr!)}`);
      }
      const els = indexable(ev, arr, '');
      return new ArrayValue(els.map((t) => Thunk.computed(() => ev.callThunks(func, [t]))));
    },
  },
  mapWithIndex: {
    params: ['func', 'arr'],
    fn: (ev, [f, arr]) => {
      const func = fn(ev, f!, 'std.mapWithIndex first param must be function');
      if (!(arr instanceof ArrayValue) && typeof arr !== 'string') {
        throw ev.error(`std.mapWithIndex second param must be array, got ${typeName(arr!)}`);
      }
      const els = indexable(ev, arr, '');
      return new ArrayValue(els.map((t, i) => Thunk.computed(() => ev.callThunks(func, [Thunk.ready(i), t]))));
    },
  },
  filter: {
    params: ['func', 'arr'],
    fn: (ev, [f, arr]) => {
      // go-jsonnet checks the array before the function.
      if (!(arr instanceof ArrayValue)) throw ev.typeError(arr!, 'array');
      if (!(f instanceof FuncValue)) throw ev.typeError(f!, 'function');
      const out: Thunk[] = [];
      for (const t of arr.elems) {
        const keep = ev.callThunks(f, [t]);
        if (typeof keep !== 'boolean') throw ev.typeError(keep, 'boolean');
        if (keep) out.push(t);
      }
      return new ArrayValue(out);
    },
  },
  filterMap: {
    params: ['filter_func', 'map_func', 'arr'],
    fn: (ev, [ff, mf, arr]) => {
      const filterF = fn(ev, ff!, 'std.filterMap first param must be function');
      const mapF = fn(ev, mf!, 'std.filterMap second param must be function');
      if (!(arr instanceof ArrayValue))
        throw ev.error(`std.filterMap third param must be array, got ${typeName(arr!)}`);
      const out: Thunk[] = [];
      for (const t of arr.elems) {
        const keep = ev.callThunks(filterF, [t]);
        if (typeof keep !== 'boolean') throw ev.typeError(keep, 'boolean');
        if (keep) out.push(Thunk.computed(() => ev.callThunks(mapF, [t])));
      }
      return new ArrayValue(out);
    },
  },
  flatMap: {
    params: ['func', 'arr'],
    fn: (ev, [f, arr]) => {
      const func = fn(ev, f!, 'std.flatMap first param must be function');
      if (arr instanceof ArrayValue) {
        const out: Thunk[] = [];
        for (const t of arr.elems) {
          const r = ev.callThunks(func, [t]);
          if (!(r instanceof ArrayValue)) throw ev.typeError(r, 'array');
          for (const e of r.elems) out.push(e);
        }
        return new ArrayValue(out);
      }
      if (typeof arr === 'string') {
        let s = '';
        for (const c of toCodepoints(arr)) {
          const r = ev.call(func, [c]);
          if (typeof r !== 'string') throw ev.typeError(r, 'string');
          s += r;
        }
        return s;
      }
      throw ev.error(`std.flatMap second param must be array / string, got ${typeName(arr!)}`);
    },
  },
  foldl: {
    params: ['func', 'arr', 'init'],
    fn: (ev, [f, arr, init]) => {
      if (!(f instanceof FuncValue)) throw ev.typeError(f!, 'function');
      let acc = init as Value;
      if (typeof arr === 'string') {
        for (const c of toCodepoints(arr)) acc = ev.call(f, [acc, c]);
        return acc;
      }
      if (!(arr instanceof ArrayValue)) throw ev.typeError(arr!, 'array');
      for (const t of arr.elems) acc = ev.callThunks(f, [Thunk.ready(acc), t]);
      return acc;
    },
  },
  foldr: {
    params: ['func', 'arr', 'init'],
    fn: (ev, [f, arr, init]) => {
      if (!(f instanceof FuncValue)) throw ev.typeError(f!, 'function');
      let acc = init as Value;
      if (typeof arr === 'string') {
        const cs = toCodepoints(arr);
        for (let i = cs.length - 1; i >= 0; i--) acc = ev.call(f, [cs[i]!, acc]);
        return acc;
      }
      if (!(arr instanceof ArrayValue)) throw ev.typeError(arr!, 'array');
      for (let i = arr.elems.length - 1; i >= 0; i--) acc = ev.callThunks(f, [arr.elems[i]!, Thunk.ready(acc)]);
      return acc;
    },
  },
  range: {
    params: ['from', 'to'],
    fn: (ev, [a, b]) => {
      const from = intArg(ev, a!);
      const to = intArg(ev, b!);
      const n = Math.max(0, to - from + 1);
      ev.checkAllocation(`std.range(${from}, ${to}) (${n} elements)`, n * READY_ELEMENT_BYTES);
      const out = new Array<Thunk>(n);
      for (let i = 0; i < n; i++) {
        if ((i & 0xffff) === 0xffff) ev.poll();
        out[i] = Thunk.ready(from + i);
      }
      return new ArrayValue(out);
    },
  },
  join: {
    params: ['sep', 'arr'],
    fn: (ev, [sep, arr]) => {
      if (!(arr instanceof ArrayValue)) throw ev.error(`join second parameter should be array, got ${typeName(arr!)}`);
      if (typeof sep === 'string') {
        const parts: string[] = [];
        arr.elems.forEach((t) => {
          const v = ev.force(t);
          if (v === null) return;
          if (typeof v !== 'string') throw ev.typeError(v, 'string');
          parts.push(v);
        });
        let length = sep.length * Math.max(0, parts.length - 1);
        for (const p of parts) length += p.length;
        ev.checkAllocation(`std.join of ${parts.length} strings (${length} characters)`, stringBytes(sep, length));
        return parts.join(sep);
      }
      if (sep instanceof ArrayValue) {
        const out: Thunk[] = [];
        let first = true;
        arr.elems.forEach((t) => {
          const v = ev.force(t);
          if (v === null) return;
          if (!(v instanceof ArrayValue)) throw ev.typeError(v, 'array');
          ev.checkAllocation(
            `std.join of arrays (${out.length + v.elems.length + sep.elems.length} elements so far)`,
            (out.length + v.elems.length + sep.elems.length) * SLOT_BYTES,
          );
          if (!first) out.push(...sep.elems);
          out.push(...v.elems);
          first = false;
        });
        return new ArrayValue(out);
      }
      throw ev.error(`join first parameter should be string or array, got ${typeName(sep!)}`);
    },
  },
  repeat: {
    params: ['what', 'count'],
    fn: (ev, [what, c]) => {
      const count = intArg(ev, c!);
      if (count < 0) throw ev.error(`makeArray requires size >= 0, got ${count}`);
      if (typeof what === 'string') {
        ev.checkAllocation(
          `std.repeat of a ${what.length}-character string ${count} times`,
          stringBytes(what, what.length * count),
        );
        return what.repeat(count);
      }
      if (what instanceof ArrayValue) {
        ev.checkAllocation(
          `std.repeat of a ${what.elems.length}-element array ${count} times`,
          what.elems.length * count * SLOT_BYTES,
        );
        const out: Thunk[] = [];
        for (let i = 0; i < count; i++) {
          if ((i & 0xffff) === 0xffff) ev.poll();
          for (const t of what.elems) out.push(t);
        }
        return new ArrayValue(out);
      }
      throw ev.error('std.repeat first argument must be an array or a string');
    },
  },
  reverse: {
    params: ['arr'],
    types: ['array'],
    fn: (_ev, [arr]) => new ArrayValue((arr as ArrayValue).elems.slice().reverse()),
  },
  slice: {
    params: ['indexable', 'index', 'end', 'step'],
    fn: (ev, [x, b, e, s]) => ev.slice(x!, b!, e!, s!),
  },
  member: {
    params: ['arr', 'x'],
    fn: (ev, [arr, x]) => {
      if (arr instanceof ArrayValue) return arr.elems.some((t) => ev.equals(ev.force(t), x!));
      if (typeof arr === 'string') {
        if (typeof x !== 'string') throw ev.error(`findSubstr first parameter should be a string, got ${typeName(x!)}`);
        return x.length > 0 && arr.includes(x);
      }
      throw ev.error('std.member first argument must be an array or a string');
    },
  },
  count: {
    params: ['arr', 'x'],
    types: ['array', 'any'],
    fn: (ev, [arr, x]) => (arr as ArrayValue).elems.filter((t) => ev.equals(ev.force(t), x!)).length,
  },
  find: {
    params: ['value', 'arr'],
    fn: (ev, [v, arr]) => {
      if (!(arr instanceof ArrayValue))
        throw ev.error(`find second parameter should be an array, got ${typeName(arr!)}`);
      const out: Value[] = [];
      arr.elems.forEach((t, i) => {
        if (ev.equals(ev.force(t), v!)) out.push(i);
      });
      return arrayOf(out);
    },
  },
  contains: {
    params: ['arr', 'elem'],
    types: ['array', 'any'],
    fn: (ev, [arr, x]) => (arr as ArrayValue).elems.some((t) => ev.equals(ev.force(t), x!)),
  },
  remove: {
    params: ['arr', 'elem'],
    types: ['array', 'any'],
    fn: (ev, [arr, x]) => {
      const els = (arr as ArrayValue).elems;
      const i = els.findIndex((t) => ev.equals(ev.force(t), x!));
      return i < 0 ? arr! : new ArrayValue([...els.slice(0, i), ...els.slice(i + 1)]);
    },
  },
  removeAt: {
    params: ['arr', 'at'],
    types: ['array', 'number'],
    fn: (_ev, [arr, at]) => new ArrayValue((arr as ArrayValue).elems.filter((_, i) => i !== at)),
  },
  any: {
    params: ['arr'],
    fn: (ev, [arr]) => {
      if (!(arr instanceof ArrayValue)) throw ev.error(`any() parameter should be an array, got ${typeName(arr!)}`);
      for (const t of arr.elems) {
        const e = ev.force(t);
        if (typeof e !== 'boolean')
          throw ev.error(`element "${ev.toStringValue(e)}" of type ${typeName(e)} is not a boolean`);
        if (e) return true;
      }
      return false;
    },
  },
  all: {
    params: ['arr'],
    fn: (ev, [arr]) => {
      if (!(arr instanceof ArrayValue)) throw ev.error(`all() parameter should be an array, got ${typeName(arr!)}`);
      for (const t of arr.elems) {
        const e = ev.force(t);
        if (typeof e !== 'boolean')
          throw ev.error(`element "${ev.toStringValue(e)}" of type ${typeName(e)} is not a boolean`);
        if (!e) return false;
      }
      return true;
    },
  },
  sum: {
    params: ['arr'],
    types: ['array'],
    fn: (ev, [arr]) => {
      let s = 0;
      for (const t of (arr as ArrayValue).elems) s += ev.num(ev.force(t));
      return ev.checkNum(s);
    },
  },
  avg: {
    params: ['arr'],
    types: ['array'],
    fn: (ev, [arr]) => {
      const els = (arr as ArrayValue).elems;
      if (els.length === 0) throw ev.error('Cannot calculate average of an empty array.');
      let s = 0;
      for (const t of els) s += ev.num(ev.force(t));
      return ev.checkNum(s / els.length);
    },
  },
  minArray: minMax('min'),
  maxArray: minMax('max'),
  sort: {
    params: ['arr', 'keyF'],
    defaults: { keyF: identityDefault },
    types: ['array', 'function'],
    fn: (ev, [arr, keyF]) => arrayOf(sortValues(ev, forceAll(ev, arr as ArrayValue), keyF!)),
  },
  uniq: {
    params: ['arr', 'keyF'],
    defaults: { keyF: identityDefault },
    types: ['array', 'function'],
    fn: (ev, [arr, keyF]) => arrayOf(uniq(ev, forceAll(ev, arr as ArrayValue), keyF!)),
  },
  set: {
    params: ['arr', 'keyF'],
    defaults: { keyF: identityDefault },
    types: ['array', 'function'],
    fn: (ev, [arr, keyF]) => arrayOf(uniq(ev, sortValues(ev, forceAll(ev, arr as ArrayValue), keyF!), keyF!)),
  },
  setMember: {
    params: ['x', 'arr', 'keyF'],
    defaults: { keyF: identityDefault },
    types: ['any', 'array', 'function'],
    fn: (ev, [x, arr, keyF]) => {
      const els = (arr as ArrayValue).elems;
      const k = keyOf(ev, keyF!, x!);
      let lo = 0;
      let hi = els.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const c = ev.compare(keyOf(ev, keyF!, ev.force(els[mid]!)), k);
        if (c === 0) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return false;
    },
  },
  setUnion: setOp('union'),
  setInter: setOp('inter'),
  setDiff: setOp('diff'),
  flattenArrays: {
    params: ['arrs'],
    types: ['array'],
    fn: (ev, [arrs]) => {
      const out: Thunk[] = [];
      for (const t of (arrs as ArrayValue).elems) {
        const a = ev.force(t);
        if (a === null) continue;
        if (!(a instanceof ArrayValue)) throw ev.typeError(a, 'array');
        out.push(...a.elems);
      }
      return new ArrayValue(out);
    },
  },
  flattenDeepArray: {
    params: ['value'],
    fn: (ev, [v]) => {
      const out: Thunk[] = [];
      const walk = (x: Value): void => {
        if (x instanceof ArrayValue) for (const t of x.elems) walk(ev.force(t));
        else out.push(Thunk.ready(x));
      };
      walk(v!);
      return new ArrayValue(out);
    },
  },
};

function uniq(ev: Evaluator, arr: Value[], keyF: Value): Value[] {
  const out: Value[] = [];
  let lastKey: Value | undefined;
  for (const x of arr) {
    const k = keyOf(ev, keyF, x);
    if (out.length === 0 || !ev.equals(lastKey!, k)) out.push(x);
    lastKey = k;
  }
  return out;
}

function minMax(which: 'min' | 'max'): BuiltinTable[string] {
  return {
    params: ['arr', 'keyF', 'onEmpty'],
    defaults: {
      keyF: identityDefault,
      onEmpty: (ev) => {
        throw ev.error('Expected at least one element in array. Got none');
      },
    },
    lazyFn: (ev, [arrT, keyT, emptyT]) => {
      const arr = ev.force(arrT!);
      if (!(arr instanceof ArrayValue)) throw ev.typeError(arr, 'array');
      if (arr.elems.length === 0) return ev.force(emptyT!);
      const keyF = ev.force(keyT!);
      let best = ev.force(arr.elems[0]!);
      let bestKey = keyOf(ev, keyF, best);
      for (let i = 1; i < arr.elems.length; i++) {
        const x = ev.force(arr.elems[i]!);
        const k = keyOf(ev, keyF, x);
        const c = ev.compare(k, bestKey);
        if (which === 'min' ? c < 0 : c > 0) {
          best = x;
          bestKey = k;
        }
      }
      return best;
    },
  };
}

/** Set operands: arrays, or strings as arrays of characters (std.jsonnet only indexes them). */
function setOperand(ev: Evaluator, v: Value): Value[] {
  if (typeof v === 'string') return toCodepoints(v);
  if (!(v instanceof ArrayValue)) throw ev.typeError(v, 'array');
  return forceAll(ev, v);
}

function setOp(op: 'union' | 'inter' | 'diff'): BuiltinTable[string] {
  return {
    params: ['a', 'b', 'keyF'],
    defaults: { keyF: identityDefault },
    types: ['any', 'any', 'function'],
    fn: (ev, [aV, bV, keyF]) => {
      const a = setOperand(ev, aV as Value);
      const b = setOperand(ev, bV as Value);
      const out: Value[] = [];
      let i = 0;
      let j = 0;
      while (i < a.length && j < b.length) {
        const ak = keyOf(ev, keyF!, a[i]!);
        const bk = keyOf(ev, keyF!, b[j]!);
        const c = ev.equals(ak, bk) ? 0 : ev.compare(ak, bk);
        if (c === 0) {
          if (op !== 'diff') out.push(a[i]!);
          i++;
          j++;
        } else if (c < 0) {
          if (op !== 'inter') out.push(a[i]!);
          i++;
        } else {
          if (op === 'union') out.push(b[j]!);
          j++;
        }
      }
      if (op !== 'inter') while (i < a.length) out.push(a[i++]!);
      if (op === 'union') while (j < b.length) out.push(b[j++]!);
      return arrayOf(out);
    },
  };
}
