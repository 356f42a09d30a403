/**
 * "Where was this value defined?" (kubecfg traceback, eval --trace; the
 * ursonnet question): evaluates a module and follows a value path, or the
 * value of a snippet, back to the expression that produced it.
 *
 * Rules, applied from the field that holds the value:
 *  - a field's value comes from its topmost definition, so `+:` overlays and
 *    `a + b` lead to the last layer that defines the field (the overlay);
 *  - a variable leads to what it is bound to: a local's body, the argument a
 *    caller passed for a parameter (literals included), a parameter's default;
 *  - `x.f`, `x[i]`, `super.f`, `self.f`, `$.f` lead to the definition of that
 *    field or element; `local` and `if` lead into the body / taken branch;
 *  - anything computed (a call, an operator, a comprehension) stops there:
 *    the answer is the line of that expression;
 *  - an object or array written in place is named by its field's line.
 * One answer, not ursonnet's list of every field passed (docs/traceback.md).
 * Invariants: pure (no I/O; imports go through options.importer); it only
 * forces what the path or the references need, with the evaluator's own
 * caches, so the answer is the value kubecfg would print; a cycle of
 * references ends after MAX_HOPS; every failure is a JsonnetError or a
 * TraceError, never a raw JS exception.
 */
import type { Span } from '../common/source.js';
import type { Node, ObjField } from './ast.js';
import { ImportError, JsonnetError } from './errors.js';
import { Evaluator } from './evaluator.js';
import { moduleAst, type Module, type RuntimeOptions } from './module.js';
import { pureStdTable } from './std/pure-link.js';
import { applyTopLevelArgs } from './top-level-args.js';
import { buildStd } from './std/registry.js';
import {
  ArrayValue,
  Env,
  FuncValue,
  ObjectValue,
  Thunk,
  typeName,
  type FieldDef,
  type Layer,
  type Value,
} from './value.js';

/** One step of a value path: a field name or an array index. */
export type PathStep = string | number;

/** Where a value was defined: the file's display name, 1-based line and column. */
export interface TracedLocation {
  file: string;
  line: number;
  column: number;
}

/** The path does not exist in the value (names the step and the path up to it). */
export class TraceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceError';
  }
}

/** An expression and the env its variables resolve in (null: a literal needing none). */
interface Site {
  node: Node;
  env: Env | null;
  /** Where to point instead of node's start (a field whose object or array starts on a later line). */
  span?: Span;
}

const CONTAINERS = new Set(['Object', 'ObjectComp', 'Array', 'ArrayComp']);

const MAX_HOPS = 10_000;

/**
 * An evaluator that remembers where each thunk came from: the code of a
 * lazy thunk before forcing drops it, and the literal a caller passed
 * (literal arguments become ready thunks with no code).
 */
class TracingEvaluator extends Evaluator {
  readonly origins = new WeakMap<Thunk, Site>();

  override force(t: Thunk): Value {
    if (t.value === undefined && t.node !== null && !this.origins.has(t))
      this.origins.set(t, { node: t.node, env: t.env });
    return super.force(t);
  }

  override callFunction(
    fn: FuncValue,
    positional: Thunk[],
    named: [string, Thunk][] | null,
    tailstrict: boolean,
  ): Value {
    const at = this.cur;
    if (fn.literal !== null && at !== null && typeof at !== 'string' && at.type === 'Apply') {
      const nodes = at.positional;
      for (let i = 0; i < positional.length && i < nodes.length; i++) {
        const t = positional[i]!;
        const n = nodes[i]!;
        // Only a literal written at this call makes a ready thunk holding exactly its value (a
        // builtin calling a function back runs under its own call node: the values tell them apart).
        const literal =
          n.type === 'Null'
            ? null
            : n.type === 'Bool' || n.type === 'String' || n.type === 'Number'
              ? n.value
              : undefined;
        if (literal !== undefined && t.value === literal && t.node === null && !this.origins.has(t))
          this.origins.set(t, { node: n, env: null });
      }
    }
    return super.callFunction(fn, positional, named, tailstrict);
  }
}

function newTracer(options: RuntimeOptions): TracingEvaluator {
  return new TracingEvaluator(options, (ev) => buildStd(ev, pureStdTable));
}

