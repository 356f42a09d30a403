/** KCL's built-in functions and string methods used by the subset (docs/kcl.md lists them). */
import type { Evaluator } from './evaluator.js';
import { CallError } from './errors.js';
import type { FileUnit } from './evaluator.js';
import type { Loc } from './ast.js';
import { toStr } from './text.js';
import {
  KDict,
  KFloat,
  KFunc,
  UNDEFINED,
  numeric,
  truthy,
  typeName,
  valuesEqual,
  type CallArgs,
  type Value,
} from './value.js';

type Impl = (a: CallArgs) => Value;

function arg(a: CallArgs, i: number, name: string, fn: string): Value {
  if (i < a.args.length) return a.args[i]!;
  if (a.kwargs.has(name)) return a.kwargs.get(name)!;
  throw new CallError('TypeError', `${fn}() missing required argument '${name}'`);
}

function opt(a: CallArgs, i: number, name: string, dflt: Value): Value {
  if (i < a.args.length) return a.args[i]!;
  if (a.kwargs.has(name)) return a.kwargs.get(name)!;
  return dflt;
}

function items(v: Value, fn: string): Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof KDict) return [...v.map.keys()];
  if (typeof v === 'string') return [...v];
  throw new CallError('TypeError', `${fn}() expects a list, dict or str, got ${typeName(v)}`);
}

