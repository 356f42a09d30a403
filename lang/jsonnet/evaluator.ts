/**
 * The Jsonnet evaluator: a lazy interpreter over the analyzed AST (variables
 * are pre-resolved to Env slots), whose nodes are compiled to closures on
 * first evaluation (compile.ts); this class holds the runtime those closures
 * call (frames, objects, calls, imports, manifesting). Invariants:
 *  - `cur` is the deepest node being evaluated in the current frame; it is
 *    restored on normal return only, so when an error is thrown it still names
 *    the failing node, and `stack` holds each outer frame's `cur` (go-jsonnet's
 *    traceElement per call frame). Thunk forcing, function calls, object field
 *    evaluation and manifestation each open a frame and count toward maxStack;
 *  - tail calls under `tailstrict` are trampolined (no JS stack growth);
 *  - a JS RangeError (stack overflow) or any non-Jsonnet exception never
 *    escapes: the public entry points convert them to JsonnetErrors;
 *  - evaluation performs no I/O: imports go through the injected Importer.
 */
import { SourceFile } from '../common/source.js';
import type { ArrayComp, CompSpec, Node, ObjectComp, ObjectLit } from './ast.js';
import { ImportError, JsonnetError, type TraceFrame } from './errors.js';
import { cachedField, withCachedField, type FieldCache } from './field-cache.js';
import { TextSink } from './text-sink.js';
import { keyFactsOf, layoutOf, sortedJsonCopy, writeJsonText } from './manifest-text.js';
import { formatNumberJson, quoteString, serializeCompact } from './manifest.js';
import { formatFloat } from '../go/strconv.js';
import type { Module, RuntimeOptions } from './module.js';
import { moduleAst, parseSnippet, parseSourceFile } from './module.js';
import { TailCall, codeOf, tailCodeOf } from './compile.js';
import { parseJsonImport } from './json-import.js';
import {
  ArrayValue,
  Env,
  type FieldDef,
  FuncValue,
  Layer,
  ObjectValue,
  SharedFields,
  type SharedNames,
  Thunk,
  type Value,
  isBmpOnly,
  typeName,
  valueFromJson,
} from './value.js';
import type { JsonValue } from '../common/json.js';
import { compareCodepoints, setJsonKey, jsonObject } from '../common/json.js';
import {
  type ModuleGraph,
  type ReuseCounters,
  type ValidationHost,
  contentDigest,
  extVarDefinition,
  extVarFileName,
} from './module-cache.js';

/** What a long-lived (daemon) evaluator keeps to hand module values to later requests. */
export interface ReuseConfig {
  graph: ModuleGraph;
  counters: ReuseCounters;
  maxModules: number;
}

/** One imported module's value; `node` is its graph node (the module's file name). */
interface ImportEntry {
  thunk: Thunk;
  digest: string;
  node: string;
  generation: number;
}

interface ExtVarEntry {
  def: string;
  thunk: Thunk;
  generation: number;
}

const EMPTY_SLOTS: Thunk[] = [];

export type StdBuilder = (ev: Evaluator) => ObjectValue;

export class Evaluator implements ValidationHost {
  /** Deepest active node of the current frame, or a message (go-jsonnet's traceElement). */
  cur: Node | string | null = 'During evaluation';
  private readonly stack: (Node | string | null)[] = [];
  readonly maxStack: number;
  private ticks = 0;
  /** kind + foundAt -> value; in a reusing evaluator also the LRU order (least recent first). */
  private readonly importCache = new Map<string, ImportEntry>();
  private readonly importStrCache = new Map<string, { digest: string; value: Value }>();
  private readonly extVarCache = new Map<string, ExtVarEntry>();
  /** Reuse only: graph node name -> importCache key, and the keys already looked up this request. */
  private readonly keyOfNode = new Map<string, string>();
  private readonly touchedThisRequest = new Set<string>();
  readonly baseStd: ObjectValue;
  private readonly rootEnvs = new Map<string, Env>();

  constructor(
    /** The current request's options (replaced by beginRequest in a reusing evaluator). */
    public options: RuntimeOptions,
    buildStd: StdBuilder,
    /** Set for the daemon's long-lived evaluators (module-cache.ts); null: one evaluation only. */
    private readonly reuse: ReuseConfig | null = null,
  ) {
    this.maxStack = options.maxStack ?? 500;
    this.baseStd = buildStd(this);
  }

  // ---------------------------------------------------------------- reuse across requests

  /**
   * Starts a new request on a reusing evaluator: per-request state (options with the importer,
   * shouldStop, trace sink and ext vars; the frame stack; the cancel poll counter) comes from
   * this request only. Cached values whose inputs changed are dropped here or on first use.
   */
  beginRequest(options: RuntimeOptions): void {
    this.options = options;
    this.cur = 'During evaluation';
    this.stack.length = 0;
    this.ticks = 0;
    const reuse = this.reuse;
    if (reuse === null) return;
    reuse.graph.startRequest();
    this.touchedThisRequest.clear();
    // Name-keyed side tables grow with every file ever seen: keep them in proportion.
    if (this.importStrCache.size > reuse.maxModules) this.importStrCache.clear();
    if (this.rootEnvs.size > 2 * reuse.maxModules) this.rootEnvs.clear();
    for (const [name, e] of this.extVarCache) {
      if (e.def !== extVarDefinition(options, name)) this.dropCached(extVarFileName(name));
    }
    if (reuse.graph.tracedWithoutFile || !reuse.graph.globalReadsValid(this)) this.forgetAll();
  }

  /**
   * Ends a request on a reusing evaluator: keeps only what its values may use between requests
   * (natives, stack limit), not the request's importer, recorder, ext vars or cancel poll.
   */
  endRequest(): void {
    const { natives, maxStack } = this.options;
    this.options = { ...(natives ? { natives } : {}), ...(maxStack !== undefined ? { maxStack } : {}) };
    this.stack.length = 0;
    this.cur = 'During evaluation';
  }

  /** Number of module values held for later requests. */
  cachedModuleCount(): number {
    return this.importCache.size;
  }

  private forgetAll(): void {
    if (this.reuse) this.reuse.counters.invalidated += this.importCache.size;
    this.importCache.clear();
    this.importStrCache.clear();
    this.extVarCache.clear();
    this.keyOfNode.clear();
    this.reuse?.graph.clear();
  }