/** Turns stray JS exceptions into located JsonnetErrors, as the engine's public entry points do. */
function guarded<T>(ev: Evaluator, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof JsonnetError || e instanceof TraceError) throw e;
    if (e instanceof RangeError && /call stack/i.test(e.message)) throw ev.error('max stack frames exceeded.');
    if (e instanceof RangeError) throw ev.error(`value too large: ${e.message}`);
    if (e instanceof ImportError) throw ev.error(e.message);
    throw ev.error(`internal error: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  }
}

function locationOf(span: Span): TracedLocation {
  const p = span.file.position(span.start);
  return { file: span.file.name, line: p.line, column: p.column };
}

/** kubecfg's spelling of a path prefix, for messages: `$.a["b-c"][0]`. */
function describePath(path: readonly PathStep[], upTo: number): string {
  let out = '$';
  for (const step of path.slice(0, upTo)) {
    out +=
      typeof step === 'number'
        ? `[${step}]`
        : /^[A-Za-z_][A-Za-z0-9_]*$/.test(step)
          ? `.${step}`
          : `[${JSON.stringify(step)}]`;
  }
  return out;
}

class Tracer {
  private hops = 0;
  constructor(private readonly ev: TracingEvaluator) {}

  private hop(): void {
    if (++this.hops > MAX_HOPS) throw this.ev.error('traceback: too many references to follow (a cycle?)');
  }

  /** Where a thunk's value came from, or null when it was made by native code. */
  thunkSite(t: Thunk): Site | null {
    const origin = t.node !== null ? { node: t.node, env: t.env } : this.ev.origins.get(t);
    return origin ? this.resolve(origin.node, origin.env) : null;
  }

  /** Where the value of field `name` of `obj` came from: its topmost definition. */
  fieldSite(obj: ObjectValue, name: string): Site | null {
    const li = obj.findLayer(name, obj.layers.length);
    if (li < 0) return null;
    const layer = obj.layers[li]!;
    const def = layer.fields.get(name)!;
    if (!def.body) return def.thunk ? this.thunkSite(def.thunk) : null;
    const site = this.resolve(def.body, this.ev.fieldBodyEnv(obj, li, def));
    // An object or array written right here is named by its field's line (`data:` above its block in YAKL).
    if (site.node === def.body && CONTAINERS.has(site.node.type) && layer.literal?.type === 'Object') {
      const field = layer.literal.fields.find((f) => f.body === def.body);
      if (field) return { ...site, span: field.span };
    }
    return site;
  }

  /** Element `i` of an array whose value was produced at `site`. */
  elementSite(arr: ArrayValue, i: number, site: Site | null): Site | null {
    const fromThunk = this.thunkSite(arr.elems[i]!);
    if (fromThunk) return fromThunk;
    // Literal elements are ready values; an array literal still says where each one is.
    if (site && site.node.type === 'Array' && site.node.elements.length === arr.elems.length)
      return this.resolve(site.node.elements[i]!, site.env);
    return null;
  }

  /** Follows references from `node` to the expression that produced its value. */
  resolve(node: Node, env: Env | null): Site {
    this.hop();
    const ev = this.ev;
    if (env === null) return { node, env };
    switch (node.type) {
      case 'Var': {
        let e = env;
        for (let d = node.depth; d > 0; d--) e = e.parent!;
        const t = e.slots[node.index];
        return (t && this.thunkSite(t)) ?? { node, env };
      }
      case 'Index': {
        const target = ev.evaluate(node.target, env);
        const idx = node.id !== null ? node.id : ev.evaluate(node.index, env);
        if (target instanceof ObjectValue && typeof idx === 'string')
          return this.fieldSite(target, idx) ?? { node, env };
        if (target instanceof ArrayValue && typeof idx === 'number') {
          const i = Math.trunc(idx);
          if (i >= 0 && i < target.elems.length)
            return this.elementSite(target, i, this.resolve(node.target, env)) ?? { node, env };
        }
        return { node, env };
      }
      case 'SuperIndex': {
        const self = env.self;
        const name = ev.evaluate(node.index, env);
        if (!self || typeof name !== 'string') return { node, env };
        const li = self.findLayer(name, env.layer);
        if (li < 0) return { node, env };
        const def = self.layers[li]!.fields.get(name)!;
        if (def.body) return this.resolve(def.body, ev.fieldBodyEnv(self, li, def));
        return (def.thunk && this.thunkSite(def.thunk)) ?? { node, env };
      }
      case 'Local': {
        // The same frame the evaluator builds for `local`: lazy binds over the inner env.
        const slots = new Array<Thunk>(node.binds.length);
        const inner = new Env(env, slots, env.self, env.layer);
        node.binds.forEach((b, i) => (slots[i] = Thunk.lazy(b.body, inner)));
        return this.resolve(node.body, inner);
      }
      case 'Conditional': {
        const c = ev.evaluate(node.cond, env);
        if (c === true) return this.resolve(node.then, env);
        if (c === false && node.else) return this.resolve(node.else, env);
        return { node, env };
      }
      default:
        return { node, env };
    }
  }

  /** Walks `path` from the root value; answers where the last step's value was defined. */
  walk(root: Value, rootSite: Site, path: readonly PathStep[]): Site {
    let value = root;
    let site: Site = rootSite;
    path.forEach((step, i) => {
      const next = stepInto(this.ev, value, path, i);
      site =
        (value instanceof ObjectValue
          ? this.fieldSite(value, step as string)
          : this.elementSite(value as ArrayValue, step as number, site)) ?? site;
      value = next;
    });
    return site;
  }
}

/** The value of step `i` of `path` inside `value` (a TraceError naming the path when there is none). */
function stepInto(ev: Evaluator, value: Value, path: readonly PathStep[], i: number): Value {
  const step = path[i]!;
  if (value instanceof ObjectValue && typeof step === 'string') {
    if (!value.hasField(step, true))
      throw new TraceError(`field ${JSON.stringify(step)} not found at ${describePath(path, i)}`);
    return ev.objectIndex(value, step);
  }
  if (value instanceof ArrayValue && typeof step === 'number') {
    if (!Number.isInteger(step) || step < 0 || step >= value.elems.length)
      throw new TraceError(`index ${step} out of bounds at ${describePath(path, i)} (length ${value.elems.length})`);
    return ev.force(value.elems[step]!);
  }
  const want = typeof step === 'number' ? 'an array' : 'an object';
  throw new TraceError(
    `${describePath(path, i)} is ${typeName(value) === 'array' ? 'an array' : `a ${typeName(value)}`}, not ${want}: cannot follow ${describePath(path, i + 1)}`,
  );
}

/**
 * An evaluator that notes each object field it evaluates, once its body is evaluated: what
 * ursonnet sees by wrapping every field body in `std.trace` (go-jsonnet forces both arguments
 * of std.trace before printing, so a field is noted after the fields its body needed, and a
 * `+:` field before super's, which go-jsonnet merges after the body). As there, a field whose
 * body is an object literal is not noted (its own fields are), `+:` or not; fields made by
 * native code are not.
 */
class RootsEvaluator extends Evaluator {
  private readonly fieldOf = new WeakMap<Node, ObjField>();
  private readonly seen = new Set<string>();
  private readonly noted: TracedLocation[] = [];

  protected override fieldBodyEvaluated(layer: Layer, def: FieldDef): void {
    if (def.body === null || def.body.type === 'Object') return;
    const field = this.field(layer, def.body);
    if (field !== undefined) this.note(locationOf(field.span));
  }

  private field(layer: Layer, body: Node): ObjField | undefined {
    const lit = layer.literal;
    if (lit === null) return undefined;
    if (lit.type === 'ObjectComp') return lit.field;
    let f = this.fieldOf.get(body);
    if (f === undefined) {
      for (const each of lit.fields) this.fieldOf.set(each.body, each);
      f = this.fieldOf.get(body);
    }
    return f;
  }

  private note(loc: TracedLocation): void {
    const key = `${loc.file}:${loc.line}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.noted.push(loc);
  }

  /** Each location once, the last one noted first (ursonnet's order). */
  roots(): TracedLocation[] {
    return [...this.noted].reverse();
  }
}

