/**
 * Runtime values of the Jsonnet evaluator. Primitives are plain JS values
 * (null, boolean, number, string); arrays, objects and functions are classes.
 * Invariants:
 *  - a Thunk is evaluated at most once; after that it drops its env/code so
 *    the closure can be collected (go-jsonnet's cachedThunk does the same);
 *  - an object is a stack of layers (bottom first); `a + b` concatenates
 *    layers, so `super` inside layer i means layers [0, i) of the same self;
 *  - field values are cached per object instance (name -> value) only for
 *    lookups through self (topmost definition).
 */
import type { FunctionLit, Hide, Node, ObjAssert, ObjectComp, ObjectLit } from './ast.js';
import type { FieldCache } from './field-cache.js';
import type { JsonObject, JsonValue } from '../common/json.js';
import { sortNames } from './sort-names.js';

export type Value = null | boolean | number | string | ArrayValue | ObjectValue | FuncValue;

/** Lexical environment: one frame of slots plus the self binding in effect. */
export class Env {
  declare readonly parent: Env | null;
  declare readonly slots: Thunk[];
  declare readonly self: ObjectValue | null;
  declare readonly layer: number;
  constructor(parent: Env | null, slots: Thunk[], self: ObjectValue | null, layer: number) {
    this.parent = parent;
    this.slots = slots;
    this.self = self;
    this.layer = layer;
  }
}

/** A lazily computed value: code + env, a native computation, or a ready value. */
export class Thunk {
  declare value: Value | undefined;
  declare node: Node | null;
  declare env: Env | null;
  declare compute: (() => Value) | null;
  /** Trace: the node that created the thunk (for builtins' lazy elements). */
  constructor(value: Value | undefined, node: Node | null, env: Env | null, compute: (() => Value) | null) {
    this.value = value;
    this.node = node;
    this.env = env;
    this.compute = compute;
  }
  static ready(v: Value): Thunk {
    return new Thunk(v, null, null, null);
  }
  static lazy(node: Node, env: Env): Thunk {
    return new Thunk(undefined, node, env, null);
  }
  static computed(fn: () => Value): Thunk {
    return new Thunk(undefined, null, null, fn);
  }
}

/**
 * An array. `a + b` and `a[from:to:step]` are kept lazy (a concatenation node, a
 * view of a flat array) until some caller needs the flat list (`elems`): the
 * `std.foldl(function(acc, x) acc + [x], ...)` idiom copied the whole accumulator
 * on every step (20,000 appends: 1.0 s, quadratic), and recursive functions over
 * `arr[1:]` copied the rest of the array on every call. Length and indexing
 * (`at`) never flatten a slice view. The flat list, once made, is kept and the
 * lazy parts are dropped.
 */
export class ArrayValue {
  declare private flat: Thunk[] | null;
  declare private left: ArrayValue | null;
  declare private right: ArrayValue | null;
  /** Slice view: element i is base[offset + i * step]. */
  declare private base: Thunk[] | null;
  declare private offset: number;
  declare private step: number;
  declare readonly length: number;
  /**
   * Set for an array read from JSON (an imported .json file): its elements, made into
   * values on first use, and the depth bound of the document (see valueFromJson).
   */
  declare json: JsonValue[] | null;
  declare jsonDepth: number;

  /** A flat array; the lazy forms pass their length and no elements. */
  constructor(elems: Thunk[], length = elems.length) {
    // Fields are assigned here, not declared with initialisers (see ObjectValue's constructor).
    this.flat = elems;
    this.left = null;
    this.right = null;
    this.base = null;
    this.offset = 0;
    this.step = 1;
    this.length = length;
    this.json = null;
    this.jsonDepth = 0;
  }

  /** The elements as one array (made on first use for lazy arrays). Never mutate it. */
  get elems(): Thunk[] {
    return this.flat ?? this.materialize();
  }

  /** Element i (0 <= i < length) without flattening a slice view. */
  at(i: number): Thunk {
    if (this.flat !== null) return this.flat[i]!;
    if (this.base !== null) return this.base[this.offset + i * this.step]!;
    return this.materialize()[i]!;
  }