  /** ValidationHost: re-resolves an import for the current request (its reads are recorded). */
  resolveImport(
    from: string,
    path: string,
    kind: 'import' | 'importstr' | 'importbin',
  ): { foundAt: string; digest: string } | null {
    const importer = this.options.importer;
    if (!importer) return null;
    try {
      const loaded = importer.load(from, path, kind);
      return { foundAt: loaded.foundAt, digest: contentDigest(loaded.contents) };
    } catch {
      // The evaluation that reaches this import again reports the failure itself.
      return null;
    }
  }

  extVarDefinition(name: string): string | undefined {
    return extVarDefinition(this.options, name);
  }

  extVarGeneration(name: string): number | undefined {
    return this.extVarCache.get(name)?.generation;
  }

  dropCached(node: string): void {
    const reuse = this.reuse;
    if (reuse === null) return;
    const x = /^<extvar:(.*)>$/s.exec(node);
    if (x !== null && this.extVarCache.delete(x[1]!)) reuse.counters.invalidated++;
    const key = this.keyOfNode.get(node);
    if (key !== undefined) {
      this.keyOfNode.delete(node);
      if (this.importCache.delete(key)) reuse.counters.invalidated++;
    }
    reuse.graph.dropNode(node);
  }

  /** Code in the file of the current node read ext var `name` (global when no file is current). */
  private recordExtVarRead(name: string, def: string, generation: number): void {
    const at = this.cur;
    const file = at !== null && typeof at !== 'string' ? at.span.file.name : null;
    this.reuse!.graph.addExtVarRead(file, name, { def, generation });
  }

  // ---------------------------------------------------------------- errors

  /** A runtime error at the current position, with the full trace. */
  error(msg: string): JsonnetError {
    const frames: TraceFrame[] = [];
    for (const e of this.stack) frames.push(traceFrame(e));
    // Like go-jsonnet, a frame that has not started evaluating anything adds no line.
    if (this.cur !== null) frames.push(traceFrame(this.cur));
    return new JsonnetError('runtime', msg, undefined, frames);
  }

  typeError(v: Value, expected: string): JsonnetError {
    return this.error(`Unexpected type ${typeName(v)}, expected ${expected}`);
  }

  private enterFrame(): void {
    if (this.stack.length >= this.maxStack) {
      // The daemon logs every limit a render hits (memory-limit.ts), the stack depth too.
      this.options.memoryLimit?.onRefused?.(`max stack frames exceeded (limit ${this.maxStack} frames)`);
      throw this.error('max stack frames exceeded.');
    }
    if ((++this.ticks & 1023) === 0 && this.options.shouldStop?.()) throw this.error('evaluation cancelled');
    this.stack.push(this.cur);
    this.cur = null;
  }

  /**
   * Refuses an allocation of about `bytes` (a low estimate) that cannot fit in the evaluation's
   * memory limit, before any of it is made: the error names what and the limit.
   */
  checkAllocation(what: string, bytes: number): void {
    const limit = this.options.memoryLimit;
    if (limit === undefined || bytes <= limit.bytes) return;
    const message = `${what} needs at least ${formatBytes(bytes)}, more than ${limit.name}`;
    limit.onRefused?.(message);
    throw this.error(message);
  }

  /** For long builtin loops that open no frames: honours shouldStop. */
  poll(): void {
    if (this.options.shouldStop?.()) throw this.error('evaluation cancelled');
  }

  private exitFrame(): void {
    this.cur = this.stack.pop()!;
  }

  /** Runs `fn` in a fresh frame whose caller position is `at`. */
  inFrame<T>(at: Node | string | null, fn: () => T): T {
    const saved = this.cur;
    if (at !== null) this.cur = at;
    this.enterFrame();
    const r = fn();
    this.exitFrame();
    this.cur = saved;
    return r;
  }

  // ---------------------------------------------------------------- thunks

  force(t: Thunk): Value {
    const v = t.value;
    if (v !== undefined) return v;
    this.enterFrame();
    let r: Value;
    if (t.node !== null) r = this.evaluate(t.node, t.env!);
    else r = t.compute!();
    this.exitFrame();
    t.value = r;
    t.node = null;
    t.env = null;
    t.compute = null;
    return r;
  }

  // ---------------------------------------------------------------- entry

  rootEnv(fileName: string): Env {
    let env = this.rootEnvs.get(fileName);
    if (env) return env;
    const thisFile = new Map<string, FieldDef>([
      ['thisFile', { hide: 'hidden', plus: false, body: null, env: null, thunk: Thunk.ready(fileName) }],
    ]);
    const std = new ObjectValue([...this.baseStd.layers, new Layer(thisFile, null, [], null)]);
    env = new Env(null, [Thunk.ready(std)], null, 0);
    this.rootEnvs.set(fileName, env);
    return env;
  }

  /** Evaluates a module's top-level expression in its own root env (in a frame). */
  evaluateModule(m: Module): Value {
    const ast = moduleAst(m);
    const env = this.rootEnv(m.file.name);
    this.enterFrame();
    const v = this.evaluate(ast, env);
    this.exitFrame();
    return v;
  }

  // ---------------------------------------------------------------- core

  /** Runs the node's compiled code (compile.ts), compiling it on first use. */
  evaluate(node: Node, env: Env): Value {
    const code = node.code;
    return code !== undefined ? code(this, env) : codeOf(node)(this, env);
  }

  /** `~v` on a number: Go's int64 complement, as go-jsonnet computes it. */
  bitwiseNot(v: number): number {
    return Number(BigInt.asIntN(64, ~BigInt(toInteger(v))));
  }

  /** A failed `assert e` expression: go-jsonnet desugars it into `if`, so the failing position has no context. */
  desugaredAssertFailure(span: Node['span'], msg: string): JsonnetError {
    this.cur = syntheticNode(span, '');
    return this.error(msg);
  }

  // ---------------------------------------------------------------- binary

  binaryOp(op: string, l: Value, r: Value): Value {
    if (typeof l === 'number' && typeof r === 'number') {
      // Hot path: arithmetic and comparison on numbers.
      switch (op) {
        case '+':
          return this.checkNum(l + r);
        case '-':
          return this.checkNum(l - r);
        case '*':
          return this.checkNum(l * r);
        case '<':
          return l < r;
        case '<=':
          return l <= r;
        case '>':
          return l > r;
        case '>=':
          return l >= r;
        case '==':
          return l === r;
        case '!=':
          return l !== r;
      }
    }
    switch (op) {
      case '+':
        return this.plus(l, r);
      case '-':
        return this.checkNum(this.num(l) - this.num(r));
      case '*':
        return this.checkNum(this.num(l) * this.num(r));
      case '/': {
        const a = this.num(l);
        const b = this.num(r);
        if (b === 0) throw this.error('Division by zero.');
        return this.checkNum(a / b);
      }
      case '%':
        return this.mod(l, r);
      case '==':
        return this.equals(l, r);
      case '!=':
        return !this.equals(l, r);
      case '<':
        return this.compare(l, r) < 0;
      case '<=':
        return this.compare(l, r) <= 0;
      case '>':
        return this.compare(l, r) > 0;
      case '>=':
        return this.compare(l, r) >= 0;
      case 'in': {
        if (typeof l !== 'string') throw this.typeError(l, 'string');
        if (!(r instanceof ObjectValue)) throw this.typeError(r, 'object');
        return r.hasField(l, true);
      }
      case '<<':
      case '>>':
      case '&':
      case '|':
      case '^':
        return this.bitwise(op, l, r);
    }
    throw this.error(`Unknown operator ${op}`);
  }

