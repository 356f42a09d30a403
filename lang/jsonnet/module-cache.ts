/**
 * Reuse of evaluated imports across evaluations (the daemon's warm worker).
 *
 * An imported module's value is a closed term over: its own content, the
 * modules it imports (transitively), the ext vars read by code in those files,
 * `std.thisFile` (its name), the natives and the stack limit. `ModuleReuse`
 * keeps one long-lived Evaluator per (natives, maxStack) so module values —
 * with the field caches their objects filled — survive from one evaluation to
 * the next; `ModuleGraph` records what each file's code depended on and
 * decides, per request, whether a cached module may be handed out again.
 *
 * Invariants:
 *  - a graph node describes one *file name*; its edges are every import its
 *    code resolved (kind, path -> foundAt, content digest, and for `import`
 *    the generation of the target's cached value) and every ext var its code
 *    read (definition, and for code ext vars the generation of their value);
 *    edges only accumulate while a cached value lives (lazy fields import late);
 *  - a cached value is handed out only if every node of its closure (imports
 *    and code ext vars, transitively) is still locally valid: each edge
 *    re-resolves through the *current* importer to the same file and digest
 *    (so those reads land in the current request's recorder) and each target
 *    still has the generation the edge saw; a (re)created value gets a new
 *    generation, which invalidates every value built on the old one;
 *  - an ext var read by code that is not in any file (a builtin's lazy
 *    callback) is recorded globally: if its definition changes, nothing is reused;
 *  - values never capture per-request state: the shared Evaluator takes the
 *    request's options (importer, shouldStop, trace, ext vars) in
 *    `beginRequest`, and its frame stack is reset there.
 * Pure: no I/O (content comes from the importer, digests from node:crypto).
 */
import { createHash } from 'node:crypto';
import type { Evaluator } from './evaluator.js';
import type { RuntimeOptions } from './module.js';

type ImportKind = 'import' | 'importstr' | 'importbin';

export interface ImportEdge {
  kind: ImportKind;
  path: string;
  foundAt: string;
  digest: string;
  /** The target's graph node: the imported module's file name ('' for importstr/importbin). */
  target: string;
  /** Generation of the target's cached value (import only; 0 otherwise). */
  generation: number;
}

/** What a file's code saw of one ext var: its definition and, for code, its value's generation. */
export interface ExtVarRead {
  def: string | undefined;
  generation: number;
}

interface GraphNode {
  /** Identifies the cached value this node describes; a new value gets a new one. */
  generation: number;
  digest: string;
  imports: Map<string, ImportEdge>;
  extVars: Map<string, ExtVarRead>;
  /** Code of this file called std.trace: its value is never reused (the lines would be lost). */
  traced: boolean;
}

/** What the graph asks of the evaluator that owns it (the current request's view). */
export interface ValidationHost {
  /** Re-resolves an import through the current importer; null if it now fails. */
  resolveImport(from: string, path: string, kind: ImportKind): { foundAt: string; digest: string } | null;
  /** The current definition of an ext var (kind + value), undefined when absent. */
  extVarDefinition(name: string): string | undefined;
  /** Generation of the current cached value of a code ext var, if any. */
  extVarGeneration(name: string): number | undefined;
  /** Drops the cached value of `name` (a module or `<extvar:x>`), which was found invalid. */
  dropCached(name: string): void;
}

const digests = new WeakMap<Uint8Array, string>();

/** sha256 of a file's bytes; memoised per buffer (importers hand out the same bytes within a request). */
export function contentDigest(bytes: Uint8Array): string {
  let d = digests.get(bytes);
  if (d === undefined) {
    d = createHash('sha256').update(bytes).digest('hex');
    digests.set(bytes, d);
  }
  return d;
}

/** The name of the snippet a code ext var is evaluated as (as the evaluator names it). */
export function extVarFileName(name: string): string {
  return `<extvar:${name}>`;
}

/** An ext var's definition as one comparable string. */
export function extVarDefinition(options: RuntimeOptions, name: string): string | undefined {
  const vars = options.extVars;
  if (!vars || !Object.prototype.hasOwnProperty.call(vars, name)) return undefined;
  const v = vars[name]!;
  return v.kind + '\0' + v.value;
}