  /** Concatenations shorter than this are copied at once: a lazy node would cost more than it saves. */
  private static readonly LAZY_CONCAT_MIN = 32;

  static concat(a: ArrayValue, b: ArrayValue): ArrayValue {
    if (a.length === 0) return b;
    if (b.length === 0) return a;
    if (a.length + b.length < ArrayValue.LAZY_CONCAT_MIN) return new ArrayValue(a.elems.concat(b.elems));
    const r = new ArrayValue(EMPTY_THUNKS, a.length + b.length);
    r.flat = null;
    r.left = a;
    r.right = b;
    return r;
  }

  /** Elements from, from + step, ... below to (0 <= from, to <= length, step >= 1). */
  static slice(a: ArrayValue, from: number, to: number, step: number): ArrayValue {
    const n = to > from ? Math.ceil((to - from) / step) : 0;
    if (n === 0) return new ArrayValue([]);
    if (n === a.length) return a;
    const r = new ArrayValue(EMPTY_THUNKS, n);
    r.flat = null;
    if (a.flat === null && a.base !== null) {
      r.base = a.base;
      r.offset = a.offset + from * a.step;
      r.step = a.step * step;
    } else {
      r.base = a.elems;
      r.offset = from;
      r.step = step;
    }
    return r;
  }

  /** An array of JSON values, converted when an element is first needed. */
  static fromJson(j: JsonValue[], depth: number): ArrayValue {
    const r = new ArrayValue(EMPTY_THUNKS, j.length);
    r.flat = null;
    r.json = j;
    r.jsonDepth = depth;
    return r;
  }

  /** Flattens without recursion: foldl-built concatenations are thousands of nodes deep. */
  private materialize(): Thunk[] {
    const out = new Array<Thunk>(this.length);
    let k = 0;
    const pending: ArrayValue[] = [this];
    while (pending.length > 0) {
      const a = pending.pop()!;
      if (a.flat !== null) {
        const f = a.flat;
        for (let i = 0; i < f.length; i++) out[k++] = f[i]!;
      } else if (a.base !== null) {
        for (let i = 0; i < a.length; i++) out[k++] = a.base[a.offset + i * a.step]!;
      } else if (a.json !== null) {
        // Another JSON array is converted once, as itself, so its elements stay one set of values.
        const j = a.json;
        if (a === this) for (let i = 0; i < j.length; i++) out[k++] = Thunk.ready(valueFromJson(j[i]!, a.jsonDepth));
        else {
          const f = a.elems;
          for (let i = 0; i < f.length; i++) out[k++] = f[i]!;
        }
      } else {
        pending.push(a.right!, a.left!);
      }
    }
    this.flat = out;
    this.left = null;
    this.right = null;
    this.base = null;
    return out;
  }
}

const EMPTY_THUNKS: Thunk[] = [];

/** One field definition in a layer: code evaluated against self, or a ready thunk. */
export interface FieldDef {
  hide: Hide;
  plus: boolean;
  body: Node | null;
  /**
   * The env the body closes over (for comprehensions: including the `for` variables);
   * null for literal fields, whose env is their layer's `closure` (so one table of
   * definitions can be shared by every instance of a literal).
   */
  env: Env | null;
  thunk: Thunk | null;
}

/** The sorted visible names of one object shape, with what manifesting writes for each, made once. */
export interface SharedNames {
  sortedVisible: string[] | undefined;
  /** Trace positions (`Field "name"`) of sortedVisible, and what manifesting writes before each value (the quoted name and `: `). */
  positions: string[] | undefined;
  quotedNames: string[] | undefined;
}

/**
 * Field-name facts shared by every instance of one object literal whose names are
 * all static: the definitions table is read-only, so visibility and the sorted
 * visible names are computed once per literal instead of once per object
 * (kube-lib: 500 apps x ~20 small objects each recomputed and sorted their names).
 */