  num(v: Value): number {
    if (typeof v !== 'number') throw this.typeError(v, 'number');
    return v;
  }

  checkNum(x: number): number {
    if (x - x === 0) return x; // finite (NaN and ±Inf give NaN)
    if (Number.isNaN(x)) throw this.error('Not a number');
    throw this.error('Overflow');
  }

  mod(l: Value, r: Value): Value {
    if (typeof l === 'number' && typeof r === 'number') {
      if (r === 0) throw this.error('Division by zero.');
      return this.checkNum(l % r);
    }
    if (typeof l === 'string') return this.callStd('format', [l, r]);
    throw this.error(`Operator % cannot be used on types ${typeName(l)} and ${typeName(r)}.`);
  }

  /** Calls a std function by name with ready values (for desugared operators). */
  callStd(name: string, args: Value[]): Value {
    const layerField = this.baseStd.layers[0]!.fields.get(name);
    const f = layerField?.thunk?.value;
    if (!(f instanceof FuncValue)) throw this.error(`std.${name} is not available`);
    return this.callFunction(
      f,
      args.map((a) => Thunk.ready(a)),
      null,
      false,
    );
  }

  private bitwise(op: string, l: Value, r: Value): Value {
    const a = this.num(l);
    const b = this.num(r);
    const lim = 9223372036854775807;
    for (const x of [a, b]) {
      if (x < -lim - 1 || x > lim) {
        throw this.error(
          `Bitwise operator argument ${formatFloat(x, 'g', -1)} outside of range [-9223372036854775808, 9223372036854775807]`,
        );
      }
    }
    if ((op === '<<' || op === '>>') && b < 0) throw this.error('Shift by negative exponent.');
    const x = BigInt(toInteger(a));
    const y = BigInt(toInteger(b));
    let res: bigint;
    switch (op) {
      case '<<':
        res = BigInt.asIntN(64, x << (y % 64n));
        break;
      case '>>':
        res = x >> (y % 64n);
        break;
      case '&':
        res = x & y;
        break;
      case '|':
        res = x | y;
        break;
      default:
        res = x ^ y;
    }
    return this.checkNum(Number(res));
  }

  plus(l: Value, r: Value): Value {
    if (typeof r === 'string') {
      return (typeof l === 'string' ? l : this.toStringValue(l)) + r;
    }
    if (typeof l === 'number') {
      if (typeof r !== 'number') throw this.typeError(r, 'number');
      return this.checkNum(l + r);
    }
    if (typeof l === 'string') return l + this.toStringValue(r);
    if (l instanceof ObjectValue) {
      if (!(r instanceof ObjectValue)) throw this.typeError(r, 'object');
      return new ObjectValue(l.layers.concat(r.layers));
    }
    if (l instanceof ArrayValue) {
      if (!(r instanceof ArrayValue)) throw this.typeError(r, 'array');
      return ArrayValue.concat(l, r);
    }
    throw this.error(`Unexpected type ${typeName(l)}`);
  }

  /** std.toString / string concatenation: strings as-is, others as compact JSON. */
  toStringValue(v: Value): string {
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return formatNumberJson(v);
    return serializeCompact(this.manifest(v));
  }

  equals(a: Value, b: Value): boolean {
    if (a === b) return typeof a !== 'object' || a === null || !(a instanceof FuncValue) ? true : this.funcEq();
    // Different primitives, or a primitive and a container: unequal without naming types.
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
    const ta = typeName(a);
    if (ta !== typeName(b)) return false;
    if (a instanceof ArrayValue) {
      const bb = b as ArrayValue;
      if (a.elems.length !== bb.elems.length) return false;
      for (let i = 0; i < a.elems.length; i++) {
        if (!this.equals(this.force(a.elems[i]!), this.force(bb.elems[i]!))) return false;
      }
      return true;
    }
    if (a instanceof ObjectValue) {
      const bo = b as ObjectValue;
      const fa = a.visibleFields().slice().sort();
      const fb = bo.visibleFields().slice().sort();
      if (fa.length !== fb.length) return false;
      for (let i = 0; i < fa.length; i++) if (fa[i] !== fb[i]) return false;
      for (const f of fa) if (!this.equals(this.objectIndex(a, f), this.objectIndex(bo, f))) return false;
      return true;
    }
    if (a instanceof FuncValue) return this.funcEq();
    return false;
  }

  private funcEq(): never {
    throw this.error('Cannot test equality of functions');
  }

  compare(a: Value, b: Value): number {
    if (typeof a === 'number') {
      if (typeof b !== 'number') throw this.typeError(b, 'number');
      return a < b ? -1 : a > b ? 1 : 0;
    }
    if (typeof a === 'string') {
      if (typeof b !== 'string') throw this.typeError(b, 'string');
      return compareStrings(a, b);
    }
    if (a instanceof ArrayValue) {
      if (!(b instanceof ArrayValue)) throw this.typeError(b, 'array');
      const n = Math.min(a.elems.length, b.elems.length);
      for (let i = 0; i < n; i++) {
        const c = this.compare(this.force(a.elems[i]!), this.force(b.elems[i]!));
        if (c !== 0) return c;
      }
      return a.elems.length - b.elems.length < 0 ? -1 : a.elems.length > b.elems.length ? 1 : 0;
    }
    throw this.error(`Unexpected type ${typeName(a)}`);
  }

  // ---------------------------------------------------------------- indexing

