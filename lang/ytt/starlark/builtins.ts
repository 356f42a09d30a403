/**
 * Starlark's universe (len, range, sorted, ...) and the methods of strings,
 * lists and dicts; attribute access on structs and YAML fragments.
 */
import { YttError, type Where } from '../errors.js';
import { SFloat, YArray, YMap } from '../nodes.js';
import { SBuiltin, SDict, SList, SStruct, STuple, equal, repr, sType, str, truthy, type BuiltinFn } from './values.js';

type Caller = (fn: unknown, args: unknown[], kwargs: [string, unknown][]) => unknown;

export function iterate(v: unknown, where: Where): unknown[] {
  if (v instanceof SList || v instanceof STuple) return [...v.items];
  if (v instanceof SDict) return v.keys();
  if (v instanceof YArray) return v.items.map((i) => i.value);
  if (v instanceof YMap) return v.items.map((i) => i.key);
  if (typeof v === 'string') throw new YttError(where, 'string is not iterable (hint: use .elems())');
  throw new YttError(where, `${sType(v)} value is not iterable`);
}

export function len(v: unknown, where: Where): number {
  if (typeof v === 'string') return utf8Length(v);
  if (v instanceof SDict) return v.map.size;
  if (v instanceof SStruct) return v.fields.size;
  return iterate(v, where).length;
}

/** Starlark strings are byte strings: len() counts UTF-8 bytes */
function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

function kw(kwargs: [string, unknown][], name: string): unknown {
  return kwargs.find(([k]) => k === name)?.[1];
}

function need(args: unknown[], n: number, name: string, where: Where): void {
  if (args.length < n) throw new YttError(where, `${name}: missing argument`);
}

/** a bound on list sizes, so a runaway range() fails with an error instead of exhausting memory */
export const MAX_ELEMENTS = 10_000_000;

let caller: Caller = () => {
  throw new Error('no caller');
};
/** Calls a Starlark function from outside the evaluator (overlay matchers, validation rules). */
export function callStarlark(fn: unknown, args: unknown[], kwargs: [string, unknown][]): unknown {
  return caller(fn, args, kwargs);
}

/** The interpreter registers how builtins call back into Starlark (sorted(key=...), ...). */
export function setCaller(c: Caller): void {
  caller = c;
}

const B = new Map<string, SBuiltin>();
function def(name: string, fn: BuiltinFn): void {
  B.set(name, new SBuiltin(name, fn));
}