export class SharedFields implements SharedNames {
  declare visibility: Map<string, boolean> | undefined;
  declare visible: string[] | undefined;
  declare sortedVisible: string[] | undefined;
  declare positions: string[] | undefined;
  declare quotedNames: string[] | undefined;
  /** Layer stacks ending in this table whose tables are all shared, and their names (see layeredNames). */
  declare stacks: LayerStack[] | undefined;
  declare readonly fields: Map<string, FieldDef>;
  constructor(fields: Map<string, FieldDef>) {
    this.visibility = undefined;
    this.visible = undefined;
    this.sortedVisible = undefined;
    this.positions = undefined;
    this.quotedNames = undefined;
    this.stacks = undefined;
    this.fields = fields;
  }
}

/**
 * The names of an object made by `+` from layers that are all literal tables with
 * static names: they depend only on the tables, so every object with the same
 * stack of tables shares one sorted array. kube-prometheus manifests 3,450 such
 * objects of 464 stacks; each sorted its names in a fresh array (with a
 * visibility Map made for the occasion) before.
 */
export class LayerStack implements SharedNames {
  declare sortedVisible: string[] | undefined;
  declare positions: string[] | undefined;
  declare quotedNames: string[] | undefined;
  declare readonly tables: readonly Map<string, FieldDef>[];
  constructor(tables: readonly Map<string, FieldDef>[]) {
    this.sortedVisible = undefined;
    this.positions = undefined;
    this.quotedNames = undefined;
    this.tables = tables;
  }
}

/** Stacks remembered per top table: past this, objects of rarer stacks sort their own names. */
const MAX_STACKS_PER_TABLE = 16;

/** One object literal instance (or a native object). */
export class Layer {
  declare private table: Map<string, FieldDef> | null;
  /** The literal, for its locals and asserts and frame layout; null for native objects. */
  declare readonly literal: ObjectLit | ObjectComp | null;
  declare readonly asserts: readonly ObjAssert[];
  /** The env the literal was evaluated in (its asserts and shared field bodies); null for native objects. */
  declare readonly closure: Env | null;
  /** Set when `fields` is the literal's shared table (see SharedFields). */
  declare readonly shared: SharedFields | null;
  /** A JSON object this layer holds (an import): visible fields of ready values. */
  declare readonly json: JsonObject | null;
  /** The depth bound of the JSON document `json` is part of (see valueFromJson). */
  declare readonly jsonDepth: number;
  constructor(
    /** null only with `json`: the table is then made from it on first use. */
    fields: Map<string, FieldDef> | null,
    literal: ObjectLit | ObjectComp | null,
    asserts: readonly ObjAssert[],
    closure: Env | null,
    shared: SharedFields | null = null,
    json: JsonObject | null = null,
    jsonDepth = 0,
  ) {
    this.table = fields;
    this.literal = literal;
    this.asserts = asserts;
    this.closure = closure;
    this.shared = shared;
    this.json = json;
    this.jsonDepth = jsonDepth;
  }

  get fields(): Map<string, FieldDef> {
    return this.table ?? this.jsonFields();
  }

  private jsonFields(): Map<string, FieldDef> {
    const j = this.json!;
    const table = new Map<string, FieldDef>();
    for (const k of Object.keys(j)) {
      table.set(k, {
        hide: 'inherit',
        plus: false,
        body: null,
        env: null,
        thunk: Thunk.ready(valueFromJson(j[k]!, this.jsonDepth)),
      });
    }
    this.table = table;
    return table;
  }
}

const NO_ASSERTS: readonly ObjAssert[] = [];

/**
 * A value read from JSON (an imported .json file). Arrays and objects are converted one level
 * at a time, when their elements or fields are first needed; until then manifesting writes
 * them straight from the JSON (Evaluator.manifestInto). kube-prometheus imports 4.7 MB of CRDs
 * that it mostly passes through: converting them made 60,000 values, each object a Map, and a
 * definition and a thunk per field, all alive until the output was written. `depth` bounds the
 * nesting of any part of the document (the manifest frames it can take).
 */
export function valueFromJson(j: JsonValue, depth: number): Value {
  if (j === null || typeof j !== 'object') return j;
  if (Array.isArray(j)) return ArrayValue.fromJson(j, depth);
  const o = new ObjectValue([new Layer(null, null, NO_ASSERTS, null, null, j as JsonObject, depth)]);
  o.assertState = null;
  return o;
}

