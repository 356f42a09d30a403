/**
 * ytt's built-in Starlark modules that data-values files load: @ytt:data,
 * @ytt:struct, @ytt:assert, @ytt:yaml, @ytt:json.
 */
import { stringify as stringifyYaml } from 'yaml';
import { GoMap, GoYamlError, unmarshalYaml, type GoValue } from '../go/yaml-v2.js';
import { YttError } from './errors.js';
import { SFloat, YArray, YMap, type YValue } from './nodes.js';
import { callStarlark, iterate } from './starlark/builtins.js';
import {
  SBuiltin,
  SDict,
  SList,
  SStruct,
  STuple,
  equal,
  fromYaml,
  repr,
  sType,
  type BuiltinFn,
} from './starlark/values.js';
import { toYaml } from './template.js';

function mod(name: string, fns: Record<string, BuiltinFn | unknown>): SStruct {
  const m = new Map<string, unknown>();
  for (const [k, f] of Object.entries(fns))
    m.set(k, typeof f === 'function' ? new SBuiltin(`${name}.${k}`, f as BuiltinFn) : f);
  return new SStruct(m, name);
}

/** struct.encode: dicts (and fragments) become structs, lists stay lists. */
export function encodeStruct(v: unknown): unknown {
  if (v instanceof SDict) return new SStruct(new Map(v.entries().map(([k, x]) => [String(k), encodeStruct(x)])));
  if (v instanceof YMap) return new SStruct(new Map(v.items.map((i) => [String(i.key), encodeStruct(i.value)])));
  if (v instanceof SList || v instanceof STuple) return new SList(v.items.map(encodeStruct));
  if (v instanceof YArray) return new SList(v.items.map((i) => encodeStruct(i.value)));
  return v;
}
function decodeStruct(v: unknown): unknown {
  if (v instanceof SStruct) return new SDict([...v.fields].map(([k, x]) => [k, decodeStruct(x)]));
  if (v instanceof SList || v instanceof STuple) return new SList(v.items.map(decodeStruct));
  return v;
}

/** plain JS (from JSON/YAML parsing) → Starlark */
export function fromPlain(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return new SList(v.map(fromPlain));
  if (typeof v === 'object') return new SDict(Object.entries(v).map(([k, x]) => [k, fromPlain(x)]));
  if (typeof v === 'number' && !Number.isInteger(v)) return new SFloat(v);
  return v;
}
/** What ytt's yaml.decode gives for go-yaml v2's value: ints and floats kept apart, keys of any scalar type. */
function fromGoYaml(v: GoValue): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return new SFloat(v);
  if (Array.isArray(v)) return new SList(v.map(fromGoYaml));
  if (v instanceof GoMap) return new SDict(v.keys.map((k, i) => [fromGoYaml(k), fromGoYaml(v.values[i]!)]));
  return v;
}

function decodeYaml(text: string): unknown {
  try {
    return fromGoYaml(unmarshalYaml(text));
  } catch (e) {
    if (e instanceof GoYamlError) throw new YttError(undefined, `yaml.decode: ${e.message}`);
    throw e;
  }
}

function toPlainJs(v: YValue): unknown {
  if (v instanceof YMap) return Object.fromEntries(v.items.map((i) => [String(i.key), toPlainJs(i.value)]));
  if (v instanceof YArray) return v.items.map((i) => toPlainJs(i.value));
  if (v instanceof SFloat) return v.v;
  return v;
}

const where0 = { file: '', line: 0, column: 0 };

/** is `sub` contained in `v`: every key of a map subset present with a contained value, anything else equal */
function isSubset(v: unknown, sub: unknown): boolean {
  const val = v instanceof YMap || v instanceof YArray ? fromYaml(v) : v;
  const want = sub instanceof YMap || sub instanceof YArray ? fromYaml(sub) : sub;
  if (want instanceof SDict) {
    if (!(val instanceof SDict)) return false;
    return want.entries().every(([k, x]) => val.has(k) && isSubset(val.get(k), x));
  }
  return equal(val, want);
}

/** @ytt:overlay's matchers, for `#@overlay/match by=...` */
function overlayModule(): SStruct {
  const matcher = (name: string, f: (i: unknown, l: unknown, r: unknown) => boolean): SBuiltin =>
    new SBuiltin(name, (a) => f(a[0], a[1], a[2]));
  return mod('overlay', {
    map_key: (a: unknown[]) =>
      matcher('overlay.map_key', (_i, l, r) => {
        const key = String(a[0]);
        const get = (m: unknown, side: string): unknown => {
          if (m instanceof YMap) {
            const it = m.get(key);
            if (it) return it.value;
          }
          if (side === 'right' || !(m instanceof YMap))
            throw new YttError(undefined, `Expected to find map item with key '${key}', but did not`);
          return undefined;
        };
        const rv = get(r, 'right');
        const lv = get(l, 'left');
        return lv !== undefined && equal(fromYaml(lv), fromYaml(rv));
      }),
    subset: (a: unknown[]) => matcher('overlay.subset', (_i, l) => isSubset(l, a[0])),
    index: (a: unknown[]) => matcher('overlay.index', (i) => i === a[0]),
    all: new SBuiltin('overlay.all', () => true),
    and_op: (a: unknown[]) =>
      matcher('overlay.and_op', (i, l, r) => a.every((m) => callStarlark(m, [i, l, r], []) === true)),
    or_op: (a: unknown[]) =>
      matcher('overlay.or_op', (i, l, r) => a.some((m) => callStarlark(m, [i, l, r], []) === true)),
    not_op: (a: unknown[]) => matcher('overlay.not_op', (i, l, r) => callStarlark(a[0], [i, l, r], []) !== true),
  });
}

export function builtinModule(spec: string, dataValues: () => unknown): Map<string, unknown> | undefined {
  switch (spec) {
    case '@ytt:data':
      return new Map([['data', mod('data', { values: dataValues(), list: () => new SList([]) })]]);
    case '@ytt:struct':
      return new Map([
        [
          'struct',
          mod('struct', {
            make: (_a: unknown[], k: [string, unknown][]) => new SStruct(new Map(k)),
            encode: (a: unknown[]) => encodeStruct(a[0]),
            decode: (a: unknown[]) => decodeStruct(a[0]),
          }),
        ],
      ]);
    case '@ytt:assert':
      return new Map([
        [
          'assert',
          mod('assert', {
            fail: (a: unknown[]) => {
              throw new YttError(undefined, `fail: ${String(a[0])}`);
            },
            equals: (a: unknown[]) => {
              if (repr(a[0]) !== repr(a[1]))
                throw new YttError(
                  undefined,
                  `fail: Not equal:\n(expected type: ${sType(a[0])})\n${repr(a[0])}\n\n(was type: ${sType(a[1])})\n${repr(a[1])}`,
                );
              return null;
            },
          }),
        ],
      ]);
    case '@ytt:yaml':
      return new Map([
        [
          'yaml',
          mod('yaml', {
            encode: (a: unknown[]) => stringifyYaml(toPlainJs(toYaml(a[0], where0))),
            decode: (a: unknown[]) => decodeYaml(String(a[0])),
          }),
        ],
      ]);
    case '@ytt:overlay':
      return new Map([['overlay', overlayModule()]]);
    case '@ytt:json':
      return new Map([
        [
          'json',
          mod('json', {
            encode: (a: unknown[]) => JSON.stringify(toPlainJs(toYaml(a[0], where0))),
            decode: (a: unknown[]) => fromPlain(JSON.parse(String(a[0]))),
          }),
        ],
      ]);
  }
  return undefined;
}

export { iterate };