  indexValue(target: Value, idx: Value): Value {
    if (target instanceof ObjectValue) {
      if (typeof idx !== 'string') throw this.typeError(idx, 'string');
      return this.objectIndex(target, idx);
    }
    if (target instanceof ArrayValue) {
      if (typeof idx !== 'number') throw this.typeError(idx, 'number');
      const i = Math.trunc(idx);
      const n = target.length;
      if (i < 0 || i >= n || idx !== idx)
        throw this.error(`Index ${formatIndex(idx)} out of bounds, not within [0, ${n})`);
      return this.force(target.at(i));
    }
    if (typeof target === 'string') {
      if (typeof idx !== 'number') throw this.typeError(idx, 'number');
      const i = Math.trunc(idx);
      if (isBmpOnly(target)) {
        if (i < 0 || i >= target.length)
          throw this.error(`Index ${formatIndex(idx)} out of bounds, not within [0, ${target.length})`);
        return target[i]!;
      }
      const cps = Array.from(target);
      if (i < 0 || i >= cps.length)
        throw this.error(`Index ${formatIndex(idx)} out of bounds, not within [0, ${cps.length})`);
      return cps[i]!;
    }
    throw this.error(`Value non indexable: ${goTypeName(target)}`);
  }

  /** self[name]: runs the object's assertions first (once), then the cached field. */
  objectIndex(obj: ObjectValue, name: string): Value {
    if (obj.assertState !== null) this.checkAssertions(obj);
    const cached = cachedField(obj.cache, name);
    if (cached !== undefined) return cached;
    const li = obj.findLayer(name, obj.layers.length);
    if (li < 0) throw this.error(`Field does not exist: ${name}`);
    // A field defined by a thunk (imported JSON, std results, native objects) keeps its value
    // in the thunk: caching it again grew the object's cache array by a copy per field read.
    const def = obj.layers[li]!.fields.get(name)!;
    if (def.thunk !== null) return this.force(def.thunk);
    const v = this.fieldValue(obj, li, name);
    obj.cache = withCachedField(obj.cache, name, v);
    return v;
  }

  /** Used by compiled code (compile.ts). */
  superIndex(env: Env, name: string): Value {
    const self = env.self!;
    if (self.assertState !== null) this.checkAssertions(self);
    if (env.layer <= 0) throw this.error('Attempt to use super when there is no super class.');
    const li = self.findLayer(name, env.layer);
    if (li < 0) throw this.error(`Field does not exist: ${name}`);
    return this.layerFieldValue(self, li, name);
  }

  /**
   * fieldValue cached per (object, layer, field): `super.x` from every layer of a
   * mixin chain otherwise re-evaluates the whole chain below it (inheritance bench:
   * 60 mixins reading super.depth/total/name). The topmost layer shares the main cache.
   */
  private layerFieldValue(obj: ObjectValue, li: number, name: string): Value {
    if (li === obj.layers.length - 1 || obj.findLayer(name, obj.layers.length) === li) {
      const hit = cachedField(obj.cache, name);
      if (hit !== undefined) return hit;
      const v = this.fieldValue(obj, li, name);
      obj.cache = withCachedField(obj.cache, name, v);
      return v;
    }
    const perLayer = (obj.superCache ??= new Array<FieldCache | undefined>(obj.layers.length));
    const hit = cachedField(perLayer[li], name);
    if (hit !== undefined) return hit;
    const v = this.fieldValue(obj, li, name);
    perLayer[li] = withCachedField(perLayer[li], name, v);
    return v;
  }

  /** Evaluates field `name` as defined in layer `li`, with self = obj (a new frame). */
  fieldValue(obj: ObjectValue, li: number, name: string): Value {
    const layer = obj.layers[li]!;
    const def = layer.fields.get(name)!;
    if (def.thunk) return this.force(def.thunk);
    const env = def.env === null ? this.sharedLayerEnv(obj, li, layer) : this.layerEnv(obj, li, layer, def.env);
    this.enterFrame();
    let v = this.evaluate(def.body!, env);
    this.fieldBodyEvaluated(layer, def);
    if (def.plus) {
      const below = obj.findLayer(name, li);
      if (below >= 0) {
        this.cur = syntheticNode(def.body!.span, '+:');
        const left = this.layerFieldValue(obj, below, name);
        v = this.plus(left, v);
      }
    }
    this.exitFrame();
    return v;
  }

  /**
   * Called when a field's body has been evaluated, before a `+:` merges it with super's value
   * (go-jsonnet's order for PlusSuper fields): a no-op; lang/jsonnet/trace.ts notes the field.
   */
  protected fieldBodyEvaluated(_layer: Layer, _def: FieldDef): void {}

  /** The env a field body defined in layer `li` of `obj` is evaluated in (lang/jsonnet/trace.ts reads it). */
  fieldBodyEnv(obj: ObjectValue, li: number, def: FieldDef): Env {
    const layer = obj.layers[li]!;
    return def.env === null ? this.sharedLayerEnv(obj, li, layer) : this.layerEnv(obj, li, layer, def.env);
  }

  /**
   * layerEnv made once per (object, layer) for bodies that close over the layer's own
   * env: object locals are then evaluated once per object, not once per field read
   * (kube-lib: `local this = self` gave every field read an Env, a slots array and a
   * thunk). Values are the same either way: locals are pure functions of self and env.
   */
  private sharedLayerEnv(obj: ObjectValue, li: number, layer: Layer): Env {
    // Without locals nothing is worth keeping: caching this Env too (an array and an Env per
    // object) raised kube-lib's peak RSS from 73 to 78-79 MiB; a short-lived Env is cheaper.
    if (layer.literal!.frameSize === 0) return new Env(layer.closure, EMPTY_SLOTS, obj, li);
    const envs = (obj.layerEnvs ??= new Array<Env | undefined>(obj.layers.length));
    return (envs[li] ??= this.layerEnv(obj, li, layer, layer.closure!));
  }

  /** The env for code inside layer `li` of `obj`: object locals and `$`, with self bound. */
  private layerEnv(obj: ObjectValue, li: number, layer: Layer, closure: Env): Env {
    const lit = layer.literal!;
    const slots = lit.frameSize > 0 ? new Array<Thunk>(lit.frameSize) : EMPTY_SLOTS;
    const env = new Env(closure, slots, obj, li);
    const locals = lit.locals;
    for (let i = 0; i < locals.length; i++) slots[i] = Thunk.lazy(locals[i]!.body, env);
    if (lit.dollarIndex >= 0) slots[lit.dollarIndex] = Thunk.ready(obj);
    return env;
  }