export function makeBuiltins(ev: Evaluator): Map<string, Value> {
  const fns: Record<string, Impl> = {
    len: (a) => {
      const v = arg(a, 0, 'x', 'len');
      if (typeof v === 'string') return [...v].length;
      if (Array.isArray(v)) return v.length;
      if (v instanceof KDict) return [...v.map.values()].filter((x) => x !== UNDEFINED).length;
      throw new CallError('TypeError', `object of type '${typeName(v)}' has no len()`);
    },
    str: (a) => (a.args.length === 0 ? '' : toStr(a.args[0]!)),
    int: (a) => {
      const v = opt(a, 0, 'x', 0);
      if (typeof v === 'number') return v;
      if (v instanceof KFloat) return Math.trunc(v.v);
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (typeof v === 'string') {
        const base = opt(a, 1, 'base', 10) as number;
        const t = v.trim().replace(/_/g, '');
        const n = base === 10 ? (/^[+-]?\d+$/.test(t) ? Number(t) : NaN) : parseInt(t, base);
        if (Number.isNaN(n))
          throw new CallError('EvaluationError', `invalid literal for int() with base ${base}: '${v}'`);
        return n;
      }
      throw new CallError('TypeError', `int() argument must be a string or a number, not '${typeName(v)}'`);
    },
    float: (a) => {
      const v = opt(a, 0, 'x', 0);
      const n = typeof v === 'string' ? Number(v.trim()) : numeric(v);
      if (n === undefined || Number.isNaN(n))
        throw new CallError('EvaluationError', `could not convert ${typeName(v)} to float: ${toStr(v)}`);
      return new KFloat(n);
    },
    bool: (a) => truthy(opt(a, 0, 'x', false)),
    list: (a) => (a.args.length === 0 ? [] : [...items(a.args[0]!, 'list')]),
    dict: (a) => {
      const out = new KDict();
      const v = opt(a, 0, 'x', null);
      if (v instanceof KDict) for (const [k, x] of v.map) out.map.set(k, x);
      for (const [k, x] of a.kwargs) out.map.set(k, x);
      return out;
    },
    sorted: (a) => {
      const v = items(arg(a, 0, 'x', 'sorted'), 'sorted');
      const out = [...v].sort((x, y) => ev.order(x, y));
      return truthy(opt(a, 1, 'reverse', false)) ? out.reverse() : out;
    },
    typeof: (a) => {
      const v = arg(a, 0, 'x', 'typeof');
      if (v === null) return 'None';
      if (v === UNDEFINED) return 'Undefined';
      if (v instanceof KDict && v.schema)
        return truthy(opt(a, 1, 'full_name', false)) ? `${v.schema.pkgPath}.${v.schema.name}` : v.schema.name;
      return typeName(v);
    },
    isunique: (a) => {
      const v = arg(a, 0, 'x', 'isunique');
      if (!Array.isArray(v)) throw new CallError('TypeError', `isunique() expects a list, got ${typeName(v)}`);
      return v.every((x, i) => v.findIndex((y) => valuesEqual(x, y)) === i);
    },
    any_true: (a) => items(arg(a, 0, 'x', 'any_true'), 'any_true').some(truthy),
    all_true: (a) => items(arg(a, 0, 'x', 'all_true'), 'all_true').every(truthy),
    sum: (a) => {
      let acc: Value = opt(a, 1, 'start', 0);
      for (const x of items(arg(a, 0, 'x', 'sum'), 'sum'))
        acc = ev.binary('+', acc, x, undefined as unknown as FileUnit, { line: 0, col: 0 });
      return acc;
    },
    max: (a) => extreme(ev, a, 1, 'max'),
    min: (a) => extreme(ev, a, -1, 'min'),
    abs: (a) => {
      const v = arg(a, 0, 'x', 'abs');
      if (typeof v === 'number') return Math.abs(v);
      if (v instanceof KFloat) return new KFloat(Math.abs(v.v));
      throw new CallError('TypeError', `bad operand type for abs(): '${typeName(v)}'`);
    },
    round: (a) => {
      const v = numeric(arg(a, 0, 'number', 'round'));
      if (v === undefined) throw new CallError('TypeError', 'round() expects a number');
      const nd = opt(a, 1, 'ndigits', null);
      if (nd === null) return Math.round(v);
      const f = 10 ** (nd as number);
      return new KFloat(Math.round(v * f) / f);
    },
    range: (a) => {
      const nums = a.args.map((x) => {
        if (typeof x !== 'number')
          throw new CallError('TypeError', `range() expects int arguments, got ${typeName(x)}`);
        return x;
      });
      const [start, stop, step] = nums.length === 1 ? [0, nums[0]!, 1] : [nums[0]!, nums[1]!, nums[2] ?? 1];
      if (step === 0) throw new CallError('EvaluationError', 'range() step must not be zero');
      const out: Value[] = [];
      for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
      return out;
    },
    zip: (a) => {
      const lists = a.args.map((x) => items(x, 'zip'));
      const n = Math.min(...lists.map((l) => l.length));
      return Array.from({ length: lists.length ? n : 0 }, (_, i) => lists.map((l) => l[i]!));
    },
    ord: (a) => {
      const v = arg(a, 0, 'c', 'ord');
      if (typeof v !== 'string' || [...v].length !== 1) throw new CallError('TypeError', 'ord() expects a character');
      return v.codePointAt(0)!;
    },
    chr: (a) => String.fromCodePoint(arg(a, 0, 'i', 'chr') as number),
    multiplyof: (a) => {
      const x = arg(a, 0, 'a', 'multiplyof') as number;
      const y = arg(a, 1, 'b', 'multiplyof') as number;
      return y !== 0 && x % y === 0;
    },
    isnullish: (a) => {
      const v = arg(a, 0, 'x', 'isnullish');
      return v === null || v === UNDEFINED;
    },
    print: (a) => {
      const sep = opt({ args: [], kwargs: a.kwargs }, 0, 'sep', ' ') as string;
      const end = opt({ args: [], kwargs: a.kwargs }, 0, 'end', '\n') as string;
      ev.printed.push(a.args.map(toStr).join(sep) + end);
      return null;
    },
    option: (a) => {
      const key = arg(a, 0, 'key', 'option');
      if (typeof key !== 'string') throw new CallError('TypeError', 'option() key must be str');
      const required = truthy(opt({ args: [], kwargs: a.kwargs }, 0, 'required', false));
      if (ev.options.has(key)) {
        const v = ev.options.get(key)!;
        const type = a.kwargs.get('type');
        return type === 'str' && typeof v !== 'string'
          ? toStr(v)
          : type === 'float' && typeof v === 'number'
            ? new KFloat(v)
            : v;
      }
      if (required)
        throw new CallError('EvaluationError', `option('${key}') must be initialized, try '-D ${key}=?' argument`);
      return a.kwargs.has('default') ? a.kwargs.get('default')! : null;
    },
  };
  const out = new Map<string, Value>();
  for (const [name, impl] of Object.entries(fns)) out.set(name, new KFunc(name, impl));
  return out;
}

function extreme(ev: Evaluator, a: CallArgs, sign: number, fn: string): Value {
  const list = a.args.length === 1 ? items(a.args[0]!, fn) : [...a.args];
  if (list.length === 0) throw new CallError('EvaluationError', `${fn}() arg is an empty sequence`);
  return list.reduce((best, x) => (ev.order(x, best) * sign > 0 ? x : best));
}