export class ObjectValue {
  /**
   * Field values read through self, made on first read: objects that only serve as
   * layers of a `+` are never indexed themselves (kube-lib: each Deployment's mixins
   * and their nested `spec+:` objects), so an eager Map per object was pure garbage.
   */
  declare cache: FieldCache | null;
  /**
   * Values of fields reached through `super`: a
   * field body in layer i with self = this always yields the same value, and deep
   * mixin chains re-read super.x once per layer above (inheritance bench). Indexed
   * by layer, made lazily.
   */
  declare superCache: (FieldCache | undefined)[] | null;
  /** Per-layer envs (object locals bound once per instance); see Evaluator.sharedLayerEnv. */
  declare layerEnvs: (Env | undefined)[] | null;
  /** undefined: not checked; null: passed or in progress; Error: failed. */
  declare assertState: undefined | null | unknown;
  declare private visibleCache: string[] | undefined;
  declare private visibilityCache: Map<string, boolean> | undefined;
  declare private sortedCache: string[] | undefined;
  /** Where sortedCache came from when objects of this shape share it; null: not shared. */
  declare private namesSource: SharedNames | null | undefined;
  declare readonly layers: Layer[];
  constructor(layers: Layer[]) {
    // Assigned here rather than declared with initialisers or as parameter properties: with
    // ES2022 class fields, each declaration is defined by a separate initialiser function (a
    // define IC per field, then the constructor's own stores), which cold code pays on every
    // object (kube-prometheus's one-shot: ~16 ms in those initialisers over the value classes).
    this.cache = null;
    this.superCache = null;
    this.layerEnvs = null;
    this.assertState = undefined;
    this.visibleCache = undefined;
    this.visibilityCache = undefined;
    this.sortedCache = undefined;
    this.namesSource = undefined;
    this.layers = layers;
  }

  /** Visible field names in code point order (manifest order). Cached; never mutate the result. */
  sortedVisibleFields(compare: (a: string, b: string) => number): string[] {
    if (this.sortedCache) return this.sortedCache;
    const source = this.sharedNames();
    if (source !== null) {
      return (this.sortedCache = source.sortedVisible ??= sortNames(this.computeVisible(undefined), compare));
    }
    // Sorted in place when the unsorted list is not kept: one array per object, not two.
    const names = this.visibleCache ? this.visibleCache.slice() : this.computeVisible(this.visibilityCache);
    return (this.sortedCache = sortNames(names, compare));
  }

  /**
   * The facts shared by every object of this one's shape (a literal with static names, or a
   * stack of them), or null. sortedVisibleFields's result is `sortedVisible` of it when not null.
   */
  sharedNames(): SharedNames | null {
    if (this.namesSource !== undefined) return this.namesSource;
    return (this.namesSource = this.findSharedNames());
  }

  private findSharedNames(): SharedNames | null {
    const layers = this.layers;
    const n = layers.length;
    const top = layers[n - 1]!.shared;
    if (top === null) return null;
    if (n === 1) return top;
    for (let i = 0; i < n - 1; i++) if (layers[i]!.shared === null) return null;
    const stacks = (top.stacks ??= []);
    search: for (let k = 0; k < stacks.length; k++) {
      const s = stacks[k]!;
      const t = s.tables;
      if (t.length !== n) continue;
      for (let i = 0; i < n - 1; i++) if (t[i] !== layers[i]!.fields) continue search;
      return s;
    }
    if (stacks.length >= MAX_STACKS_PER_TABLE) return null;
    const s = new LayerStack(layers.map((l) => l.fields));
    stacks.push(s);
    return s;
  }

  hasAsserts(): boolean {
    // Indexed loops here and below: for-of allocates an iterator result per step when interpreted.
    const layers = this.layers;
    for (let i = 0; i < layers.length; i++) if (layers[i]!.asserts.length > 0) return true;
    return false;
  }

  /** Index of the topmost layer below `below` defining `name`, or -1. */
  findLayer(name: string, below: number): number {
    for (let i = below - 1; i >= 0; i--) if (this.layers[i]!.fields.has(name)) return i;
    return -1;
  }