  checkAssertions(obj: ObjectValue): void {
    if (obj.assertState === null) return;
    if (obj.assertState !== undefined) throw obj.assertState;
    if (!obj.hasAsserts()) {
      obj.assertState = null;
      return;
    }
    obj.assertState = null;
    try {
      for (let li = obj.layers.length - 1; li >= 0; li--) {
        const layer = obj.layers[li]!;
        if (layer.asserts.length === 0) continue;
        const closure = layer.closure!;
        const env =
          closure === layer.closure ? this.sharedLayerEnv(obj, li, layer) : this.layerEnv(obj, li, layer, closure);
        for (const a of layer.asserts) {
          const saved = this.cur;
          this.enterFrame();
          this.cur = a.cond;
          const c = this.evaluate(a.cond, env);
          if (typeof c !== 'boolean') throw this.typeError(c, 'boolean');
          if (!c) {
            let msg = 'Object assertion failed.';
            if (a.msg) {
              const m = this.evaluate(a.msg, env);
              msg = typeof m === 'string' ? m : this.toStringValue(m);
            }
            // go-jsonnet desugars asserts; the failing node spans the assert, with no context.
            this.cur = syntheticNode(a.span, '');
            throw this.error(msg);
          }
          this.exitFrame();
          this.cur = saved;
        }
      }
    } catch (e) {
      // Not cached: one evaluation stops at its first error anyway, and a reused object must
      // not replay an old request's failure (a cancellation, or a trace from other frames).
      obj.assertState = undefined;
      throw e;
    }
  }

  // ---------------------------------------------------------------- objects

  /** Used by compiled code (compile.ts). */
  makeObject(node: ObjectLit, env: Env): ObjectValue {
    const shared = sharedFieldsOf(node);
    if (shared !== null) {
      // Static names: no per-instance Map or FieldDefs (kube-lib spent over half its
      // time in GC, mostly on these); the bodies close over the layer's env.
      const obj = new ObjectValue([new Layer(shared.fields, node, node.asserts, env, shared)]);
      if (node.asserts.length === 0) obj.assertState = null;
      return obj;
    }
    const fields = new Map<string, FieldDef>();
    const saved = this.cur;
    for (const f of node.fields) {
      let name: string;
      if (f.name !== null) name = f.name;
      else {
        this.cur = node;
        const n = this.evaluate(f.nameExpr!, env);
        this.cur = node;
        if (n === null) continue;
        if (typeof n !== 'string') throw this.error(`Field name must be string, got ${typeName(n)}`);
        name = n;
      }
      if (fields.has(name)) {
        this.cur = node;
        throw this.error(`Duplicate field name: ${quoteJson(name)}`);
      }
      fields.set(name, { hide: f.hide, plus: f.plus, body: f.body, env: null, thunk: null });
    }
    this.cur = saved;
    const layer = new Layer(fields, node, node.asserts, env);
    const obj = new ObjectValue([layer]);
    if (node.asserts.length === 0) obj.assertState = null;
    return obj;
  }

  // Comprehensions mirror go-jsonnet's desugaring into std.flatMap calls: the
  // comprehension itself is a context-less trace position, and every `for`
  // iteration runs in its own frame (a call of the desugared function).
  /** Used by compiled code (compile.ts). */
  makeObjectComp(node: ObjectComp, env: Env): ObjectValue {
    const fields = new Map<string, FieldDef>();
    const found: [string, Env][] = [];
    const saved = this.cur;
    const compNode = syntheticNode(node.span, '');
    this.cur = compNode;
    this.forEachComp(node.specs, 0, env, compNode, (inner) => {
      const n = this.evaluate(node.field.nameExpr!, inner);
      this.cur = node;
      if (n === null) return;
      if (typeof n !== 'string') throw this.error(`Field name must be string, got ${typeName(n)}`);
      found.push([n, inner]);
    });
    this.cur = compNode;
    for (const [n, inner] of found) {
      if (fields.has(n)) throw this.error(`Duplicate field name: ${quoteJson(n)}`);
      fields.set(n, { hide: 'inherit', plus: node.field.plus, body: node.field.body, env: inner, thunk: null });
    }
    this.cur = saved;
    const layer = new Layer(fields, node, [], env);
    const obj = new ObjectValue([layer]);
    obj.assertState = null;
    return obj;
  }

  /** Used by compiled code (compile.ts). */
  makeArrayComp(node: ArrayComp, env: Env): ArrayValue {
    const out: Thunk[] = [];
    const saved = this.cur;
    const compNode = syntheticNode(node.span, '');
    this.cur = compNode;
    this.forEachComp(node.specs, 0, env, compNode, (inner) => {
      out.push(Thunk.lazy(node.body, inner));
    });
    this.cur = saved;
    return new ArrayValue(out);
  }

  private forEachComp(specs: CompSpec[], i: number, env: Env, compNode: Node, emit: (env: Env) => void): void {
    if (i >= specs.length) {
      emit(env);
      return;
    }
    const s = specs[i]!;
    if (s.kind === 'if') {
      const c = this.evaluate(s.cond, env);
      if (typeof c !== 'boolean') {
        // go-jsonnet checks the desugared `if` at a position without a location.
        this.cur = '';
        throw this.typeError(c, 'boolean');
      }
      if (c) this.forEachComp(specs, i + 1, env, compNode, emit);
      return;
    }
    const arr = this.evaluate(s.expr, env);
    this.cur = compNode;
    if (!(arr instanceof ArrayValue)) {
      if (typeof arr === 'string' && arr.length > 0) throw this.typeError(new ArrayValue([]), 'string');
      if (typeof arr !== 'string')
        throw this.error(`std.flatMap second param must be array / string, got ${typeName(arr)}`);
      return;
    }
    for (const t of arr.elems) {
      this.enterFrame();
      this.forEachComp(specs, i + 1, new Env(env, [t], env.self, env.layer), compNode, emit);
      this.exitFrame();
    }
  }

  // ---------------------------------------------------------------- slices

  slice(target: Value, b: Value, e: Value, s: Value): Value {
    let len: number;
    let codepoints: string[] | null = null;
    if (typeof target === 'string') {
      // A string without surrogate pairs is indexed by UTF-16 units directly (no code point array).
      if (isBmpOnly(target)) len = target.length;
      else len = (codepoints = Array.from(target)).length;
    } else if (target instanceof ArrayValue) len = target.length;
    else throw this.error(`std.slice accepts a string or an array, but got: ${typeName(target)}`);
    const intArg = (v: Value, what: string, dflt: number): number => {
      if (v === null) return dflt;
      if (typeof v !== 'number') throw this.error(`${what} must be a number, got ${typeName(v)}`);
      if (!Number.isInteger(v)) throw this.error(`Expected an integer, but got ${formatNumberJson(v)}`);
      return v;
    };
    let from = intArg(b, 'index', 0);
    let to = intArg(e, 'end', len);
    const step = intArg(s, 'step', 1);
    if (step <= 0) throw this.error(`got [${from}:${to}:${step}] but negative steps are not supported`);
    if (from < 0) from = Math.max(0, len + from);
    if (to < 0) to = Math.max(0, len + to);
    to = Math.min(to, len);
    if (target instanceof ArrayValue) return ArrayValue.slice(target, Math.min(from, len), to, step);
    const str = target;
    if (codepoints === null && step === 1) return from < to ? str.substring(from, to) : '';
    let out = '';
    for (let i = from; i < to; i += step) out += codepoints !== null ? codepoints[i] : str[i];
    return out;
  }