/** Methods of str values (`"a".upper()`). */
export function callMethod(ev: Evaluator, s: string, name: string, a: CallArgs, file: FileUnit, loc: Loc): Value {
  void ev;
  void file;
  void loc;
  const str = (i: number, n: string): string => {
    const v = arg(a, i, n, name);
    if (typeof v !== 'string') throw new CallError('TypeError', `${name}() argument must be str, got ${typeName(v)}`);
    return v;
  };
  const chars = (i: number): string | undefined => {
    const v = opt(a, i, 'chars', null);
    return v === null ? undefined : (v as string);
  };
  const stripSet = (set: string | undefined, c: string): boolean =>
    set === undefined ? /\s/.test(c) : set.includes(c);
  switch (name) {
    case 'upper':
      return s.toUpperCase();
    case 'lower':
      return s.toLowerCase();
    case 'capitalize':
      return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
    case 'title':
      return s.replace(/[A-Za-z]+/g, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
    case 'startswith':
      return s.startsWith(str(0, 'val'));
    case 'endswith':
      return s.endsWith(str(0, 'val'));
    case 'replace': {
      const from = str(0, 'old');
      const to = str(1, 'new');
      const count = opt(a, 2, 'count', -1) as number;
      if (count < 0) return s.split(from).join(to);
      let out = s;
      let idx = 0;
      for (let i = 0; i < count; i++) {
        const j = out.indexOf(from, idx);
        if (j < 0) break;
        out = out.slice(0, j) + to + out.slice(j + from.length);
        idx = j + to.length;
      }
      return out;
    }
    case 'split': {
      const sep = opt(a, 0, 'sep', null);
      const max = opt(a, 1, 'maxsplit', -1) as number;
      if (sep === null) return s.trim() === '' ? [] : s.trim().split(/\s+/);
      const parts = s.split(sep as string);
      if (max < 0 || parts.length <= max + 1) return parts;
      return [...parts.slice(0, max), parts.slice(max).join(sep as string)];
    }
    case 'join': {
      const list = arg(a, 0, 'iter', 'join');
      if (!Array.isArray(list)) throw new CallError('TypeError', `join() expects a list, got ${typeName(list)}`);
      return list
        .map((x) => {
          if (typeof x !== 'string') throw new CallError('TypeError', `join() items must be str, got ${typeName(x)}`);
          return x;
        })
        .join(s);
    }
    case 'strip':
    case 'lstrip':
    case 'rstrip': {
      const set = chars(0);
      let i = 0;
      let j = s.length;
      if (name !== 'rstrip') while (i < j && stripSet(set, s[i]!)) i++;
      if (name !== 'lstrip') while (j > i && stripSet(set, s[j - 1]!)) j--;
      return s.slice(i, j);
    }
    case 'removeprefix': {
      const p = str(0, 'prefix');
      return s.startsWith(p) ? s.slice(p.length) : s;
    }
    case 'removesuffix': {
      const p = str(0, 'suffix');
      return p && s.endsWith(p) ? s.slice(0, -p.length) : s;
    }
    case 'count':
      return s.split(str(0, 'sub')).length - 1;
    case 'find':
      return s.indexOf(str(0, 'sub'));
    case 'rfind':
      return s.lastIndexOf(str(0, 'sub'));
    case 'index':
    case 'rindex': {
      // find / rfind that fail instead of giving -1 (Python's, as kcl's)
      const sub = str(0, 'sub');
      const i = name === 'index' ? s.indexOf(sub) : s.lastIndexOf(sub);
      if (i < 0) throw new CallError('EvaluationError', 'substring not found');
      return i;
    }
    case 'isdigit':
      return /^\d+$/.test(s);
    case 'isalpha':
      return /^[A-Za-z]+$/.test(s);
    case 'isalnum':
      return /^[A-Za-z0-9]+$/.test(s);
    case 'islower':
      return /[a-z]/.test(s) && s === s.toLowerCase();
    case 'isupper':
      return /[A-Z]/.test(s) && s === s.toUpperCase();
    case 'isspace':
      return /^\s+$/.test(s);
    case 'format': {
      let auto = 0;
      return s.replace(/\{([^{}]*)\}/g, (_, key: string) => {
        const v = key === '' ? a.args[auto++] : /^\d+$/.test(key) ? a.args[Number(key)] : a.kwargs.get(key);
        if (v === undefined) throw new CallError('EvaluationError', `format(): no argument for {${key}}`);
        return toStr(v);
      });
    }
  }
  throw new CallError('AttributeError', `'str' object has no attribute '${name}'`);
}
