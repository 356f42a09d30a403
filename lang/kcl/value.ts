/**
 * KCL values. Ints are JS numbers, floats are KFloat (so 1.0 prints as 1.0),
 * dicts and schema instances are KDict: insertion-ordered, with the operator
 * each key was written with (`:` union, `=` override, `+=` insert), which a
 * later merge into a schema's defaults needs. A schema instance remembers the
 * config it was built from, so a union with it rebuilds the instance: defaults
 * that derive from other attributes and the `check:` block run again, as KCL does.
 */
import type { ConfigOp, Param, SchemaDef, Stmt, TypeExpr } from './ast.js';

export const UNDEFINED: unique symbol = Symbol('Undefined');
export type Undefined = typeof UNDEFINED;

export class KFloat {
  constructor(readonly v: number) {}
}

export class KDict {
  readonly map = new Map<string, Value>();
  /**
   * How keys of a config were written: the operator (`:` union, `=` override, `+=` insert) and
   * where. One map for both, holding shared KeyMeta objects: a dict copy copies two maps, not three.
   */
  meta?: Map<string, KeyMeta>;
  schema?: SchemaType;
  /** For an instance: the merged config it was instantiated from. */
  config?: KDict;

  opOf(k: string): ConfigOp {
    return this.meta?.get(k)?.op ?? 'union';
  }
  originOf(k: string): KeyOrigin | undefined {
    return this.meta?.get(k)?.origin;
  }
  setOp(k: string, op: ConfigOp): void {
    const m = this.meta?.get(k);
    if (op === 'union' && !m) return;
    (this.meta ??= new Map()).set(k, keyMeta(op, m?.origin));
  }
  setOrigin(k: string, origin: KeyOrigin): void {
    const m = this.meta?.get(k);
    (this.meta ??= new Map()).set(k, keyMeta(m ? m.op : 'union', origin));
  }
  /** Both at once (a key written for the first time, or overridden). */
  setKeyMeta(k: string, op: ConfigOp, origin: KeyOrigin | undefined): void {
    if (op === 'union' && !origin && !this.meta?.has(k)) return;
    (this.meta ??= new Map()).set(k, keyMeta(op, origin));
  }
  static of(entries: Iterable<[string, Value]>): KDict {
    const d = new KDict();
    for (const [k, v] of entries) d.map.set(k, v);
    return d;
  }
}

/** Where a key of a config was written (file, line, column), for errors about that key; one per place. */
export class KeyOrigin {
  private metas?: [KeyMeta?, KeyMeta?, KeyMeta?];
  constructor(
    readonly file: unknown,
    readonly line: number,
    readonly col: number,
  ) {}
  /** The shared KeyMeta of a key written here with `op`. */
  withOp(op: ConfigOp): KeyMeta {
    const metas = (this.metas ??= [undefined, undefined, undefined]);
    const i = OP_INDEX[op];
    return (metas[i] ??= new KeyMeta(op, this));
  }
}

export class KeyMeta {
  constructor(
    readonly op: ConfigOp,
    readonly origin: KeyOrigin | undefined,
  ) {}
}

const OP_INDEX = { union: 0, override: 1, insert: 2 } as const;
const BARE: Record<ConfigOp, KeyMeta> = {
  union: new KeyMeta('union', undefined),
  override: new KeyMeta('override', undefined),
  insert: new KeyMeta('insert', undefined),
};

export function keyMeta(op: ConfigOp, origin: KeyOrigin | undefined): KeyMeta {
  return origin ? origin.withOp(op) : BARE[op];
}

/** Where names of a schema or lambda body resolve: its file's imports and its package's globals. */
export interface DefScope {
  readonly fileKey: string;
}

export class SchemaType {
  constructor(
    readonly def: SchemaDef,
    readonly pkgPath: string,
    readonly scope: DefScope,
    /** The resolved base schema (filled on first instantiation). */
    public base?: SchemaType,
  ) {}
  get name(): string {
    return this.def.name;
  }
}

export interface CallArgs {
  readonly args: readonly Value[];
  readonly kwargs: ReadonlyMap<string, Value>;
}

export class KFunc {
  constructor(
    readonly name: string,
    readonly impl: (a: CallArgs) => Value,
    /** For lambdas: parameters and body, kept for typeof and error messages. */
    readonly lambda?: { readonly params: readonly Param[]; readonly ret?: TypeExpr; readonly body: readonly Stmt[] },
  ) {}
}

export class KModule {
  constructor(
    readonly name: string,
    readonly get: (attr: string) => Value | undefined,
  ) {}
}

export type Value =
  null | Undefined | boolean | number | KFloat | string | Value[] | KDict | SchemaType | KFunc | KModule;

export function typeName(v: Value): string {
  if (v === null) return 'NoneType';
  if (v === UNDEFINED) return 'UndefinedType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'int';
  if (typeof v === 'string') return 'str';
  if (v instanceof KFloat) return 'float';
  if (Array.isArray(v)) return 'list';
  if (v instanceof KDict) return v.schema ? v.schema.name : 'dict';
  if (v instanceof SchemaType) return 'schema';
  if (v instanceof KFunc) return 'function';
  return 'module';
}

export function truthy(v: Value): boolean {
  if (v === null || v === UNDEFINED || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'number') return v !== 0;
  if (v instanceof KFloat) return v.v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof KDict) return v.map.size > 0;
  return true;
}

export function numeric(v: Value): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof KFloat) return v.v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return true;
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined && typeof a !== 'boolean' && typeof b !== 'boolean') return na === nb;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]!));
  if (a instanceof KDict && b instanceof KDict) {
    const ka = visibleKeys(a);
    const kb = visibleKeys(b);
    return ka.length === kb.length && ka.every((k) => b.map.has(k) && valuesEqual(a.map.get(k)!, b.map.get(k)!));
  }
  return false;
}

function visibleKeys(d: KDict): string[] {
  return [...d.map.keys()].filter((k) => d.map.get(k) !== UNDEFINED);
}

/** A shallow copy keeping ops (not the schema). */
export function copyDict(d: KDict): KDict {
  const out = new KDict();
  // forEach rather than `new Map(m)` or for-of: no [key, value] pair per entry (unions copy thousands of dicts).
  const map = out.map;
  d.map.forEach((v, k) => map.set(k, v));
  if (d.meta) out.meta = copyMap(d.meta);
  return out;
}

function copyMap<V>(m: Map<string, V>): Map<string, V> {
  const out = new Map<string, V>();
  m.forEach((v, k) => out.set(k, v));
  return out;
}