  // ---------------------------------------------------------------- calls

  /** Binds arguments to parameter slots with go-jsonnet's checks and messages. */
  private bindArgs(fn: FuncValue, positional: Thunk[], named: [string, Thunk][] | null): (Thunk | undefined)[] {
    const params = fn.params;
    // Fast path: all parameters given positionally (the arguments array is fresh per call).
    if (named === null && positional.length === params.length) return positional;
    if (positional.length > params.length) {
      throw this.error(`function expected ${params.length} positional argument(s), but got ${positional.length}`);
    }
    const slots = new Array<Thunk | undefined>(params.length);
    for (let i = 0; i < positional.length; i++) slots[i] = positional[i];
    if (named) {
      for (const [name, t] of named) {
        const idx = params.findIndex((p) => p.name === name);
        if (idx >= 0 && slots[idx] !== undefined) throw this.error(`Argument ${name} already provided`);
        if (idx < 0) throw this.error(`function has no parameter ${name}`);
        slots[idx] = t;
      }
    }
    for (let i = 0; i < params.length; i++) {
      if (
        slots[i] === undefined &&
        params[i]!.defaultValue === null &&
        !(fn.defaults && fn.defaults[i] !== undefined)
      ) {
        throw this.error(`Missing argument: ${params[i]!.name}`);
      }
    }
    return slots;
  }

  callFunction(fn: FuncValue, positional: Thunk[], named: [string, Thunk][] | null, tailstrict: boolean): Value {
    if (fn.builtin) {
      const slots = this.bindArgs(fn, positional, named);
      for (let i = 0; i < slots.length; i++) if (slots[i] === undefined) slots[i] = fn.defaults![i]!();
      return fn.builtin(slots as Thunk[]);
    }
    let f = fn;
    let pos = positional;
    let nm = named;
    let trimmable = tailstrict;
    for (;;) {
      const slotsOpt = this.bindArgs(f, pos, nm);
      const lit = f.literal!;
      const env = new Env(f.env, slotsOpt as Thunk[], f.env!.self, f.env!.layer);
      for (let i = 0; i < slotsOpt.length; i++) {
        if (slotsOpt[i] === undefined) slotsOpt[i] = Thunk.lazy(lit.params[i]!.defaultValue!, env);
      }
      // tailstrict also forces defaulted parameters (from the call site, as go-jsonnet).
      if (trimmable) for (const t of slotsOpt) this.force(t!);
      this.enterFrame();
      const r = trimmable ? tailCodeOf(lit)(this, env) : this.evaluate(lit.body, env);
      this.exitFrame();
      if (!(r instanceof TailCall)) return r;
      // A call in tail position of a tailstrict frame replaces that frame (go-jsonnet's
      // tailCallTrimStack), so deep tail recursion neither grows the stack nor the JS stack.
      f = r.fn;
      pos = r.positional;
      nm = r.named;
      trimmable = r.node.tailstrict;
      this.cur = r.node;
    }
  }

  /** Calls a function value from a builtin with ready arguments. */
  call(fn: Value, args: Value[]): Value {
    if (!(fn instanceof FuncValue)) throw this.typeError(fn, 'function');
    return this.callFunction(
      fn,
      args.map((a) => Thunk.ready(a)),
      null,
      false,
    );
  }

  callThunks(fn: FuncValue, args: Thunk[]): Value {
    return this.callFunction(fn, args, null, false);
  }

  // ---------------------------------------------------------------- imports

  /** Used by compiled code (compile.ts). */
  evalImport(kind: 'import' | 'importstr' | 'importbin', path: string, from: string): Value {
    const importer = this.options.importer;
    let loaded: ReturnType<NonNullable<RuntimeOptions['importer']>['load']>;
    try {
      if (!importer) throw new ImportError(`couldn't open import ${quoteJson(path)}: no importer configured`);
      loaded = importer.load(from, path, kind);
    } catch (e) {
      if (e instanceof JsonnetError) throw e;
      throw this.error(e instanceof Error ? e.message : String(e));
    }
    const key = kind + '\0' + loaded.foundAt;
    const reuse = this.reuse;
    const digest = reuse !== null ? contentDigest(loaded.contents) : '';
    if (kind === 'import') {
      let entry = this.importCache.get(key);
      if (reuse !== null && !this.touchedThisRequest.has(key)) {
        // First use in this request: a value from an earlier request must have an unchanged closure.
        this.touchedThisRequest.add(key);
        if (entry !== undefined) {
          if (entry.digest === digest && reuse.graph.closureValid(entry.node, entry.generation, this)) {
            reuse.counters.hits++;
            this.importCache.delete(key);
            this.importCache.set(key, entry);
          } else {
            this.dropCached(entry.node);
            entry = undefined;
          }
        }
      }
      if (entry === undefined && !loaded.module && loaded.foundAt.endsWith('.json')) {
        const json = parseJsonImport(decodeUtf8(loaded.contents));
        if (json !== undefined)
          entry = this.newImportEntry(key, Thunk.ready(valueFromJson(json.value, json.depth)), loaded.foundAt, digest);
      }
      if (entry === undefined) {
        let m = loaded.module;
        if (!m) {
          try {
            m = parseSourceFile(
              new SourceFile(loaded.foundAt, decodeUtf8(loaded.contents)),
              this.options.parseCache,
              loaded.contents,
            );
          } catch (e) {
            if (e instanceof JsonnetError) throw this.error(e.format().replace(/\n[\s\S]*$/, ''));
            throw e;
          }
        }
        const mod = m;
        const thunk = Thunk.computed(() => this.evaluate(moduleAst(mod), this.rootEnv(mod.file.name)));
        entry = this.newImportEntry(key, thunk, mod.file.name, digest);
      }
      if (reuse !== null) {
        reuse.graph.addImport(from, {
          kind,
          path,
          foundAt: loaded.foundAt,
          digest,
          target: entry.node,
          generation: entry.generation,
        });
      }
      return this.force(entry.thunk);
    }
    let s = this.importStrCache.get(key);
    if (s === undefined || s.digest !== digest) {
      const value =
        kind === 'importstr'
          ? decodeUtf8(loaded.contents)
          : new ArrayValue(Array.from(loaded.contents, (b) => Thunk.ready(b)));
      s = { digest, value };
      this.importStrCache.set(key, s);
    }
    if (reuse !== null)
      reuse.graph.addImport(from, { kind, path, foundAt: loaded.foundAt, digest, target: '', generation: 0 });
    return s.value;
  }

