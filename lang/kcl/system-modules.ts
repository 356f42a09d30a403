/** The system modules of the subset: `regex` (on the RE2 engine), `json`, `yaml`, `base64`. */
import { compileGoRegexp, goFindAll, goReplaceAllString, goSplit } from '../go/regexp/go-regexp.js';
import { CallError } from './errors.js';
import { encodeJson, encodeYaml } from './printer.js';
import { KFloat, KFunc, KModule, numeric, truthy, typeName, type CallArgs, type Value } from './value.js';

function strArg(a: CallArgs, i: number, name: string, fn: string): string {
  const v = i < a.args.length ? a.args[i] : a.kwargs.get(name);
  if (typeof v !== 'string')
    throw new CallError(
      'TypeError',
      `${fn}() argument '${name}' must be str, got ${v === undefined ? 'nothing' : typeName(v)}`,
    );
  return v;
}

function compile(pattern: string, fn: string): ReturnType<typeof compileGoRegexp> {
  try {
    return compileGoRegexp(pattern);
  } catch (err) {
    throw new CallError(
      'EvaluationError',
      `${fn}(): invalid regular expression '${pattern}': ${(err as Error).message}`,
    );
  }
}

function module(name: string, fns: Record<string, (a: CallArgs) => Value>): KModule {
  const table = new Map(Object.entries(fns).map(([k, f]) => [k, new KFunc(`${name}.${k}`, f)]));
  return new KModule(name, (attr) => table.get(attr));
}

function num(a: CallArgs, i: number, fn: string): number {
  const v = a.args[i];
  const n = v === undefined ? undefined : numeric(v);
  if (n === undefined || typeof v === 'boolean')
    throw new CallError('TypeError', `math.${fn}() expects a number, got ${v === undefined ? 'nothing' : typeName(v)}`);
  return n;
}

const float = (x: number): Value => new KFloat(x);

const MODULES: Record<string, () => KModule> = {
  math: () =>
    module('math', {
      ceil: (a) => Math.ceil(num(a, 0, 'ceil')),
      floor: (a) => Math.floor(num(a, 0, 'floor')),
      factorial: (a) => {
        let r = 1;
        for (let i = 2; i <= num(a, 0, 'factorial'); i++) r *= i;
        return r;
      },
      gcd: (a) => {
        let x = Math.abs(num(a, 0, 'gcd'));
        let y = Math.abs(num(a, 1, 'gcd'));
        while (y) [x, y] = [y, x % y];
        return x;
      },
      isfinite: (a) => Number.isFinite(num(a, 0, 'isfinite')),
      isinf: (a) => Math.abs(num(a, 0, 'isinf')) === Infinity,
      isnan: (a) => Number.isNaN(num(a, 0, 'isnan')),
      exp: (a) => float(Math.exp(num(a, 0, 'exp'))),
      expm1: (a) => float(Math.expm1(num(a, 0, 'expm1'))),
      log: (a) =>
        float(a.args.length > 1 ? Math.log(num(a, 0, 'log')) / Math.log(num(a, 1, 'log')) : Math.log(num(a, 0, 'log'))),
      log1p: (a) => float(Math.log1p(num(a, 0, 'log1p'))),
      log2: (a) => float(Math.log2(num(a, 0, 'log2'))),
      log10: (a) => float(Math.log10(num(a, 0, 'log10'))),
      pow: (a) => float(num(a, 0, 'pow') ** num(a, 1, 'pow')),
      sqrt: (a) => float(Math.sqrt(num(a, 0, 'sqrt'))),
    }),
  regex: () =>
    module('regex', {
      match: (a) => compile(`^(?:${strArg(a, 1, 'pattern', 'match')})`, 'match').test(strArg(a, 0, 'string', 'match')),
      search: (a) => compile(strArg(a, 1, 'pattern', 'search'), 'search').test(strArg(a, 0, 'string', 'search')),
      findall: (a) => {
        const s = strArg(a, 0, 'string', 'findall');
        const re = compile(strArg(a, 1, 'pattern', 'findall'), 'findall');
        return goFindAll(re, s, -1).map((m) => s.slice(m[0], m[1]));
      },
      replace: (a) => {
        const s = strArg(a, 0, 'string', 'replace');
        const pattern = strArg(a, 1, 'pattern', 'replace');
        compile(pattern, 'replace');
        return goReplaceAllString(pattern, s, strArg(a, 2, 'replace', 'replace'));
      },
      split: (a) => {
        const pattern = strArg(a, 1, 'pattern', 'split');
        compile(pattern, 'split');
        return goSplit(pattern, strArg(a, 0, 'string', 'split'), -1);
      },
      compile: (a) => {
        compile(strArg(a, 0, 'pattern', 'compile'), 'compile');
        return true;
      },
    }),
  json: () =>
    module('json', {
      encode: (a) =>
        encodeJson(a.args[0] ?? null, {
          sortKeys: truthy(a.kwargs.get('sort_keys') ?? false),
          indent: (a.kwargs.get('indent') as number | undefined) ?? 0,
          ignorePrivate: truthy(a.kwargs.get('ignore_private') ?? false),
          ignoreNone: truthy(a.kwargs.get('ignore_none') ?? false),
        }),
    }),
  yaml: () =>
    module('yaml', {
      encode: (a) =>
        encodeYaml(a.args[0] ?? null, {
          sortKeys: truthy(a.kwargs.get('sort_keys') ?? false),
          ignorePrivate: truthy(a.kwargs.get('ignore_private') ?? false),
          ignoreNone: truthy(a.kwargs.get('ignore_none') ?? false),
        }),
    }),
  base64: () =>
    module('base64', {
      encode: (a) => Buffer.from(strArg(a, 0, 'value', 'encode'), 'utf-8').toString('base64'),
      decode: (a) => Buffer.from(strArg(a, 0, 'value', 'decode'), 'base64').toString('utf-8'),
    }),
};

export function systemModule(name: string): KModule | undefined {
  return MODULES[name]?.();
}