def('len', (a, _k, w) => {
  need(a, 1, 'len', w);
  return len(a[0], w);
});
def('str', (a) => str(a[0] ?? ''));
def('repr', (a) => repr(a[0]));
def('bool', (a) => truthy(a[0] ?? false));
def('int', (a, _k, w) => {
  const v = a[0] ?? 0;
  if (typeof v === 'number') return v;
  if (v instanceof SFloat) return Math.trunc(v.v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const base = typeof a[1] === 'number' ? a[1] : 10;
    const n = parseInt(v.trim(), base);
    if (Number.isNaN(n) || !/^[+-]?[0-9a-zA-Z_]+$/.test(v.trim()))
      throw new YttError(w, `int: invalid literal with base ${base}: ${v}`);
    return n;
  }
  throw new YttError(w, `int: cannot convert ${sType(v)} to int`);
});
def('float', (a, _k, w) => {
  const v = a[0] ?? 0;
  if (typeof v === 'number') return new SFloat(v);
  if (v instanceof SFloat) return v;
  if (typeof v === 'boolean') return new SFloat(v ? 1 : 0);
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return new SFloat(Number(v));
  throw new YttError(w, `float: invalid value ${repr(v)}`);
});
def('list', (a, _k, w) => new SList(a.length ? iterate(a[0], w) : []));
def('tuple', (a, _k, w) => new STuple(a.length ? iterate(a[0], w) : []));
def('dict', (a, k, w) => {
  const d = new SDict();
  if (a.length) {
    const src = a[0];
    if (src instanceof SDict) for (const [x, y] of src.entries()) d.set(x, y);
    else if (src instanceof YMap) for (const i of src.items) d.set(i.key, i.value);
    else
      for (const pair of iterate(src, w)) {
        const p = iterate(pair, w);
        d.set(p[0], p[1]);
      }
  }
  for (const [x, y] of k) d.set(x, y);
  return d;
});
def('range', (a, _k, w) => {
  const nums = a.map((x) => {
    if (typeof x !== 'number') throw new YttError(w, `range: got ${sType(x)}, want int`);
    return x;
  });
  if (nums.length < 1) throw new YttError(w, `range: got ${nums.length} arguments, want at least 1`);
  if (nums.length > 3) throw new YttError(w, `range: got ${nums.length} arguments, want at most 3`);
  const [a0, a1, a2 = 1] = nums as [number, ...number[]];
  const [start, stop, step] = a1 === undefined ? [0, a0, 1] : [a0, a1, a2];
  if (step === 0) throw new YttError(w, 'range: step argument must not be zero');
  if (Math.abs((stop - start) / step) > MAX_ELEMENTS)
    throw new YttError(w, `range: more than ${MAX_ELEMENTS} elements`);
  const out: number[] = [];
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
  return new SList(out);
});
def('enumerate', (a, _k, w) => new SList(iterate(a[0], w).map((x, i) => new STuple([i + ((a[1] as number) ?? 0), x]))));
def('zip', (a, _k, w) => {
  const seqs = a.map((x) => iterate(x, w));
  const n = seqs.length ? Math.min(...seqs.map((s) => s.length)) : 0;
  return new SList(Array.from({ length: n }, (_, i) => new STuple(seqs.map((s) => s[i]))));
});
def('set', (a, _k, w) => {
  const out: unknown[] = [];
  for (const x of a.length ? iterate(a[0], w) : []) if (!out.some((y) => equal(x, y))) out.push(x);
  return new SList(out);
});
def('reversed', (a, _k, w) => new SList(iterate(a[0], w).reverse()));
def('sorted', (a, k, w) => {
  const key = kw(k, 'key');
  const items = iterate(a[0], w).map((x) => [key && key !== null ? caller(key, [x], []) : x, x] as [unknown, unknown]);
  items.sort((x, y) => cmp(x[0], y[0], w));
  if (truthy(kw(k, 'reverse'))) items.reverse();
  return new SList(items.map((x) => x[1]));
});
function minmax(name: string, sign: number): void {
  def(name, (a, k, w) => {
    const items = a.length === 1 ? iterate(a[0], w) : a;
    if (!items.length) throw new YttError(w, `${name}: argument is an empty sequence`);
    const key = kw(k, 'key');
    let best = items[0];
    let bestK = key ? caller(key, [best], []) : best;
    for (const x of items.slice(1)) {
      const xk = key ? caller(key, [x], []) : x;
      if (cmp(xk, bestK, w) * sign > 0) {
        best = x;
        bestK = xk;
      }
    }
    return best;
  });
}
minmax('max', 1);
minmax('min', -1);
def('any', (a, _k, w) => iterate(a[0], w).some(truthy));
def('all', (a, _k, w) => iterate(a[0], w).every(truthy));
def('type', (a) => sType(a[0]));
def('hasattr', (a) => hasAttr(a[0], a[1] as string));
def('getattr', (a, _k, w) => {
  if (a.length > 2 && !hasAttr(a[0], a[1] as string)) return a[2];
  return getAttr(a[0], a[1] as string, w);
});
def('print', () => null);
def('fail', (a, _k, w) => {
  throw new YttError(w, `fail: ${a.map(str).join(' ')}`);
});
def('abs', (a) => (a[0] instanceof SFloat ? new SFloat(Math.abs(a[0].v)) : Math.abs(a[0] as number)));
def('hash', (a) => {
  let h = 0;
  for (const ch of str(a[0])) h = (Math.imul(31, h) + ch.charCodeAt(0)) | 0;
  return h;
});
def('dir', (a) => new SList(attrNames(a[0]).sort()));

export const BUILTINS: Map<string, unknown> = B;

function cmp(a: unknown, b: unknown, w: Where): number {
  const n = (v: unknown): number | undefined => (typeof v === 'number' ? v : v instanceof SFloat ? v.v : undefined);
  const x = n(a);
  const y = n(b);
  if (x !== undefined && y !== undefined) return x - y;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if ((a instanceof STuple || a instanceof SList) && (b instanceof STuple || b instanceof SList)) {
    for (let i = 0; i < Math.min(a.items.length, b.items.length); i++) {
      const c = cmp(a.items[i], b.items[i], w);
      if (c) return c;
    }
    return a.items.length - b.items.length;
  }
  throw new YttError(w, `${sType(a)} < ${sType(b)} not implemented`);
}

const STRING_METHODS = [
  'capitalize',
  'count',
  'elems',
  'endswith',
  'find',
  'format',
  'index',
  'isalnum',
  'isalpha',
  'isdigit',
  'islower',
  'isspace',
  'isupper',
  'join',
  'lower',
  'lstrip',
  'partition',
  'replace',
  'rfind',
  'rsplit',
  'rstrip',
  'split',
  'splitlines',
  'startswith',
  'strip',
  'title',
  'upper',
  'removeprefix',
  'removesuffix',
];
const LIST_METHODS = ['append', 'clear', 'extend', 'index', 'insert', 'pop', 'remove'];
const DICT_METHODS = ['clear', 'get', 'items', 'keys', 'pop', 'popitem', 'setdefault', 'update', 'values'];