  private newImportEntry(key: string, thunk: Thunk, node: string, digest: string): ImportEntry {
    const entry: ImportEntry = { thunk, digest, node, generation: 0 };
    const reuse = this.reuse;
    if (reuse !== null) {
      reuse.counters.misses++;
      entry.generation = reuse.graph.createNode(entry.node, digest);
      this.keyOfNode.set(entry.node, key);
      this.evictOverBound(reuse.maxModules);
    }
    this.importCache.set(key, entry);
    return entry;
  }

  /** Least recently used module values go first (values built on them fail their next check and are rebuilt). */
  private evictOverBound(max: number): void {
    while (this.importCache.size >= max) {
      const oldest = this.importCache.entries().next().value;
      if (oldest === undefined) return;
      this.importCache.delete(oldest[0]);
      this.keyOfNode.delete(oldest[1].node);
      this.reuse!.graph.dropNode(oldest[1].node);
    }
  }

  // ---------------------------------------------------------------- ext vars

  extVar(name: string): Value {
    const ev = this.options.extVars?.[name];
    if (!ev || !Object.prototype.hasOwnProperty.call(this.options.extVars, name)) {
      throw this.error(`Undefined external variable: ${name}`);
    }
    const def = ev.kind + '\0' + ev.value;
    const reuse = this.reuse;
    if (ev.kind === 'string') {
      if (reuse !== null) this.recordExtVarRead(name, def, 0);
      return ev.value;
    }
    let entry = this.extVarCache.get(name);
    if (
      entry !== undefined &&
      reuse !== null &&
      !reuse.graph.closureValid(extVarFileName(name), entry.generation, this)
    ) {
      this.dropCached(extVarFileName(name));
      entry = undefined;
    }
    if (entry === undefined) {
      const m = this.parseCodeVar(extVarFileName(name), ev.value);
      const thunk = Thunk.computed(() => this.evaluate(moduleAst(m), this.rootEnv(m.file.name)));
      const generation = reuse !== null ? reuse.graph.createNode(extVarFileName(name), def) : 0;
      entry = { def, thunk, generation };
      this.extVarCache.set(name, entry);
    }
    if (reuse !== null) this.recordExtVarRead(name, def, entry.generation);
    return this.force(entry.thunk);
  }

  /** Parses ext-var/TLA code; its static errors are reported as such (as go-jsonnet does). */
  parseCodeVar(name: string, code: string): Module {
    return parseSnippet(name, code);
  }

  // ---------------------------------------------------------------- manifest

  /** Forces a value deeply to plain JSON, with go-jsonnet's manifestation frames. */
  manifest(v: Value): JsonValue {
    if (v === null || typeof v !== 'object') return v;
    const json = this.passThroughJson(v);
    if (json !== undefined) return sortedJsonCopy(json);
    this.enterFrame();
    let out: JsonValue;
    if (v instanceof ArrayValue) {
      const arr: JsonValue[] = new Array(v.elems.length);
      for (let i = 0; i < v.elems.length; i++) {
        this.cur = elementPosition(i);
        arr[i] = this.manifest(this.force(v.elems[i]!));
      }
      out = arr;
    } else if (v instanceof ObjectValue) {
      const names = v.sortedVisibleFields(compareStrings);
      this.cur = 'Checking object assertions';
      this.checkAssertions(v);
      const positions = sharedPositions(v, names)?.positions ?? null;
      const obj = jsonObject([]);
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        this.cur = positions !== null ? positions[i]! : keyFactsOf(name)[1];
        setJsonKey(obj, name, this.manifest(this.objectIndex(v, name)));
      }
      out = obj;
    } else {
      throw this.error("couldn't manifest function as JSON");
    }
    this.exitFrame();
    return out;
  }

  /**
   * manifest + serializeJson in one pass, with the same traversal order, frames and
   * errors as manifest(): the output of the default mode is written straight from
   * the values, so no JsonValue tree is built and sorted again (kube-lib, manifest
   * benches: the tree was a tenth of the peak heap and of the allocations).
   */
  manifestText(v: Value, multiline: boolean, indent: string, trailer = ''): string {
    return this.manifestToSink(v, multiline, indent, trailer, new TextSink()).text();
  }

  /** manifestText's text as UTF-8 bytes, encoded chunk by chunk as it is written (see TextSink). */
  manifestBytes(v: Value, multiline: boolean, indent: string, trailer = ''): Uint8Array {
    return this.manifestToSink(v, multiline, indent, trailer, new TextSink(true)).bytes();
  }

  private manifestToSink(v: Value, multiline: boolean, indent: string, trailer: string, sink: TextSink): TextSink {
    this.manifestInto(v, multiline, indent, sink);
    // Inside the sink's one join: `text + '\n'` after it would be a cons string of the whole
    // output, flattened (copied, 2 bytes per character once any is non-Latin-1) by its first reader.
    if (trailer !== '') sink.write(trailer);
    return sink;
  }

  /** Writes the text of `v` to `out` (see TextSink for why not `+=`). */
  private manifestInto(v: Value, multiline: boolean, indent: string, out: TextSink): void {
    if (v === null) {
      out.write('null');
      return;
    }
    switch (typeof v) {
      case 'boolean':
        out.write(v ? 'true' : 'false');
        return;
      case 'number':
        out.write(formatNumberJson(v));
        return;
      case 'string':
        out.write(quoteString(v));
        return;
    }
    const json = this.passThroughJson(v);
    if (json !== undefined) {
      writeJsonText(json, multiline, indent, out);
      return;
    }
    this.enterFrame();
    const layout = layoutOf(indent, multiline);
    if (v instanceof ArrayValue) {
      const elems = v.elems;
      if (elems.length === 0) out.write('[ ]');
      else {
        out.write(layout.arrayOpen);
        for (let i = 0; i < elems.length; i++) {
          this.cur = elementPosition(i);
          if (i > 0) out.write(layout.between);
          this.manifestInto(this.force(elems[i]!), multiline, layout.inner, out);
        }
        out.write(layout.arrayClose);
      }
    } else if (v instanceof ObjectValue) {
      const names = v.sortedVisibleFields(compareStrings);
      this.cur = 'Checking object assertions';
      this.checkAssertions(v);
      if (names.length === 0) out.write('{ }');
      else {
        const shared = sharedPositions(v, names);
        const positions = shared !== null ? shared.positions! : null;
        const keys = shared !== null ? shared.quotedNames! : null;
        out.write(layout.objectOpen);
        for (let i = 0; i < names.length; i++) {
          const name = names[i]!;
          let key: string;
          if (positions !== null) {
            this.cur = positions[i]!;
            key = keys![i]!;
          } else {
            const f = keyFactsOf(name);
            this.cur = f[1];
            key = f[2];
          }
          if (i > 0) out.write(layout.between);
          out.write(key);
          this.manifestInto(this.objectIndex(v, name), multiline, layout.inner, out);
        }
        out.write(layout.objectClose);
      }
    } else {
      throw this.error("couldn't manifest function as JSON");
    }
    this.exitFrame();
  }

  /**
   * The JSON an imported value was read from, when manifesting may write it as it is: the
   * value is that JSON converted (no layers added, nothing to force, no asserts), so only the
   * frame limit could make a difference, and its nesting (at most the document's depth)
   * stays below the limit from here. Otherwise undefined, and the value is walked as any other.
   */
  private passThroughJson(v: ArrayValue | ObjectValue | FuncValue): JsonValue | undefined {
    let json: JsonValue | null = null;
    let depth = 0;
    if (v instanceof ObjectValue) {
      if (v.layers.length !== 1) return undefined;
      const layer = v.layers[0]!;
      json = layer.json;
      depth = layer.jsonDepth;
    } else if (v instanceof ArrayValue) {
      json = v.json;
      depth = v.jsonDepth;
    }
    if (json === null || this.stack.length + depth >= this.maxStack) return undefined;
    return json;
  }

  /** Converts plain JSON back into a value (for natives and pure std functions). */
  fromJson(j: JsonValue): Value {
    if (j === null || typeof j !== 'object') return j;
    if (Array.isArray(j)) return new ArrayValue(j.map((x) => Thunk.ready(this.fromJson(x))));
    const fields = new Map<string, FieldDef>();
    for (const k of Object.keys(j)) {
      fields.set(k, { hide: 'inherit', plus: false, body: null, env: null, thunk: Thunk.ready(this.fromJson(j[k]!)) });
    }
    const o = new ObjectValue([new Layer(fields, null, [], null)]);
    o.assertState = null;
    return o;
  }

  // ---------------------------------------------------------------- helpers for std

  /** A native object from ready or lazy values (visible fields). */
  makeNativeObject(entries: Iterable<[string, Thunk]>, hide: 'inherit' | 'hidden' = 'inherit'): ObjectValue {
    const fields = new Map<string, FieldDef>();
    for (const [k, t] of entries) fields.set(k, { hide, plus: false, body: null, env: null, thunk: t });
    const o = new ObjectValue([new Layer(fields, null, [], null)]);
    o.assertState = null;
    return o;
  }

  /** Lets builtins position their errors at the node currently being evaluated. */
  functionArity(f: FuncValue): number {
    if (f.literal) return f.params.filter((p) => p.defaultValue === null).length;
    return f.params.filter((_, i) => !(f.defaults && f.defaults[i] !== undefined)).length;
  }

  traceMessage(msg: string): void {
    const node = this.cur;
    let where = '';
    if (node && typeof node !== 'string') {
      where = `${node.span.file.name}:${node.span.file.position(node.span.start).line}`;
    }
    // A value whose computation printed a trace is not handed to later requests: they would miss the line.
    this.reuse?.graph.markTraced(node && typeof node !== 'string' ? node.span.file.name : null);
    this.options.trace?.(`TRACE: ${where} ${msg}`);
  }
}