export class ModuleGraph {
  private readonly nodes = new Map<string, GraphNode>();
  private nextGeneration = 1;
  /** Names whose whole closure was found valid in this request. */
  private readonly validThisRequest = new Set<string>();
  /** Local validity of nodes checked in this request. */
  private readonly localThisRequest = new Map<string, boolean>();
  /** Ext var reads that no file can be blamed for. */
  readonly globalReads = new Map<string, ExtVarRead>();
  /** std.trace ran with no file to blame: nothing computed so far may be reused. */
  tracedWithoutFile = false;

  startRequest(): void {
    this.validThisRequest.clear();
    this.localThisRequest.clear();
  }

  /** A fresh node for a value about to be computed; returns its generation. */
  createNode(name: string, digest: string): number {
    const generation = this.nextGeneration++;
    this.nodes.set(name, { generation, digest, imports: new Map(), extVars: new Map(), traced: false });
    this.localThisRequest.delete(name);
    this.validThisRequest.delete(name);
    return generation;
  }

  dropNode(name: string): void {
    this.nodes.delete(name);
    this.localThisRequest.delete(name);
    this.validThisRequest.delete(name);
  }

  clear(): void {
    this.nodes.clear();
    this.globalReads.clear();
    this.tracedWithoutFile = false;
    this.startRequest();
  }

  get size(): number {
    return this.nodes.size;
  }

  /*
   * Edges are kept only for files that have a cached value. Code of any other file (the entry
   * file, -e code, TLAs, a dropped module still running in this request) cannot be part of a
   * cached value: a cached value only holds code of its own closure, whose files all have nodes
   * (created before their code runs).
   */
  addImport(from: string, edge: ImportEdge): void {
    this.nodes.get(from)?.imports.set(edge.kind + '\0' + edge.path, edge);
  }

  /** Code in `file` (null: unknown) printed a trace. */
  markTraced(file: string | null): void {
    if (file === null) this.tracedWithoutFile = true;
    else {
      const n = this.nodes.get(file);
      if (n) n.traced = true;
    }
  }

  /** Records an ext var read by code in `file` (null: no file to blame, so every value depends on it). */
  addExtVarRead(file: string | null, name: string, read: ExtVarRead): void {
    if (file === null) this.globalReads.set(name, read);
    else this.nodes.get(file)?.extVars.set(name, read);
  }

  /**
   * Is the cached value of `name` (with generation `generation`) still exactly what a fresh
   * evaluation would compute? Checks every node of its closure; locally invalid nodes are
   * dropped through `host.dropCached`.
   */
  closureValid(name: string, generation: number, host: ValidationHost): boolean {
    const root = this.nodes.get(name);
    if (!root || root.generation !== generation) return false;
    if (this.validThisRequest.has(name)) return true;
    const seen = new Set<string>();
    const todo = [name];
    while (todo.length > 0) {
      const n = todo.pop()!;
      if (seen.has(n) || this.validThisRequest.has(n)) continue;
      seen.add(n);
      const node = this.nodes.get(n);
      if (!node || !this.locallyValid(n, node, host)) return false;
      for (const e of node.imports.values()) if (e.kind === 'import') todo.push(e.target);
      for (const [x, r] of node.extVars) if (r.generation !== 0) todo.push(extVarFileName(x));
    }
    for (const n of seen) this.validThisRequest.add(n);
    return true;
  }

  /** Re-checks the global ext var reads against the current request (true: all still hold). */
  globalReadsValid(host: ValidationHost): boolean {
    for (const [x, r] of this.globalReads) {
      if (!readStillHolds(x, r, host)) return false;
      if (r.generation !== 0 && !this.closureValid(extVarFileName(x), r.generation, host)) return false;
    }
    return true;
  }

  private locallyValid(name: string, node: GraphNode, host: ValidationHost): boolean {
    const memo = this.localThisRequest.get(name);
    if (memo !== undefined) return memo;
    let ok = !node.traced;
    for (const [x, r] of ok ? node.extVars : []) {
      if (!readStillHolds(x, r, host)) {
        ok = false;
        break;
      }
    }
    if (ok) {
      for (const e of node.imports.values()) {
        const now = host.resolveImport(name, e.path, e.kind);
        if (now === null || now.foundAt !== e.foundAt || now.digest !== e.digest) {
          ok = false;
          break;
        }
        if (e.kind === 'import') {
          const target = this.nodes.get(e.target);
          if (!target || target.generation !== e.generation) {
            ok = false;
            break;
          }
        }
      }
    }
    this.localThisRequest.set(name, ok);
    if (!ok) {
      host.dropCached(name);
      this.dropNode(name);
    }
    return ok;
  }
}