function attrNames(v: unknown): string[] {
  if (typeof v === 'string') return STRING_METHODS;
  if (v instanceof SList) return LIST_METHODS;
  if (v instanceof SDict) return DICT_METHODS;
  if (v instanceof SStruct) return [...v.fields.keys()];
  if (v instanceof YMap) return v.items.map((i) => String(i.key));
  return [];
}
function hasAttr(v: unknown, name: string): boolean {
  return attrNames(v).includes(name);
}

export function getAttr(v: unknown, name: string, where: Where): unknown {
  if (v instanceof SStruct) {
    if (v.fields.has(name)) return v.fields.get(name);
    throw new YttError(where, `${v.typeName} has no .${name} field or method`);
  }
  if (v instanceof YMap) {
    const it = v.get(name);
    if (it) return it.value;
  }
  if (hasAttr(v, name)) return new SBuiltin(`${sType(v)}.${name}`, (a, k, w) => callMethod(v, name, a, k, w, caller));
  throw new YttError(where, `${sType(v)} has no .${name} field or method`);
}

/** Calls a method of a string, list or dict; undefined when `v` has no such method. */
export function callMethod(
  v: unknown,
  name: string,
  a: unknown[],
  k: [string, unknown][],
  w: Where,
  call: Caller,
): unknown {
  if (typeof v === 'string') return stringMethod(v, name, a, k, w);
  if (v instanceof SList) {
    const frozenCheck = (): void => {
      if (v.frozen) throw new YttError(w, `${name}: cannot modify frozen list`);
    };
    switch (name) {
      case 'append':
        frozenCheck();
        v.items.push(a[0]);
        return null;
      case 'extend':
        frozenCheck();
        v.items.push(...iterate(a[0], w));
        return null;
      case 'insert': {
        frozenCheck();
        let i = a[0] as number;
        if (i < 0) i += v.items.length;
        v.items.splice(Math.max(0, Math.min(i, v.items.length)), 0, a[1]);
        return null;
      }
      case 'pop': {
        frozenCheck();
        let i = a.length ? (a[0] as number) : v.items.length - 1;
        if (i < 0) i += v.items.length;
        if (i < 0 || i >= v.items.length) throw new YttError(w, 'pop: index out of range');
        return v.items.splice(i, 1)[0];
      }
      case 'remove': {
        frozenCheck();
        const i = v.items.findIndex((x) => equal(x, a[0]));
        if (i < 0) throw new YttError(w, `remove: element ${repr(a[0])} not found`);
        v.items.splice(i, 1);
        return null;
      }
      case 'index': {
        const i = v.items.findIndex((x) => equal(x, a[0]));
        if (i < 0) throw new YttError(w, `index: value ${repr(a[0])} not in list`);
        return i;
      }
      case 'clear':
        frozenCheck();
        v.items.length = 0;
        return null;
    }
    return undefined;
  }
  if (v instanceof SDict) {
    switch (name) {
      case 'get':
        return v.has(a[0]) ? v.get(a[0]) : (a[1] ?? null);
      case 'keys':
        return new SList(v.keys());
      case 'values':
        return new SList(v.entries().map((e) => e[1]));
      case 'items':
        return new SList(v.entries().map((e) => new STuple(e)));
      case 'update':
        if (v.frozen) throw new YttError(w, 'update: cannot insert into frozen hash table');
        if (a.length) {
          const src = a[0];
          if (src instanceof SDict) for (const [x, y] of src.entries()) v.set(x, y);
          else for (const pair of iterate(src, w)) v.set(...(iterate(pair, w) as [unknown, unknown]));
        }
        for (const [x, y] of k) v.set(x, y);
        return null;
      case 'pop': {
        if (v.has(a[0])) {
          const x = v.get(a[0]);
          v.delete(a[0]);
          return x;
        }
        if (a.length > 1) return a[1];
        throw new YttError(w, `pop: missing key ${repr(a[0])}`);
      }
      case 'setdefault':
        if (!v.has(a[0])) v.set(a[0], a[1] ?? null);
        return v.get(a[0]);
      case 'clear':
        v.map.clear();
        return null;
      case 'popitem': {
        const e = v.entries()[0];
        if (!e) throw new YttError(w, 'popitem: empty dict');
        v.delete(e[0]);
        return new STuple(e);
      }
    }
    return undefined;
  }
  if (v instanceof YMap && name === 'get') {
    const it = v.get(a[0] as never);
    return it ? it.value : (a[1] ?? null);
  }
  void call;
  return undefined;
}