  /** All field names with final visibility (`::` hides, `:::` forces visible, `:` inherits). Cached. */
  fieldVisibility(): Map<string, boolean> {
    if (this.visibilityCache) return this.visibilityCache;
    const shared = this.layers.length === 1 ? this.layers[0]!.shared : null;
    if (shared?.visibility) return (this.visibilityCache = shared.visibility);
    const vis = this.computeVisibility();
    this.visibilityCache = vis;
    if (shared) shared.visibility = vis;
    return vis;
  }

  private computeVisibility(): Map<string, boolean> {
    const vis = new Map<string, boolean>();
    // forEach, not for-of: an entries iterator allocates a [name, def] pair per field
    // (17 MB for kube-prometheus when interpreted).
    const layers = this.layers;
    for (let i = 0; i < layers.length; i++) {
      layers[i]!.fields.forEach((def, name) => {
        if (def.hide === 'inherit') {
          if (!vis.has(name)) vis.set(name, true);
        } else vis.set(name, def.hide === 'visible');
      });
    }
    return vis;
  }

  /**
   * Visible names from `vis`, or from a visibility Map made for the occasion and
   * dropped: manifesting only needs the names, and kept on every layered object the
   * Maps were 1 MiB of kube-lib's 20 MiB live heap (3,900 of them). A single layer
   * needs no Map at all: a field is visible unless it is hidden.
   */
  private computeVisible(vis: Map<string, boolean> | undefined): string[] {
    const out: string[] = [];
    if (vis === undefined && this.layers.length === 1) {
      this.layers[0]!.fields.forEach((def, name) => {
        if (def.hide !== 'hidden') out.push(name);
      });
      return out;
    }
    (vis ?? this.computeVisibility()).forEach((visible, name) => {
      if (visible) out.push(name);
    });
    return out;
  }

  /** Visible field names, unsorted. Cached: layers never change. */
  visibleFields(): string[] {
    if (this.visibleCache) return this.visibleCache;
    const shared = this.layers.length === 1 ? this.layers[0]!.shared : null;
    if (shared?.visible) return (this.visibleCache = shared.visible);
    const out = this.computeVisible(shared ? this.fieldVisibility() : this.visibilityCache);
    this.visibleCache = out;
    if (shared) shared.visible = out;
    return out;
  }

  allFields(): string[] {
    if (this.layers.length === 1) return [...this.layers[0]!.fields.keys()];
    return [...this.fieldVisibility().keys()];
  }

  hasField(name: string, includeHidden: boolean): boolean {
    if (includeHidden) return this.findLayer(name, this.layers.length) >= 0;
    const v = this.fieldVisibility().get(name);
    return v === true;
  }
}

export interface Param {
  name: string;
  defaultValue: Node | null;
}

/** A user function (closure) or a builtin. */
export class FuncValue {
  declare readonly params: readonly Param[];
  /** Closure: the literal and its env. */
  declare readonly literal: FunctionLit | null;
  declare readonly env: Env | null;
  /** Builtin: the name (for traces) and the implementation over forced arguments. */
  declare readonly builtinName: string;
  declare readonly builtin: ((args: Thunk[]) => Value) | null;
  /** Builtin defaults for optional parameters, made lazily (a default may be an error). */
  declare readonly defaults: readonly ((() => Thunk) | undefined)[] | null;
  constructor(
    params: readonly Param[],
    literal: FunctionLit | null,
    env: Env | null,
    builtinName: string,
    builtin: ((args: Thunk[]) => Value) | null,
    defaults: readonly ((() => Thunk) | undefined)[] | null,
  ) {
    this.params = params;
    this.literal = literal;
    this.env = env;
    this.builtinName = builtinName;
    this.builtin = builtin;
    this.defaults = defaults;
  }
}

export function typeName(v: Value): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
  }
  if (v instanceof ArrayValue) return 'array';
  if (v instanceof ObjectValue) return 'object';
  return 'function';
}

/** Number of Unicode code points (Jsonnet string length). */
export function codepointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** True if the string has no surrogate pairs, so UTF-16 indexes are code point indexes. */
export function isBmpOnly(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return false;
  }
  return true;
}

export function toCodepoints(s: string): string[] {
  return isBmpOnly(s) ? s.split('') : Array.from(s);
}