const sharedTables = new WeakMap<ObjectLit, SharedFields | null>();

/** The literal's shared definitions table, or null when a name is computed or repeated. */
function sharedFieldsOf(node: ObjectLit): SharedFields | null {
  let s = sharedTables.get(node);
  if (s !== undefined) return s;
  const fields = new Map<string, FieldDef>();
  s = new SharedFields(fields);
  for (const f of node.fields) {
    if (f.name === null || fields.has(f.name)) {
      s = null;
      break;
    }
    fields.set(f.name, { hide: f.hide, plus: f.plus, body: f.body, env: null, thunk: null });
  }
  sharedTables.set(node, s);
  return s;
}

/** A stand-in node for trace positions go-jsonnet reports on desugared code. */
function syntheticNode(span: Node['span'], ctx: string): Node {
  return { type: 'Null', span, ctx };
}

/** The integer part, as Go's int64(x) conversion keeps it for in-range values. */
function toInteger(v: number): number {
  return Math.trunc(v);
}

/**
 * Manifest trace positions are strings (`cur`), made for every field and element
 * written; kube-lib writes 40,000 of them. Those of an object literal with static
 * names are made once per literal, with its quoted keys; element positions once per index.
 */
function sharedPositions(obj: ObjectValue, names: string[]): SharedNames | null {
  const shared = obj.sharedNames();
  if (shared === null || shared.sortedVisible !== names) return null;
  if (shared.positions === undefined) {
    shared.quotedNames = names.map((n) => keyFactsOf(n)[2]);
    shared.positions = names.map((n) => keyFactsOf(n)[1]);
  }
  return shared;
}

const elementPositions: string[] = [];
const CACHED_ELEMENT_POSITIONS = 4096;

function elementPosition(i: number): string {
  if (i >= CACHED_ELEMENT_POSITIONS) return `Array element ${i}`;
  return (elementPositions[i] ??= `Array element ${i}`);
}

function traceFrame(e: Node | string | null): TraceFrame {
  if (e === null) return { span: '', name: '' };
  if (typeof e === 'string') return { span: e, name: '' };
  return { span: e.span, name: e.ctx };
}

/** Orders strings by Unicode code point (Go/Jsonnet string order); the one definition lives in lang/common. */
export const compareStrings = compareCodepoints;

/** Go's reflect type names, as go-jsonnet prints them for "Value non indexable". */
function goTypeName(v: Value): string {
  if (v === null) return '*jsonnet.valueNull';
  switch (typeof v) {
    case 'boolean':
      return '*jsonnet.valueBoolean';
    case 'number':
      return '*jsonnet.valueNumber';
  }
  return '*jsonnet.valueFunction';
}

function formatIndex(n: number): string {
  return String(Math.trunc(n));
}

function quoteJson(s: string): string {
  return serializeCompact(s);
}

function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GiB`;
  return `${Math.ceil(n / 1024 ** 2)} MiB`;
}
