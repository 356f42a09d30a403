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

/** Entries of an empty dict: shared, never written (the first set allocates). */
const NO_ENTRIES: unknown[] = [];
/** Above this many keys a dict indexes them; below, a scan of a few keys is cheaper than hashing. */
const SCAN_MAX = 8;

/**
 * A dict or schema instance. Its entries are triples in one array (key, value, KeyMeta): a KCL
 * run keeps thousands of small dicts alive until the output is written, and a JS Map per dict (two
 * with the operators and origins) made most of that live set, which every young-generation
 * collection copies. Keys are found by a scan up to SCAN_MAX entries, by an index above. `map`
 * is the dict itself, with the Map methods the engine uses (insertion order, `set` of a known
 * key keeps its place).
 */
export class KDict {
  private kv: unknown[] = NO_ENTRIES;
  private n = 0;
  private index: Map<string, number> | undefined = undefined;
  schema?: SchemaType = undefined;
  /** For an instance: the merged config it was instantiated from. */
  config?: KDict = undefined;

  /** `capacity`: the number of keys expected (an instance knows its attributes). */
  constructor(capacity = 0) {
    if (capacity > 0) this.kv = new Array<unknown>(3 * capacity);
  }

  /** The entries as a Map-like view (the dict itself). */
  get map(): this {
    return this;
  }
  get size(): number {
    return this.n;
  }

  private find(k: string): number {
    if (this.index !== undefined) {
      const i = this.index.get(k);
      return i === undefined ? -1 : i;
    }
    const kv = this.kv;
    for (let i = 0, j = 0; i < this.n; i++, j += 3) if (kv[j] === k) return i;
    return -1;
  }

  private append(k: string, v: Value, m: KeyMeta | undefined): void {
    const n = this.n;
    let kv = this.kv;
    if (3 * n >= kv.length) {
      const grown = new Array<unknown>(n === 0 ? 3 : 6 * n);
      for (let j = 0; j < 3 * n; j++) grown[j] = kv[j];
      this.kv = kv = grown;
    }
    kv[3 * n] = k;
    kv[3 * n + 1] = v;
    kv[3 * n + 2] = m;
    this.n = n + 1;
    if (this.index !== undefined) this.index.set(k, n);
    else if (n + 1 > SCAN_MAX) this.reindex();
  }

  private reindex(): void {
    const index = new Map<string, number>();
    for (let i = 0; i < this.n; i++) index.set(this.kv[3 * i] as string, i);
    this.index = index;
  }

  get(k: string): Value | undefined {
    const i = this.find(k);
    return i < 0 ? undefined : (this.kv[3 * i + 1] as Value);
  }
  has(k: string): boolean {
    return this.find(k) >= 0;
  }
  set(k: string, v: Value): this {
    const i = this.find(k);
    if (i >= 0) this.kv[3 * i + 1] = v;
    else this.append(k, v, undefined);
    return this;
  }
  delete(k: string): boolean {
    const i = this.find(k);
    if (i < 0) return false;
    const kv = this.kv;
    for (let j = 3 * i; j < 3 * (this.n - 1); j++) kv[j] = kv[j + 3];
    this.n--;
    kv[3 * this.n] = kv[3 * this.n + 1] = kv[3 * this.n + 2] = undefined;
    if (this.index !== undefined) this.reindex();
    return true;
  }
  /** Calls fn for each entry in order; entries added meanwhile are visited too, as with a Map. */
  forEach(fn: (v: Value, k: string, d: KDict) => void): void {
    for (let i = 0; i < this.n; i++) fn(this.kv[3 * i + 1] as Value, this.kv[3 * i] as string, this);
  }
  keys(): string[] {
    const out = new Array<string>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.kv[3 * i] as string;
    return out;
  }
  values(): Value[] {
    const out = new Array<Value>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.kv[3 * i + 1] as Value;
    return out;
  }
  entries(): [string, Value][] {
    const out = new Array<[string, Value]>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = [this.kv[3 * i] as string, this.kv[3 * i + 1] as Value];
    return out;
  }
  [Symbol.iterator](): IterableIterator<[string, Value]> {
    return this.entries()[Symbol.iterator]();
  }
  /** Entry i (insertion order): its key, value and KeyMeta, for loops that read all three. */
  keyAt(i: number): string {
    return this.kv[3 * i] as string;
  }
  valueAt(i: number): Value {
    return this.kv[3 * i + 1] as Value;
  }
  metaAt(i: number): KeyMeta | undefined {
    return this.kv[3 * i + 2] as KeyMeta | undefined;
  }

  /**
   * How a key of a config was written: the operator (`:` union, `=` override, `+=` insert) and
   * where, as a shared KeyMeta beside the value. Set on keys already in the dict.
   */
  metaOf(k: string): KeyMeta | undefined {
    const i = this.find(k);
    return i < 0 ? undefined : (this.kv[3 * i + 2] as KeyMeta | undefined);
  }
  private putMeta(k: string, m: KeyMeta): void {
    const i = this.find(k);
    if (i < 0) throw new Error(`internal: key meta for '${k}', which the dict does not hold`);
    this.kv[3 * i + 2] = m;
  }
  opOf(k: string): ConfigOp {
    return this.metaOf(k)?.op ?? 'union';
  }
  originOf(k: string): KeyOrigin | undefined {
    return this.metaOf(k)?.origin;
  }
  setOp(k: string, op: ConfigOp): void {
    const m = this.metaOf(k);
    if (op === 'union' && !m) return;
    this.putMeta(k, keyMeta(op, m?.origin));
  }
  setOrigin(k: string, origin: KeyOrigin): void {
    const m = this.metaOf(k);
    this.putMeta(k, keyMeta(m ? m.op : 'union', origin));
  }
  /** Both at once (a key written for the first time, or overridden). */
  setKeyMeta(k: string, op: ConfigOp, origin: KeyOrigin | undefined): void {
    if (op === 'union' && !origin && !this.metaOf(k)) return;
    this.putMeta(k, keyMeta(op, origin));
  }
  /** Sets a key and its KeyMeta together (undefined: a plain `:` key). */
  setWithMeta(k: string, v: Value, m: KeyMeta | undefined): void {
    const i = this.find(k);
    if (i < 0) this.append(k, v, m);
    else {
      this.kv[3 * i + 1] = v;
      this.kv[3 * i + 2] = m;
    }
  }
  /** A copy of the entries and their KeyMeta (not the schema). */
  copy(): KDict {
    const out = new KDict();
    if (this.n === 0) return out;
    out.kv = this.kv.slice(0, 3 * this.n);
    out.n = this.n;
    if (this.index !== undefined) out.index = new Map(this.index);
    return out;
  }
  static of(entries: Iterable<[string, Value]>): KDict {
    const d = new KDict();
    for (const [k, v] of entries) d.set(k, v);
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
  return d.copy();
}
