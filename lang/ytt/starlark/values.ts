/**
 * Starlark values. Ints are JS numbers, floats SFloat, strings, booleans and
 * None (null) are themselves; YAML maps and arrays (ytt "fragments") are
 * values too, so `key: #@ data.values.x` round-trips a subtree with its
 * annotations.
 */
import { YttError, type Where } from '../errors.js';
import { SFloat, YArray, YMap } from '../nodes.js';
import type { Param, Stmt, Expr } from './parser.js';

export class SList {
  frozen = false;
  constructor(public items: unknown[]) {}
}
export class STuple {
  constructor(readonly items: unknown[]) {}
}
export class SDict {
  frozen = false;
  readonly map = new Map<string, [unknown, unknown]>();
  constructor(entries: [unknown, unknown][] = []) {
    for (const [k, v] of entries) this.set(k, v);
  }
  set(k: unknown, v: unknown): void {
    this.map.set(hashKey(k), [k, v]);
  }
  get(k: unknown): unknown {
    return this.map.get(hashKey(k))?.[1];
  }
  has(k: unknown): boolean {
    return this.map.has(hashKey(k));
  }
  delete(k: unknown): void {
    this.map.delete(hashKey(k));
  }
  keys(): unknown[] {
    return [...this.map.values()].map((e) => e[0]);
  }
  entries(): [unknown, unknown][] {
    return [...this.map.values()];
  }
}
/** A struct (struct.make, struct.encode, a loaded module, `data`). */
export class SStruct {
  constructor(
    readonly fields: Map<string, unknown>,
    readonly typeName = 'struct',
  ) {}
}
export class SFunction {
  constructor(
    readonly name: string,
    readonly params: Param[],
    readonly body: Stmt[] | Expr,
    readonly globals: Map<string, unknown>,
    readonly defaults: unknown[],
    /** for template functions: the module whose YAML nodes the body emits */
    readonly owner: unknown,
  ) {}
}
export type BuiltinFn = (args: unknown[], kwargs: [string, unknown][], where: Where) => unknown;
export class SBuiltin {
  constructor(
    readonly name: string,
    readonly fn: BuiltinFn,
  ) {}
}

export function hashKey(k: unknown): string {
  if (k === null) return 'N';
  if (typeof k === 'boolean') return k ? 'T' : 'F';
  if (typeof k === 'number') return 'n' + k;
  if (k instanceof SFloat) return Number.isInteger(k.v) ? 'n' + k.v : 'f' + k.v;
  if (typeof k === 'string') return 's' + k;
  if (k instanceof STuple) return 't(' + k.items.map(hashKey).join(',') + ')';
  throw new YttError(undefined, `unhashable type: ${sType(k)}`);
}

export function sType(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'int';
  if (v instanceof SFloat) return 'float';
  if (typeof v === 'string') return 'string';
  if (v instanceof SList) return 'list';
  if (v instanceof STuple) return 'tuple';
  if (v instanceof SDict) return 'dict';
  if (v instanceof SStruct) return v.typeName;
  if (v instanceof SFunction) return 'function';
  if (v instanceof SBuiltin) return 'builtin_function_or_method';
  if (v instanceof YMap) return 'yamlfragment';
  if (v instanceof YArray) return 'yamlfragment';
  return 'unknown';
}

export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (v instanceof SFloat) return v.v !== 0;
  if (v instanceof SList || v instanceof STuple) return v.items.length > 0;
  if (v instanceof SDict) return v.map.size > 0;
  if (v instanceof YMap || v instanceof YArray) return v.items.length > 0;
  return true;
}

function fmtFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return n.toFixed(1);
  const s = String(n);
  return s.replace(/e\+?/, 'e+').replace('e+-', 'e-');
}

/** str(): strings are themselves; everything else is its repr. */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : repr(v);
}

export function repr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  if (v instanceof SFloat) return fmtFloat(v.v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof SList) return '[' + v.items.map(repr).join(', ') + ']';
  if (v instanceof STuple) return '(' + v.items.map(repr).join(', ') + (v.items.length === 1 ? ',)' : ')');
  if (v instanceof SDict)
    return (
      '{' +
      v
        .entries()
        .map(([k, x]) => `${repr(k)}: ${repr(x)}`)
        .join(', ') +
      '}'
    );
  if (v instanceof SStruct) return `${v.typeName}(${[...v.fields].map(([k, x]) => `${k} = ${repr(x)}`).join(', ')})`;
  if (v instanceof SFunction) return `<function ${v.name}>`;
  if (v instanceof SBuiltin) return `<built-in function ${v.name}>`;
  if (v instanceof YMap)
    return 'yamlfragment({' + v.items.map((i) => `${repr(i.key)}: ${repr(i.value)}`).join(', ') + '})';
  if (v instanceof YArray) return 'yamlfragment([' + v.items.map((i) => repr(i.value)).join(', ') + '])';
  return String(v);
}

export function equal(a: unknown, b: unknown): boolean {
  if (a instanceof SFloat || b instanceof SFloat) {
    const x = a instanceof SFloat ? a.v : a;
    const y = b instanceof SFloat ? b.v : b;
    return typeof x === 'number' && typeof y === 'number' && x === y;
  }
  if (a === b) return true;
  if (a === undefined) return b === null;
  if (a instanceof SList && b instanceof SList) return seqEq(a.items, b.items);
  if (a instanceof STuple && b instanceof STuple) return seqEq(a.items, b.items);
  if (a instanceof SDict && b instanceof SDict) {
    if (a.map.size !== b.map.size) return false;
    for (const [h, [, v]] of a.map) {
      const o = b.map.get(h);
      if (!o || !equal(v, o[1])) return false;
    }
    return true;
  }
  if (a instanceof SStruct && b instanceof SStruct) {
    if (a.fields.size !== b.fields.size) return false;
    for (const [k, v] of a.fields) if (!b.fields.has(k) || !equal(v, b.fields.get(k))) return false;
    return true;
  }
  if (a instanceof YMap || a instanceof YArray || b instanceof YMap || b instanceof YArray) {
    return equal(fromYaml(a), fromYaml(b));
  }
  return false;
}
function seqEq(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => equal(x, b[i]));
}

/** A YAML fragment as plain Starlark data (maps → dicts, arrays → lists). */
export function fromYaml(v: unknown): unknown {
  if (v instanceof YMap) return new SDict(v.items.map((i) => [i.key, fromYaml(i.value)]));
  if (v instanceof YArray) return new SList(v.items.map((i) => fromYaml(i.value)));
  return v;
}