function readStillHolds(name: string, r: ExtVarRead, host: ValidationHost): boolean {
  if (host.extVarDefinition(name) !== r.def) return false;
  return r.generation === 0 || host.extVarGeneration(name) === r.generation;
}

export interface ModuleReuseOptions {
  /** Most cached module values per evaluator (least recently used go first). Default 4096. */
  maxModules?: number;
}

export interface ModuleReuseStats {
  modules: number;
  hits: number;
  misses: number;
  invalidated: number;
}

/** Counters shared by a ModuleReuse and its evaluators. */
export class ReuseCounters {
  hits = 0;
  misses = 0;
  invalidated = 0;
}

export type EvaluatorFactory = (
  options: RuntimeOptions,
  reuse: { graph: ModuleGraph; counters: ReuseCounters; maxModules: number },
) => Evaluator;

/** Stand-in key for evaluations without natives. */
const NO_NATIVES = {};

interface Slot {
  ev: Evaluator;
  busy: boolean;
}

/**
 * One per worker: long-lived evaluators whose imported module values outlive a request.
 * Evaluation is synchronous, so an evaluator serves one request at a time; a nested
 * evaluation (a native that evaluates Jsonnet) gets `null` from acquire and runs fresh.
 *
 * Evaluators are keyed by the natives table's identity (std.native values cached in modules
 * keep the table they saw, e.g. one resolveImage mode) in a WeakMap: a table made for one
 * request only (registry lookups) takes its evaluator with it when it is dropped.
 */
export class ModuleReuse {
  private evaluators = new WeakMap<object, Map<number, Slot>>();
  private readonly live: WeakRef<Evaluator>[] = [];
  private readonly counters = new ReuseCounters();
  private readonly maxModules: number;

  constructor(opts: ModuleReuseOptions = {}) {
    this.maxModules = Math.max(1, opts.maxModules ?? 4096);
  }

  /**
   * The shared evaluator for these options, prepared for a new request; null when it is busy.
   * `create` builds one (passed in by index.ts, which owns the std registry: no import cycle).
   */
  acquire(options: RuntimeOptions, create: EvaluatorFactory): Evaluator | null {
    const nativesKey: object = options.natives ?? NO_NATIVES;
    let byStack = this.evaluators.get(nativesKey);
    if (!byStack) {
      byStack = new Map();
      this.evaluators.set(nativesKey, byStack);
    }
    const stackKey = options.maxStack ?? 500;
    let slot = byStack.get(stackKey);
    if (slot?.busy) return null;
    if (!slot) {
      const ev = create(options, { graph: new ModuleGraph(), counters: this.counters, maxModules: this.maxModules });
      slot = { ev, busy: false };
      byStack.set(stackKey, slot);
      this.live.push(new WeakRef(ev));
    }
    slot.busy = true;
    slot.ev.beginRequest(options);
    return slot.ev;
  }

  release(ev: Evaluator, options: RuntimeOptions): void {
    ev.endRequest();
    const slot = this.evaluators.get(options.natives ?? NO_NATIVES)?.get(options.maxStack ?? 500);
    if (slot?.ev === ev) slot.busy = false;
  }

  /**
   * Forgets every cached value (the caller's answer to memory pressure). An evaluator in use
   * finishes its request and is then dropped with its values.
   */
  clear(): void {
    this.evaluators = new WeakMap();
    this.live.length = 0;
  }

  stats(): ModuleReuseStats {
    let modules = 0;
    for (let i = this.live.length - 1; i >= 0; i--) {
      const ev = this.live[i]!.deref();
      if (ev === undefined) this.live.splice(i, 1);
      else modules += ev.cachedModuleCount();
    }
    return { modules, hits: this.counters.hits, misses: this.counters.misses, invalidated: this.counters.invalidated };
  }
}