/**
 * Where the value at `path` of the module's value (top-level arguments
 * applied) was defined. `[]` is the whole value.
 */
export function traceValuePath(
  module: Module,
  path: readonly PathStep[],
  options: RuntimeOptions = {},
): TracedLocation {
  const ev = newTracer(options);
  return guarded(ev, () => {
    const ast = moduleAst(module);
    const tracer = new Tracer(ev);
    ev.cur = 'During evaluation';
    const top = ev.evaluateModule(module);
    const called = top instanceof FuncValue;
    const root = applyTopLevelArgs(ev, top, options.tlas);
    // A plain file's value is its top expression (through its locals); a function's is the call's result.
    const rootSite = called ? { node: ast, env: null } : tracer.resolve(ast, ev.rootEnv(module.file.name));
    const site = tracer.walk(root, rootSite, path);
    return locationOf(site.span ?? site.node.span);
  });
}

/**
 * Where the value of a snippet module was defined, following its references
 * (eval --trace: the snippet is `(import FILE + { f:: EXPR }).f`, so the
 * answer is where EXPR's value came from). Top-level arguments are not applied.
 */
export function traceModuleValue(module: Module, options: RuntimeOptions = {}): TracedLocation {
  const ev = newTracer(options);
  return guarded(ev, () => {
    ev.cur = 'During evaluation';
    const site = new Tracer(ev).resolve(moduleAst(module), ev.rootEnv(module.file.name));
    return locationOf(site.span ?? site.node.span);
  });
}

/**
 * Every field the value at `path` passed through, as kubecfg's `traceback --all` lists
 * ursonnet's roots: the fields evaluated to reach the value and, since kubecfg manifests the
 * value, every field inside it; each location once, the last one evaluated first. Top-level
 * arguments are applied (kubecfg's ursonnet fails on a file that is a function).
 */
export function traceRoots(module: Module, path: readonly PathStep[], options: RuntimeOptions = {}): TracedLocation[] {
  const ev = new RootsEvaluator(options, (e) => buildStd(e, pureStdTable));
  return guarded(ev, () => {
    ev.cur = 'During evaluation';
    let value = applyTopLevelArgs(ev, ev.evaluateModule(module), options.tlas);
    for (let i = 0; i < path.length; i++) value = stepInto(ev, value, path, i);
    ev.manifest(value);
    return ev.roots();
  });
}