function stringMethod(s: string, name: string, a: unknown[], k: [string, unknown][], w: Where): unknown {
  const chars = (x: unknown): string | undefined => (x === undefined || x === null ? undefined : (x as string));
  const trim = (t: string, set: string | undefined, left: boolean, right: boolean): string => {
    const isSet = (c: string): boolean => (set === undefined ? /\s/.test(c) : set.includes(c));
    let i = 0;
    let j = t.length;
    if (left) while (i < j && isSet(t.charAt(i))) i++;
    if (right) while (j > i && isSet(t.charAt(j - 1))) j--;
    return t.slice(i, j);
  };
  switch (name) {
    case 'upper':
      return s.toUpperCase();
    case 'lower':
      return s.toLowerCase();
    case 'title':
      return s.replace(/\w\S*/g, (t) => t.charAt(0).toUpperCase() + t.slice(1).toLowerCase());
    case 'capitalize':
      return s.length ? s.charAt(0).toUpperCase() + s.slice(1).toLowerCase() : s;
    case 'strip':
      return trim(s, chars(a[0]), true, true);
    case 'lstrip':
      return trim(s, chars(a[0]), true, false);
    case 'rstrip':
      return trim(s, chars(a[0]), false, true);
    case 'startswith':
    case 'endswith': {
      const pats = a[0] instanceof STuple ? (a[0].items as string[]) : [a[0] as string];
      return pats.some((p) => (name === 'startswith' ? s.startsWith(p) : s.endsWith(p)));
    }
    case 'removeprefix':
      return s.startsWith(a[0] as string) ? s.slice((a[0] as string).length) : s;
    case 'removesuffix':
      return (a[0] as string) && s.endsWith(a[0] as string) ? s.slice(0, s.length - (a[0] as string).length) : s;
    case 'replace': {
      const n = typeof a[2] === 'number' ? a[2] : -1;
      let out = '';
      let rest = s;
      let count = 0;
      const from = a[0] as string;
      const to = a[1] as string;
      if (from === '') return n < 0 ? s.split('').join(to) : s;
      for (;;) {
        const i = rest.indexOf(from);
        if (i < 0 || (n >= 0 && count >= n)) break;
        out += rest.slice(0, i) + to;
        rest = rest.slice(i + from.length);
        count++;
      }
      return out + rest;
    }
    case 'split':
    case 'rsplit': {
      const sep = chars(a[0]);
      const max = typeof a[1] === 'number' ? a[1] : -1;
      if (sep === undefined) {
        const parts = s
          .trim()
          .split(/\s+/)
          .filter((x) => x !== '');
        return new SList(parts);
      }
      if (sep === '') throw new YttError(w, `${name}: empty separator`);
      const parts = s.split(sep);
      if (max >= 0 && parts.length > max + 1) {
        if (name === 'split') return new SList([...parts.slice(0, max), parts.slice(max).join(sep)]);
        return new SList([parts.slice(0, parts.length - max).join(sep), ...parts.slice(parts.length - max)]);
      }
      return new SList(parts);
    }
    case 'splitlines':
      return new SList(s.split(/\r?\n/).filter((x, i, arr) => i < arr.length - 1 || x !== ''));
    case 'join':
      return iterate(a[0], w)
        .map((x) => {
          if (typeof x !== 'string') throw new YttError(w, `join: in list, want string, got ${sType(x)}`);
          return x;
        })
        .join(s);
    case 'find':
      return s.indexOf(a[0] as string);
    case 'rfind':
      return s.lastIndexOf(a[0] as string);
    case 'index': {
      const i = s.indexOf(a[0] as string);
      if (i < 0) throw new YttError(w, 'index: substring not found');
      return i;
    }
    case 'count':
      return (a[0] as string) === '' ? s.length + 1 : s.split(a[0] as string).length - 1;
    case 'isdigit':
      return /^[0-9]+$/.test(s);
    case 'isalpha':
      return /^[A-Za-z]+$/.test(s);
    case 'isalnum':
      return /^[A-Za-z0-9]+$/.test(s);
    case 'isspace':
      return /^\s+$/.test(s);
    case 'islower':
      return s.toLowerCase() === s && /[a-z]/.test(s);
    case 'isupper':
      return s.toUpperCase() === s && /[A-Z]/.test(s);
    case 'elems':
      return new SList([...s]);
    case 'partition': {
      const i = s.indexOf(a[0] as string);
      if (i < 0) return new STuple([s, '', '']);
      return new STuple([s.slice(0, i), a[0], s.slice(i + (a[0] as string).length)]);
    }
    case 'format': {
      let auto = 0;
      return s.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (m, field: string | undefined) => {
        if (m === '{{') return '{';
        if (m === '}}') return '}';
        const f = field ?? '';
        let v: unknown;
        if (f === '') v = a[auto++];
        else if (/^\d+$/.test(f)) v = a[Number(f)];
        else {
          const kv = k.find(([n]) => n === f);
          if (!kv) throw new YttError(w, `format: keyword ${f} not found`);
          v = kv[1];
        }
        if (v === undefined) throw new YttError(w, 'format: not enough arguments');
        return str(v);
      });
    }
  }
  return undefined;
}
