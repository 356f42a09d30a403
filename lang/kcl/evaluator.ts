/**
 * The KCL evaluator. A package is every `.k` file of a directory sharing one
 * namespace. Its top-level names are evaluated lazily, on first read, by
 * running every statement that sets the name in file order (files sorted by
 * name): a reader sees the value bound last, whichever file binds it, and
 * `name: Schema {...}` statements unify into one instance. Public names may be
 * bound once; `_private` ones any number of times.
 */
import type {
  CheckItem,
  ConfigEntry,
  ConfigOp,
  Expr,
  ListItem,
  Loc,
  Module,
  SchemaAssign,
  SchemaAttr,
  SchemaGuard,
  Stmt,
  TypeExpr,
} from './ast.js';
import { CallError, KclError, type KclErrorKind, type KclRelated } from './errors.js';
import { callMethod, makeBuiltins } from './builtins.js';
import { repr, toStr } from './text.js';
import {
  KDict,
  KFloat,
  KFunc,
  KModule,
  SchemaType,
  UNDEFINED,
  copyDict,
  numeric,
  truthy,
  typeName,
  valuesEqual,
  KeyOrigin,
  keyMeta,
  type Value,
} from './value.js';
import { encodeJson, encodeYaml } from './printer.js';

/** One parsed file in its package. */
export class FileUnit {
  readonly imports = new Map<string, { path: string; loc: Loc; value?: KModule }>();
  constructor(
    readonly module: Module,
    readonly pkg: Package,
  ) {}
  get fileKey(): string {
    return this.module.file;
  }
  private env?: Env;
  /** The env of the file's top level (its imports and its package's globals). */
  get rootEnv(): Env {
    return (this.env ??= makeEnv(this));
  }
  private originCache?: Map<Loc, KeyOrigin>;
  /** The origin of keys written at `loc` in this file: one shared object per place, not one per key per merge. */
  origin(loc: Loc): KeyOrigin {
    if (loc instanceof KeyOrigin && loc.file === this) return loc;
    const cache = (this.originCache ??= new Map());
    let o = cache.get(loc);
    if (!o) cache.set(loc, (o = new KeyOrigin(this, loc.line, loc.col)));
    return o;
  }
}

interface Setter {
  readonly stmt: Stmt;
  readonly file: FileUnit;
  readonly guards: readonly { readonly stmt: Stmt & { s: 'if' }; readonly branch: number; readonly file: FileUnit }[];
}

export class Package {
  readonly files: FileUnit[] = [];
  readonly setters = new Map<string, Setter[]>();
  readonly values = new Map<string, Value>();
  readonly busy = new Set<string>();
  /** Public names in the order they are first bound (the output order). */
  readonly order: string[] = [];
  readonly ifChoice = new Map<Stmt, number>();
  constructor(readonly path: string) {}
}

/** Resolves `import a.b` to a package (the loader knows directories, kcl.mod and built-in modules). */
export interface PackageResolver {
  (importPath: string, from: FileUnit): Package | KModule | undefined;
}

type Scope = Map<string, Value>;

interface PendingUnify {
  schema: SchemaType;
  config: KDict;
  /** Whether config is a copy of our own, to merge the next statements into. */
  owned: boolean;
  file: FileUnit;
  loc: Loc;
  /** The value bound before these statements, unioned with their instance. */
  base: Value | undefined;
}

/** Every Env has all the fields (made by makeEnv): one object shape, so `lookup` stays monomorphic. */
interface Env {
  readonly file: FileUnit;
  readonly vars?: Scope;
  /** A comprehension's loop variables: the clause's names and this iteration's values (no Map per iteration). */
  readonly names?: readonly string[];
  readonly vals?: readonly Value[];
  /** Names a schema body sees: the instance's attributes. */
  readonly inst?: Instance;
  readonly parent?: Env;
}

function makeEnv(
  file: FileUnit,
  parent?: Env,
  vars?: Scope,
  names?: readonly string[],
  vals?: readonly Value[],
  inst?: Instance,
): Env {
  return { file, vars, names, vals, inst, parent };
}

interface BodyStmt {
  readonly stmt: SchemaAssign;
  readonly owner: SchemaType;
  /** The owner's position in the layout's chain (base first): which env of the instance evaluates it. */
  readonly ownerIx: number;
  /** Whether the value reads nothing of the instance (see isStatic); undefined until first asked. */
  static?: boolean;
  /** The value of a static statement, computed once per run (values are never mutated once made). */
  cached?: Value;
  /**
   * The same, computed while required attributes and checks were deferred (a default about to be
   * rebuilt): the values are the same, but its instances went unchecked, so it serves only there.
   */
  cachedDeferred?: Value;
}

interface AttrEntry {
  readonly attr: SchemaAttr;
  readonly owner: SchemaType;
  readonly ownerIx: number;
}

/** Everything a schema body says about one name: its declaration and the statements giving it a value. */
interface Slot {
  /** Position in the instance's value array. */
  readonly ix: number;
  attr?: AttrEntry;
  isPrivate: boolean;
  readonly body: BodyStmt[];
  /** Whether a body statement computes the value otherwise than as a config literal (asked lazily). */
  opaqueDefault?: boolean;
}

interface Layout {
  /** The schema and its bases, base first. */
  chain: SchemaType[];
  attrs: Map<string, AttrEntry>;
  privates: Set<string>;
  /** Declared attributes and `_private` body names: what a config may set and a body may read. */
  slots: Map<string, Slot>;
  attrNames: string[];
  privateNames: string[];
  index?: { value: TypeExpr; owner: SchemaType; ownerIx: number; keyName?: string };
  checks: { item: CheckItem; owner: SchemaType; ownerIx: number }[];
}

/** A value being computed (a cycle between attributes is an error, not a stack overflow). */
const BUSY: unique symbol = Symbol('busy');

/** What tryConvert returns when a value does not have the type. */
const NO_MATCH: unique symbol = Symbol('no match');

/**
 * One instantiation in progress: attribute values computed on first read, and one env per
 * schema of the chain (bodies read names in their own file). A class rather than closures:
 * thousands of instances are made per run.
 */
class Instance {
  /** Values of the layout's slots, by Slot.ix (undefined: not computed yet). */
  readonly values: (Value | typeof BUSY | undefined)[];
  /** Values of keys an index signature admitted. */
  extra?: Map<string, Value | typeof BUSY>;
  private readonly envs: (Env | undefined)[] = [];
  constructor(
    readonly schema: SchemaType,
    readonly layout: Layout,
    readonly config: KDict,
    readonly file: FileUnit,
    readonly loc: Loc,
  ) {
    this.values = new Array<Value | typeof BUSY | undefined>(layout.slots.size);
  }
  env(ownerIx: number): Env {
    return (this.envs[ownerIx] ??= makeEnv(
      this.layout.chain[ownerIx]!.scope as FileUnit,
      undefined,
      undefined,
      undefined,
      undefined,
      this,
    ));
  }
}

const MAX_DEPTH = 4000;

export class Evaluator {
  private readonly builtins: Map<string, Value>;
  private depth = 0;
  /** > 0 while a schema default is evaluated that a config will be unioned into: its instance is rebuilt from the merged config, whose required attributes and checks are checked then */
  private deferRequired = 0;
  private readonly layouts = new Map<SchemaType, Layout>();
  /** The top-level statement being evaluated (what a missing required attribute is reported at). */
  private stmtFile: FileUnit | undefined;
  private stmtLoc: Loc | undefined;
  /** > 0 while a typed assignment converts a value that is not a config literal (see global). */
  private opaqueConfigs = 0;
  readonly printed: string[] = [];

  constructor(
    private readonly resolver: PackageResolver,
    readonly options: ReadonlyMap<string, Value>,
  ) {
    this.builtins = makeBuiltins(this);
  }

  // ---- errors ----
  fail(
    kind: KclErrorKind,
    detail: string,
    file?: FileUnit,
    loc?: Loc,
    related: readonly KclRelated[] = [],
    notes: readonly string[] = [],
    caret = true,
  ): never {
    if (!file || !loc) throw new KclError(kind, detail);
    const pos = { file: file.fileKey, line: loc.line, col: loc.col };
    throw new KclError(kind, detail, pos, lineOf(file, loc), related, notes, caret);
  }

  // ---- packages ----
  static index(pkg: Package, modules: readonly Module[]): void {
    for (const m of modules) {
      const unit = new FileUnit(m, pkg);
      pkg.files.push(unit);
      const visit = (stmts: readonly Stmt[], guards: Setter['guards']): void => {
        for (const st of stmts) {
          if (st.s === 'import') unit.imports.set(st.asName, { path: st.path, loc: st });
          else if (st.s === 'assign' || st.s === 'unify')
            Evaluator.addSetter(pkg, st.target, { stmt: st, file: unit, guards });
          else if (st.s === 'schema') Evaluator.addSetter(pkg, st.def.name, { stmt: st, file: unit, guards });
          else if (st.s === 'type') Evaluator.addSetter(pkg, st.name, { stmt: st, file: unit, guards });
          else if (st.s === 'if')
            st.branches.forEach((b, i) => visit(b.body, [...guards, { stmt: st, branch: i, file: unit }]));
        }
      };
      visit(m.body, []);
    }
  }

  private static addSetter(pkg: Package, name: string, s: Setter): void {
    let list = pkg.setters.get(name);
    if (!list) {
      list = [];
      pkg.setters.set(name, list);
      if (!name.startsWith('_')) pkg.order.push(name);
    }
    list.push(s);
  }

  private ifBranch(pkg: Package, st: Stmt & { s: 'if' }, file: FileUnit): number {
    const known = pkg.ifChoice.get(st);
    if (known !== undefined) return known;
    const env = file.rootEnv;
    let chosen = -1;
    for (let i = 0; i < st.branches.length; i++) {
      const b = st.branches[i]!;
      if (!b.test || truthy(this.eval(b.test, env))) {
        chosen = i;
        break;
      }
    }
    pkg.ifChoice.set(st, chosen);
    return chosen;
  }

  global(pkg: Package, name: string, file?: FileUnit, loc?: Loc): Value {
    if (pkg.values.has(name)) return pkg.values.get(name)!;
    const setters = pkg.setters.get(name);
    if (!setters) return this.fail('CompileError', `name '${name}' is not defined`, file, loc);
    if (pkg.busy.has(name))
      return this.fail('RecursionError', `'${name}' refers to itself (a cycle of top-level values)`, file, loc);
    pkg.busy.add(name);
    const outerFile = this.stmtFile;
    const outerStmt = this.stmtLoc;
    let value: Value = UNDEFINED;
    let bound = false;
    let first: Setter | undefined;
    let pending: PendingUnify | undefined;
    try {
      for (const s of setters) {
        if (!s.guards.every((g) => this.ifBranch(pkg, g.stmt, g.file) === g.branch)) continue;
        const st = s.stmt;
        const env = s.file.rootEnv;
        this.stmtFile = s.file;
        this.stmtLoc = st;
        if (pending && st.s !== 'unify') {
          value = this.finishUnify(value, pending);
          pending = undefined;
        }
        if (st.s === 'schema') value = new SchemaType(st.def, pkg.path, s.file);
        else if (st.s === 'type') value = new TypeAlias(st.type, s.file) as unknown as Value;
        else if (st.s === 'assign') {
          let v = this.eval(st.value, env);
          if (st.op) {
            if (!bound) this.fail('EvaluationError', `name '${name}' is not defined before '${st.op}='`, s.file, st);
            v = this.binary(st.op, value, v, s.file, st);
          } else if (bound && !name.startsWith('_'))
            this.fail(
              'ImmutableError',
              `Can not change the value of '${name}', because it was declared immutable`,
              s.file,
              st,
              [related(first!.file, first!.stmt, `The variable '${name}' is declared here`, true)],
              [`change the variable name to '_${name}' to make it mutable`],
            );
          if (st.type) {
            // kcl points at an attribute's declaration when it checks a config written out (a
            // literal); a value computed otherwise (`a | {x = 1}`) is checked without it.
            const literal = isConfigLiteral(st.value);
            if (!literal) this.opaqueConfigs++;
            try {
              v = this.convert(v, st.type, env, st);
            } finally {
              if (!literal) this.opaqueConfigs--;
            }
          }
          value = v;
        } else if (st.s === 'unify') {
          // The configs of every `name: S {...}` statement merge first and S is instantiated once
          // at the end: the same value as unioning instance after instance, without rebuilding it
          // (and converting every entry again) once per statement.
          const sx = st.value as Expr & { k: 'schema' };
          const target = this.eval(sx.target, env);
          const config = this.eval(sx.config, env) as KDict;
          if (!(target instanceof SchemaType))
            value = bound ? this.union(value, config, s.file, st) : this.schemaExpr(sx, env);
          else if (pending && pending.schema === target) {
            // Merged in place into one copy: a copy per statement made 30 app-<name>.k files cost
            // 1 + 2 + ... + 29 key copies.
            if (!pending.owned) {
              pending.config = copyDict(pending.config);
              pending.owned = true;
            }
            this.mergeConfigInto(pending.config, config, s.file, st, false);
          } else {
            if (pending) value = this.finishUnify(value, pending);
            pending = { schema: target, config, owned: false, file: s.file, loc: st, base: bound ? value : undefined };
          }
        }
        first ??= s;
        bound = true;
      }
      if (pending) value = this.finishUnify(value, pending);
    } finally {
      pkg.busy.delete(name);
      this.stmtFile = outerFile;
      this.stmtLoc = outerStmt;
    }
    pkg.values.set(name, value);
    return value;
  }

  private finishUnify(value: Value, p: PendingUnify): Value {
    const inst = this.instantiate(p.schema, p.config, p.file, p.loc);
    return p.base === undefined ? inst : this.union(p.base, inst, p.file, p.loc);
  }

  /** Runs a package the way `kcl run` does: every statement in order, then the values of its public names. */
  run(pkg: Package): KDict {
    for (const f of pkg.files) this.runStatements(pkg, f, f.module.body);
    const out = new KDict();
    for (const name of pkg.order) {
      const v = this.global(pkg, name);
      if (
        v === UNDEFINED ||
        v instanceof SchemaType ||
        v instanceof KFunc ||
        v instanceof KModule ||
        v instanceof TypeAlias
      )
        continue;
      out.map.set(name, v);
    }
    return out;
  }

  private runStatements(pkg: Package, file: FileUnit, stmts: readonly Stmt[]): void {
    for (const st of stmts) {
      switch (st.s) {
        case 'assign':
        case 'unify':
          this.global(pkg, st.target, file, st);
          break;
        case 'if': {
          const b = this.ifBranch(pkg, st, file);
          if (b >= 0) this.runStatements(pkg, file, st.branches[b]!.body);
          break;
        }
        case 'assert':
          this.assert(st, file.rootEnv);
          break;
        case 'expr':
          if (st.expr.k !== 'str') this.eval(st.expr, file.rootEnv);
          break;
        default:
          break;
      }
    }
  }

  private assert(st: Stmt & { s: 'assert' }, env: Env): void {
    if (st.guard && !truthy(this.eval(st.guard, env))) return;
    if (truthy(this.eval(st.test, env))) return;
    const msg = st.message ? toStr(this.eval(st.message, env)) : '';
    this.fail('EvaluationError', msg, env.file, st, [], [], false);
  }

  // ---- names ----
  private lookup(name: string, env: Env, loc: Loc): Value {
    for (let e: Env | undefined = env; e; e = e.parent) {
      if (e.names) {
        const i = e.names.lastIndexOf(name);
        if (i >= 0) return e.vals![i]!;
      }
      if (e.vars?.has(name)) return e.vars.get(name)!;
      if (e.inst) {
        const v = this.resolveInInstance(e.inst, name);
        if (v !== undefined) return v;
      }
    }
    const file = env.file;
    const imp = file.imports.get(name);
    if (imp) return this.importModule(file, name, imp);
    if (file.pkg.setters.has(name)) return this.global(file.pkg, name, file, loc);
    const b = this.builtins.get(name);
    if (b !== undefined) return b;
    // kcl suggests the names in scope within a few edits: imports, the package's, the built-ins.
    const known = [...file.imports.keys(), ...file.pkg.setters.keys(), ...this.builtins.keys()];
    return this.fail('CompileError', `name '${name}' is not defined${suggestSimilar(name, known)}`, file, loc);
  }

  private importModule(file: FileUnit, name: string, imp: { path: string; loc: Loc; value?: KModule }): KModule {
    if (imp.value) return imp.value;
    const target = this.resolver(imp.path, file);
    if (!target) return this.fail('CannotFindModule', `Cannot find the module ${imp.path}`, file, imp.loc);
    if (target instanceof KModule) {
      imp.value = target;
      return target;
    }
    // Named by its path, as kcl names a module in errors (`import pkg as p`: 'pkg').
    imp.value = new KModule(imp.path, (attr) => {
      if (!target.setters.has(attr)) return undefined;
      if (attr.startsWith('_')) return undefined;
      return this.global(target, attr);
    });
    return imp.value;
  }

  // ---- expressions ----
  eval(e: Expr, env: Env): Value {
    if (++this.depth > MAX_DEPTH) {
      this.depth = 0;
      this.fail('RecursionError', 'maximum recursion depth exceeded', env.file, e);
    }
    try {
      return this.evalInner(e, env);
    } finally {
      this.depth--;
    }
  }

  private evalInner(e: Expr, env: Env): Value {
    switch (e.k) {
      case 'name':
        return this.lookup(e.name, env, e);
      case 'lit':
        return e.value === 'Undefined' ? UNDEFINED : e.value;
      case 'float':
        return new KFloat(e.value);
      case 'paren':
        return this.eval(e.expr, env);
      case 'str': {
        if (e.parts.length === 1 && e.parts[0]!.text !== undefined) return e.parts[0]!.text;
        let s = '';
        for (const p of e.parts) {
          if (p.text !== undefined) s += p.text;
          else {
            const v = this.eval(p.expr!, env);
            s += p.spec === 'json' ? encodeJson(v, { indent: 0 }) : p.spec === 'yaml' ? encodeYaml(v, {}) : toStr(v);
          }
        }
        return s;
      }
      case 'list':
        return this.evalList(e.items, env);
      case 'listcomp': {
        const out: Value[] = [];
        this.comprehend(e.clauses, 0, env, (inner) => out.push(this.eval(e.elt, inner)));
        return out;
      }
      case 'config':
        return this.evalConfig(e.entries, env, new KDict());
      case 'dictcomp': {
        const out = new KDict();
        this.comprehend(e.clauses, 0, env, (inner) => {
          const k = this.eval(e.key, inner);
          if (typeof k !== 'string')
            this.fail('TypeError', `dict key must be str, got ${typeName(k)}`, env.file, e.key);
          this.mergeEntry(out, k, this.eval(e.value, inner), e.op, env.file, e);
        });
        return out;
      }
      case 'select': {
        const v = this.eval(e.value, env);
        if ((v === null || v === UNDEFINED) && e.optional) return v;
        return this.select(v, e.attr, env.file, e, e.value);
      }
      case 'index': {
        const v = this.eval(e.value, env);
        if ((v === null || v === UNDEFINED) && e.optional) return v;
        return this.index(v, this.eval(e.index, env), env.file, e);
      }
      case 'slice':
        return this.slice(e, env);
      case 'call':
        return this.call(e, env);
      case 'schema':
        return this.schemaExpr(e, env);
      case 'unary':
        return this.unary(e.op, this.eval(e.operand, env), env.file, e);
      case 'binary': {
        if (e.op === 'and') {
          const l = this.eval(e.left, env);
          return truthy(l) ? this.eval(e.right, env) : l;
        }
        if (e.op === 'or') {
          const l = this.eval(e.left, env);
          return truthy(l) ? l : this.eval(e.right, env);
        }
        return this.binary(e.op, this.eval(e.left, env), this.eval(e.right, env), env.file, e);
      }
      case 'compare': {
        let left = this.eval(e.operands[0]!, env);
        for (let i = 0; i < e.ops.length; i++) {
          const right = this.eval(e.operands[i + 1]!, env);
          if (!this.compare(e.ops[i]!, left, right, env.file, e)) return false;
          left = right;
        }
        return true;
      }
      case 'ifexpr':
        if (truthy(this.eval(e.test, env))) return this.eval(e.then, env);
        return e.else ? this.eval(e.else, env) : UNDEFINED;
      case 'lambda':
        return this.lambda(e, env);
      case 'quant':
        return this.quantifier(e, env);
    }
  }

  private evalList(items: readonly ListItem[], env: Env, out: Value[] = []): Value[] {
    for (const it of items) {
      if (it.kind === 'item') out.push(this.eval(it.value, env));
      else if (it.kind === 'unpack') {
        const v = this.eval(it.value, env);
        if (v === null || v === UNDEFINED) continue;
        if (Array.isArray(v)) out.push(...v);
        else if (v instanceof KDict) out.push(...v.map.keys());
        else
          this.fail('TypeError', `only list and dict can be unpacked with *, got ${typeName(v)}`, env.file, it.value);
      } else {
        const b = it.branches.find((br) => !br.test || truthy(this.eval(br.test, env)));
        if (b) this.evalList(b.items, env, out);
      }
    }
    return out;
  }

  private comprehend(
    clauses: readonly { targets: readonly string[]; iter: Expr; ifs: readonly Expr[] }[],
    i: number,
    env: Env,
    emit: (env: Env) => void,
  ): void {
    if (i === clauses.length) {
      emit(env);
      return;
    }
    const c = clauses[i]!;
    const iterable = this.eval(c.iter, env);
    for (const binding of this.iterate(iterable, c.targets.length, env.file, c.iter)) {
      const inner = makeEnv(env.file, env, undefined, c.targets, binding);
      if (c.ifs.every((t) => truthy(this.eval(t, inner)))) this.comprehend(clauses, i + 1, inner, emit);
    }
  }

  private iterate(v: Value, arity: number, file: FileUnit, loc: Loc): Value[][] {
    if (v === null || v === UNDEFINED) return [];
    if (Array.isArray(v)) return v.map((x, i) => (arity === 2 ? [i, x] : [x]));
    if (v instanceof KDict) {
      const out: Value[][] = [];
      for (let i = 0; i < v.size; i++) {
        const x = v.valueAt(i);
        if (x !== UNDEFINED) out.push(arity === 2 ? [v.keyAt(i), x] : [v.keyAt(i)]);
      }
      return out;
    }
    if (typeof v === 'string') return [...v].map((ch, i) => (arity === 2 ? [i, ch] : [ch]));
    return this.fail('TypeError', `'${typeName(v)}' object is not iterable`, file, loc);
  }

  private quantifier(e: Expr & { k: 'quant' }, env: Env): Value {
    const iterable = this.eval(e.iter, env);
    const bindings = this.iterate(iterable, e.targets.length, env.file, e.iter);
    const listOut: Value[] = [];
    const dictOut = new KDict();
    for (const b of bindings) {
      const inner = makeEnv(env.file, env, undefined, e.targets, b);
      if (e.test && !truthy(this.eval(e.test, inner))) continue;
      const r = this.eval(e.body, inner);
      switch (e.op) {
        case 'all':
          if (!truthy(r)) return false;
          break;
        case 'any':
          if (truthy(r)) return true;
          break;
        case 'map':
          listOut.push(r);
          break;
        case 'filter':
          if (truthy(r)) {
            if (iterable instanceof KDict) dictOut.map.set(b[0] as string, iterable.map.get(b[0] as string)!);
            else listOut.push(e.targets.length === 2 ? b[1]! : b[0]!);
          }
      }
    }
    if (e.op === 'all') return true;
    if (e.op === 'any') return false;
    if (e.op === 'filter' && iterable instanceof KDict) return dictOut;
    return listOut;
  }

  // ---- configs ----
  private evalConfig(entries: readonly ConfigEntry[], env: Env, out: KDict): KDict {
    for (const en of entries) {
      if (en.kind === 'if') {
        const b = en.branches.find((br) => !br.test || truthy(this.eval(br.test, env)));
        if (b) this.evalConfig(b.entries, env, out);
        continue;
      }
      if (en.kind === 'unpack') {
        const v = this.eval(en.value, env);
        if (v === null || v === UNDEFINED) continue;
        if (!(v instanceof KDict))
          this.fail('TypeError', `only dict can be unpacked with **, got ${typeName(v)}`, env.file, en.loc);
        for (let i = 0; i < v.size; i++)
          this.mergeEntry(out, v.keyAt(i), v.valueAt(i), 'union', env.file, en.loc, false);
        continue;
      }
      const value = this.eval(en.value, env);
      let path: readonly string[];
      if (en.path) path = en.path;
      else {
        const k = this.eval(en.keyExpr!, env);
        if (typeof k !== 'string')
          this.fail('TypeError', `config key must be str, got ${typeName(k)}`, env.file, en.loc);
        path = [k];
      }
      let v = value;
      let op = en.op;
      for (let i = path.length - 1; i >= 1; i--) {
        const d = new KDict();
        d.setWithMeta(path[i]!, v, keyMeta(op, env.file.origin(en.loc)));
        v = d;
        op = 'union';
      }
      this.mergeEntry(out, path[0]!, v, op, env.file, en.loc);
    }
    return out;
  }

  /** One key of a config literal: `:` unions (conflicting scalars are an error), `=` overrides, `+=` appends. */
  private mergeEntry(out: KDict, k: string, v: Value, op: ConfigOp, file: FileUnit, loc: Loc, idempotent = true): void {
    const origin = file.origin(loc);
    if (!out.has(k)) {
      out.setWithMeta(k, v, keyMeta(op, origin));
      return;
    }
    const prev = out.map.get(k)!;
    if (op === 'override') {
      out.map.set(k, v);
      out.setKeyMeta(k, 'override', origin);
      return;
    }
    out.setOrigin(k, origin);
    if (op === 'insert') out.map.set(k, this.concat(prev, v, file, loc));
    else {
      if (
        idempotent &&
        !(prev instanceof KDict && v instanceof KDict) &&
        !valuesEqual(prev, v) &&
        out.opOf(k) === 'union'
      )
        this.fail(
          'EvaluationError',
          `conflicting values on the attribute '${k}' between ${repr(prev)} and ${repr(v)}`,
          file,
          loc,
        );
      out.map.set(k, this.union(prev, v, file, loc, idempotent));
    }
  }

  private concat(a: Value, b: Value, file: FileUnit, loc: Loc): Value {
    if (a === UNDEFINED || a === null) a = [];
    if (!Array.isArray(a) || !Array.isArray(b))
      return this.fail('TypeError', `'+=' needs lists, got ${typeName(a)} and ${typeName(b)}`, file, loc);
    return [...a, ...b];
  }

  /** KCL's union (`|` and `:`): dicts merge key by key, a schema instance is rebuilt from the merged config, anything else is replaced. */
  union(a: Value, b: Value, file: FileUnit, loc: Loc, idempotent = false): Value {
    if (b === UNDEFINED) return a;
    if (a instanceof KDict && b instanceof KDict) {
      if (a.schema)
        return this.instantiate(
          a.schema,
          this.mergeConfig(a.config ?? a, b.config ?? b, file, loc, idempotent),
          file,
          loc,
        );
      if (b.schema)
        return this.instantiate(b.schema, this.mergeConfig(a, b.config ?? b, file, loc, idempotent), file, loc);
      return this.mergeConfig(a, b, file, loc, idempotent);
    }
    // Lists union element by element; what the right list lacks is kept from the left.
    if (Array.isArray(a) && Array.isArray(b)) {
      const out = [...a];
      b.forEach((x, i) => (out[i] = i < a.length ? this.union(a[i]!, x, file, loc, idempotent) : x));
      return out;
    }
    return b;
  }

  private mergeConfig(a: KDict, b: KDict, file: FileUnit, loc: Loc, idempotent: boolean): KDict {
    // Values are never changed once made, so a merge with an empty config is the other config itself
    // (a schema default `S {}` unioned with what an instance sets): no copy.
    if (a.map.size === 0 && !a.schema && !b.schema) return b;
    if (b.map.size === 0 && !a.schema && !b.schema) return a;
    return this.mergeConfigInto(copyDict(a), b, file, loc, idempotent);
  }

  /** Merges `b` into `out`, which the caller owns (a fresh copy). */
  private mergeConfigInto(out: KDict, b: KDict, file: FileUnit, loc: Loc, idempotent: boolean): KDict {
    for (let i = 0; i < b.size; i++) {
      const k = b.keyAt(i);
      const v = b.valueAt(i);
      const m = b.metaAt(i);
      // A new key takes its value and its operator and origin as they are.
      if (!out.has(k)) {
        out.setWithMeta(k, v, m);
        continue;
      }
      const op = m ? m.op : 'union';
      const origin = m?.origin;
      if (origin) out.setOrigin(k, origin);
      if (op === 'override') {
        out.map.set(k, v);
        out.setOp(k, 'override');
      } else if (op === 'insert') out.map.set(k, this.concat(out.map.get(k)!, v, file, loc));
      else {
        // An origin is its own Loc: errors point at where the key was written.
        if (origin) this.mergeEntry(out, k, v, 'union', origin.file as FileUnit, origin, idempotent);
        else this.mergeEntry(out, k, v, 'union', file, loc, idempotent);
      }
    }
    return out;
  }

  // ---- schemas ----
  private schemaExpr(e: Expr & { k: 'schema' }, env: Env): Value {
    const target = this.eval(e.target, env);
    const config = this.eval(e.config, env) as KDict;
    if (target instanceof SchemaType) return this.instantiate(target, config, env.file, e);
    if (target instanceof KDict) return this.union(target, config, env.file, e);
    return this.fail('TypeError', `'${typeName(target)}' cannot be instantiated with a config`, env.file, e);
  }

  private base(s: SchemaType): SchemaType | undefined {
    if (!s.def.base) return undefined;
    if (s.base) return s.base;
    const file = s.scope as FileUnit;
    const b = this.eval(s.def.base, file.rootEnv);
    if (!(b instanceof SchemaType))
      return this.fail(
        'TypeError',
        `the base of schema ${s.name} must be a schema, got ${typeName(b)}`,
        file,
        s.def.loc,
      );
    s.base = b;
    return b;
  }

  private layout(s: SchemaType): Layout {
    const known = this.layouts.get(s);
    if (known) return known;
    const chain: SchemaType[] = [];
    for (let c: SchemaType | undefined = s; c; c = this.base(c)) {
      if (chain.includes(c))
        this.fail('TypeError', `schema ${s.name} inherits from itself`, s.scope as FileUnit, s.def.loc);
      chain.unshift(c);
    }
    const l: Layout = {
      chain,
      attrs: new Map(),
      privates: new Set(),
      slots: new Map(),
      attrNames: [],
      privateNames: [],
      checks: [],
    };
    const slot = (name: string): Slot => {
      let sl = l.slots.get(name);
      if (!sl) l.slots.set(name, (sl = { ix: l.slots.size, isPrivate: false, body: [] }));
      return sl;
    };
    chain.forEach((c, ownerIx) => {
      for (const a of c.def.attrs) {
        const entry = { attr: a, owner: c, ownerIx };
        l.attrs.set(a.name, entry);
        slot(a.name).attr = entry;
      }
      for (const b of c.def.body) {
        // `a = v` in a body without a declaration above declares `a` (untyped).
        if (b.name.startsWith('_')) {
          l.privates.add(b.name);
          slot(b.name).isPrivate = true;
        } else if (!l.attrs.has(b.name)) {
          const entry = { attr: { name: b.name, optional: false, loc: b.loc }, owner: c, ownerIx };
          l.attrs.set(b.name, entry);
          slot(b.name).attr = entry;
        }
        slot(b.name).body.push({ stmt: b, owner: c, ownerIx });
      }
      if (c.def.indexSignature)
        l.index = {
          value: c.def.indexSignature.value,
          owner: c,
          ownerIx,
          ...(c.def.indexSignature.keyName ? { keyName: c.def.indexSignature.keyName } : {}),
        };
      for (const item of c.def.checks) l.checks.push({ item, owner: c, ownerIx });
    });
    l.attrNames = [...l.attrs.keys()];
    l.privateNames = [...l.privates];
    this.layouts.set(s, l);
    return l;
  }

  /** An attribute's value from the schema bodies: each statement whose `if` guards hold, in order. */
  private bodyValue(stmts: readonly BodyStmt[], inst: Instance): Value {
    let v: Value = UNDEFINED;
    for (let j = 0; j < stmts.length; j++) {
      const b = stmts[j]!;
      const { stmt, owner, ownerIx } = b;
      const env = inst.env(ownerIx);
      if (stmt.guards.length > 0 && !this.guardsHold(stmt.guards, env)) continue;
      // A default such as `application: Application = Application {}` reads nothing of the instance:
      // it is the same value for every instance, so it is evaluated (and instantiated) once.
      b.static ??= stmt.guards.length === 0 && isStatic(stmt.value, inst.layout);
      let x: Value;
      let op = stmt.op;
      const cached = this.deferRequired === 0 ? b.cached : (b.cached ?? b.cachedDeferred);
      if (cached !== undefined) {
        x = cached;
        if (stmt.path.length > 0) op = 'union';
      } else {
        const printed = this.printed.length;
        x = this.eval(stmt.value, env);
        for (let i = stmt.path.length - 1; i >= 0; i--) {
          const d = new KDict();
          d.setWithMeta(stmt.path[i]!, x, op === 'union' ? undefined : keyMeta(op, undefined));
          x = d;
          op = 'union';
        }
        // Not cached if evaluating it printed something: print() runs once per instance.
        if (b.static && this.printed.length === printed) {
          if (this.deferRequired === 0) b.cached = x;
          else b.cachedDeferred = x;
        }
      }
      if (op === 'override') v = x;
      else if (op === 'insert') v = this.concat(v, x, owner.scope as FileUnit, stmt.loc);
      else v = v === UNDEFINED || v === null ? x : this.union(v, x, inst.file, inst.loc);
    }
    return v;
  }

  private guardsHold(guards: readonly SchemaGuard[], env: Env): boolean {
    for (const g of guards) {
      for (const p of g.prior) if (truthy(this.eval(p, env))) return false;
      if (g.test && !truthy(this.eval(g.test, env))) return false;
    }
    return true;
  }

  isSubschema(s: SchemaType, of: SchemaType): boolean {
    for (let c: SchemaType | undefined = s; c; c = this.base(c)) if (c === of) return true;
    return false;
  }

  instantiate(s: SchemaType, config: KDict, file: FileUnit, loc: Loc): KDict {
    const l = this.layout(s);
    if (!l.index)
      for (const k of config.map.keys())
        if (!l.slots.has(k)) {
          const o = config.originOf(k);
          this.fail(
            'CompileError',
            `Cannot add member '${k}' to schema '${s.name}'${suggest(k, l.attrNames)}`,
            o ? (o.file as FileUnit) : file,
            o ?? loc,
          );
        }
    const out = new KDict(l.attrNames.length + l.privateNames.length);
    out.schema = s;
    out.config = config;
    const inst = new Instance(s, l, config, file, loc);
    for (const name of l.attrNames) {
      const v = this.attrValue(inst, name);
      if (v !== UNDEFINED) out.map.set(name, v);
    }
    for (const name of l.privateNames) out.map.set(name, this.attrValue(inst, name));
    for (const name of config.map.keys()) if (!out.map.has(name)) out.map.set(name, this.attrValue(inst, name));
    // a default about to be rebuilt with the config unioned into it is checked as rebuilt
    for (const { item, owner, ownerIx } of this.deferRequired === 0 ? l.checks : []) {
      const env = inst.env(ownerIx);
      if (item.guard && !truthy(this.eval(item.guard, env))) continue;
      if (truthy(this.eval(item.test, env))) continue;
      const msg = item.message ? toStr(this.eval(item.message, env)) : '';
      const ownerFile = owner.scope as FileUnit;
      this.fail('EvaluationError', 'Instance check failed', file, loc, [
        related(
          ownerFile,
          { line: item.loc.line, col: 1 },
          `Check failed on the condition${msg ? `: ${msg}` : ''}`,
          false,
        ),
      ]);
    }
    return out;
  }

  /** A name a schema body reads: an attribute, a `_private` body name, or a key an index signature admitted. */
  resolveInInstance(inst: Instance, name: string): Value | undefined {
    return inst.layout.slots.has(name) || (inst.layout.index && inst.config.map.has(name))
      ? this.attrValue(inst, name)
      : undefined;
  }

  private attrValue(inst: Instance, name: string): Value {
    const { layout: l, config, schema: s } = inst;
    const slot = l.slots.get(name);
    const known = slot ? inst.values[slot.ix] : inst.extra?.get(name);
    if (known !== undefined) {
      if (known === BUSY)
        this.fail('RecursionError', `attribute '${name}' of ${inst.schema.name} refers to itself`, inst.file, inst.loc);
      return known;
    }
    if (slot) inst.values[slot.ix] = BUSY;
    else (inst.extra ??= new Map()).set(name, BUSY);
    let v: Value;
    const cv = config.map.get(name);
    const hasCfg = cv !== undefined || config.map.has(name);
    const meta = hasCfg ? config.metaOf(name) : undefined;
    const origin = meta?.origin;
    const efile = origin ? (origin.file as FileUnit) : inst.file;
    const eloc: Loc = origin ?? inst.loc;
    if (slot) {
      const op = meta ? meta.op : 'union';
      // A default the config is unioned into is rebuilt from the merged config, which is checked
      // then: its own required attributes wait for the values the config states.
      const rebuilt = hasCfg && op === 'union' && cv !== UNDEFINED;
      if (rebuilt) this.deferRequired++;
      let dv: Value;
      try {
        dv = !hasCfg || op !== 'override' ? this.bodyValue(slot.body, inst) : UNDEFINED;
      } finally {
        if (rebuilt) this.deferRequired--;
      }
      if (!hasCfg) v = dv;
      else if (op === 'override') v = cv!;
      else if (op === 'insert') v = this.concat(dv, cv!, inst.file, inst.loc);
      else v = cv === UNDEFINED ? dv : dv === UNDEFINED || dv === null ? cv! : this.union(dv, cv!, inst.file, inst.loc);
      const a = slot.attr;
      if (a?.attr.type) {
        // A default computed from an expression other than a config literal: as in global().
        const opaque = !hasCfg && (slot.opaqueDefault ??= slot.body.some((b) => !isConfigLiteral(b.stmt.value)));
        if (opaque) this.opaqueConfigs++;
        try {
          v = this.convert(
            v,
            a.attr.type,
            inst.env(a.ownerIx),
            eloc,
            efile,
            origin && op !== 'insert' && this.opaqueConfigs === 0
              ? { file: a.owner.scope as FileUnit, loc: a.attr.loc }
              : undefined,
          );
        } finally {
          if (opaque) this.opaqueConfigs--;
        }
      }
      if (a && !a.attr.optional && this.deferRequired === 0 && (v === null || v === UNDEFINED))
        this.fail(
          'EvaluationError',
          `attribute '${name}' of ${s.name} is required and can't be None or Undefined`,
          // kcl reports it at the top-level statement being evaluated
          this.stmtFile ?? efile,
          this.stmtLoc ?? eloc,
          [],
          [],
          false,
        );
    } else {
      v = cv!;
      if (l.index && !name.startsWith('_')) v = this.convert(v, l.index.value, inst.env(l.index.ownerIx), eloc, efile);
    }
    if (slot) inst.values[slot.ix] = v;
    else inst.extra!.set(name, v);
    return v;
  }

  // ---- types ----
  /** Checks `v` against `t`, converting dicts to schema instances and ints to floats as KCL does. */
  convert(
    v: Value,
    t: TypeExpr,
    env: Env,
    loc: Loc,
    errFile: FileUnit = env.file,
    /** A schema attribute a config value is checked against: kcl's error points at it too. */
    declared?: { readonly file: FileUnit; readonly loc: Loc },
  ): Value {
    // A static default (`labels: {str:str} = {app = "x"}`) is one value shared by every instance:
    // converting it again would copy it again, with the same result. So the last conversion of a
    // container by a type of plain parts is kept per type node (values are never mutated).
    const memo = (t.t === 'dict' || t.t === 'list') && (v instanceof KDict || Array.isArray(v));
    const last = memo ? this.lastConversion.get(t) : undefined;
    if (last !== undefined && last.input === v) return last.output;
    const r = this.tryConvert(v, t, env, loc, errFile);
    if (r !== NO_MATCH) {
      if (last !== undefined) {
        last.input = v;
        last.output = r;
      } else if (memo && plainType(t)) this.lastConversion.set(t, { input: v, output: r });
      return r;
    }
    const why = this.convertWhy;
    const want = this.typeTextOf(t, env);
    const got = describeValue(v);
    return this.fail(
      'TypeError',
      `expected ${want}, got ${got}${why ? ` (${why})` : ''}`,
      errFile,
      loc,
      declared
        ? [related(declared.file, declared.loc, `variable is defined here, its type is ${want}, but got ${got}`, true)]
        : [],
    );
  }

  private readonly lastConversion = new Map<TypeExpr, { input: Value; output: Value }>();

  /** A type as kcl names it in an error: a type alias by the type it stands for. */
  private typeTextOf(t: TypeExpr, env: Env): string {
    switch (t.t) {
      case 'named': {
        let target: SchemaType | TypeAlias | undefined;
        try {
          target = this.resolveType(t, env);
        } catch {
          target = undefined;
        }
        return target instanceof TypeAlias ? this.typeTextOf(target.type, target.file.rootEnv) : typeText(t);
      }
      case 'list':
        return `[${this.typeTextOf(t.item, env)}]`;
      case 'dict':
        return `{${this.typeTextOf(t.key, env)}:${this.typeTextOf(t.value, env)}}`;
      case 'union':
        return t.types.map((x) => this.typeTextOf(x, env)).join(' | ');
      default:
        return typeText(t);
    }
  }

  /** Why the last union alternative failed (an error inside it), for convert's message. */
  private convertWhy: string | undefined;

  /** `v` converted to `t`, or NO_MATCH (no result objects: this runs for every typed attribute). */
  private tryConvert(v: Value, t: TypeExpr, env: Env, loc: Loc, errFile: FileUnit): Value | typeof NO_MATCH {
    // Set by a failing union only, so a failure reports the why of the union it came from.
    this.convertWhy = undefined;
    if (v === null || v === UNDEFINED) return v;
    switch (t.t) {
      case 'any':
        return v;
      case 'basic':
        switch (t.name) {
          case 'int':
            return typeof v === 'number' ? v : NO_MATCH;
          case 'float':
            if (typeof v === 'number') return new KFloat(v);
            return v instanceof KFloat ? v : NO_MATCH;
          case 'str':
            return typeof v === 'string' ? v : NO_MATCH;
          case 'bool':
            return typeof v === 'boolean' ? v : NO_MATCH;
          default:
            return NO_MATCH;
        }
      case 'literal':
        return valuesEqual(v, t.value) && typeof v === typeof t.value ? v : NO_MATCH;
      case 'list': {
        if (!Array.isArray(v)) return NO_MATCH;
        const out: Value[] = [];
        for (const x of v) {
          const r = this.tryConvert(x, t.item, env, loc, errFile);
          if (r === NO_MATCH) return r;
          out.push(r);
        }
        return out;
      }
      case 'dict': {
        if (!(v instanceof KDict)) return NO_MATCH;
        if (v.schema && t.value.t === 'any') return v;
        const out = new KDict();
        // The operators are kept, not the origins.
        for (let i = 0; i < v.size; i++) {
          const r = this.tryConvert(v.valueAt(i), t.value, env, loc, errFile);
          if (r === NO_MATCH) return r;
          const m = v.metaAt(i);
          out.setWithMeta(v.keyAt(i), r, m ? keyMeta(m.op, undefined) : undefined);
        }
        return out;
      }
      case 'named': {
        const target = this.resolveType(t, env);
        if (target instanceof TypeAlias) return this.tryConvert(v, target.type, target.file.rootEnv, loc, errFile);
        if (!(v instanceof KDict)) return NO_MATCH;
        if (v.schema && this.isSubschema(v.schema, target)) return v;
        if (v.schema) return NO_MATCH;
        return this.instantiate(target, v, errFile, loc);
      }
      case 'func':
        return v instanceof KFunc ? v : NO_MATCH;
      case 'union': {
        let why: string | undefined;
        for (const alt of t.types) {
          try {
            const r = this.tryConvert(v, alt, env, loc, errFile);
            if (r !== NO_MATCH) return r;
          } catch (err) {
            if (!(err instanceof KclError)) throw err;
            why = err.detail;
          }
        }
        this.convertWhy = why;
        return NO_MATCH;
      }
    }
  }

  /** Named types resolved once per (type node, file): globals and imports do not change during a run. */
  private readonly resolvedTypes = new Map<TypeExpr, { file: FileUnit; type: SchemaType | TypeAlias }>();

  private resolveType(t: TypeExpr & { t: 'named' }, env: Env): SchemaType | TypeAlias {
    const known = this.resolvedTypes.get(t);
    if (known && known.file === env.file) return known.type;
    let v: Value = this.lookup(t.path[0]!, env.file.rootEnv, t.loc);
    for (const seg of t.path.slice(1)) v = this.select(v, seg, env.file, t.loc);
    if (v instanceof SchemaType || v instanceof TypeAlias) {
      this.resolvedTypes.set(t, { file: env.file, type: v });
      return v;
    }
    return this.fail('TypeError', `'${t.path.join('.')}' is not a schema type`, env.file, t.loc);
  }

  // ---- operations ----
  /** `start`: the selected expression, whose start a module's missing attribute is reported at. */
  select(v: Value, attr: string, file: FileUnit, loc: Loc, start?: Expr): Value {
    if (v instanceof KDict) {
      if (v.map.has(attr)) return v.map.get(attr)!;
      if (v.schema && !this.layout(v.schema).attrs.has(attr) && !this.layout(v.schema).index)
        return this.fail('AttributeError', `schema '${v.schema.name}' attribute '${attr}' not found`, file, loc);
      return UNDEFINED;
    }
    if (v instanceof KModule) {
      const x = v.get(attr);
      if (x === undefined)
        // kcl's report: a TypeError at the start of the expression (`p` of `p.D`).
        return this.fail(
          'TypeError',
          `attribute '${attr}' not found in 'module '${v.name}''`,
          file,
          start ? startOf(start) : loc,
        );
      return x;
    }
    if (typeof v === 'string') return new KFunc(attr, (a) => callMethod(this, v, attr, a, file, loc));
    if (v === null || v === UNDEFINED)
      return this.fail('EvaluationError', `'${typeName(v)}' object has no attribute '${attr}'`, file, loc);
    return this.fail('AttributeError', `'${typeName(v)}' object has no attribute '${attr}'`, file, loc);
  }

  private index(v: Value, i: Value, file: FileUnit, loc: Loc): Value {
    if (Array.isArray(v) || typeof v === 'string') {
      if (typeof i !== 'number')
        return this.fail('TypeError', `${typeName(v)} indices must be int, got ${typeName(i)}`, file, loc);
      const n = v.length;
      const j = i < 0 ? n + i : i;
      if (j < 0 || j >= n) return this.fail('EvaluationError', `${typeName(v)} index out of range: ${i}`, file, loc);
      return Array.isArray(v) ? v[j]! : [...v][j]!;
    }
    if (v instanceof KDict) {
      if (typeof i !== 'string') return this.fail('TypeError', `dict keys are str, got ${typeName(i)}`, file, loc);
      return v.map.has(i) ? v.map.get(i)! : UNDEFINED;
    }
    return this.fail('TypeError', `'${typeName(v)}' object is not subscriptable`, file, loc);
  }

  private slice(e: Expr & { k: 'slice' }, env: Env): Value {
    const v = this.eval(e.value, env);
    if (!Array.isArray(v) && typeof v !== 'string')
      return this.fail('TypeError', `'${typeName(v)}' object is not sliceable`, env.file, e);
    const items: Value[] = Array.isArray(v) ? v : [...v];
    const n = items.length;
    const num = (x: Expr | undefined): number | undefined => {
      if (!x) return undefined;
      const r = this.eval(x, env);
      if (typeof r !== 'number')
        return this.fail('TypeError', `slice indices must be int, got ${typeName(r)}`, env.file, x);
      return r;
    };
    const step = num(e.step) ?? 1;
    if (step === 0) return this.fail('EvaluationError', 'slice step cannot be zero', env.file, e);
    const norm = (x: number | undefined, dflt: number): number => {
      if (x === undefined) return dflt;
      if (x < 0) x += n;
      return step > 0 ? Math.min(Math.max(x, 0), n) : Math.min(Math.max(x, -1), n - 1);
    };
    const lo = norm(num(e.lo), step > 0 ? 0 : n - 1);
    const hi = norm(num(e.hi), step > 0 ? n : -1);
    const out: Value[] = [];
    for (let i = lo; step > 0 ? i < hi : i > hi; i += step) out.push(items[i]!);
    return Array.isArray(v) ? out : out.join('');
  }

  private call(e: Expr & { k: 'call' }, env: Env): Value {
    const fn = this.eval(e.fn, env);
    const args = e.args.map((a) => this.eval(a, env));
    const kwargs = new Map(e.kwargs.map((k) => [k.name, this.eval(k.value, env)] as const));
    if (fn instanceof KFunc) {
      try {
        return fn.impl({ args, kwargs });
      } catch (err) {
        if (err instanceof CallError) {
          // A built-in failing while it runs (option() without its value): kcl reports it at the
          // top-level statement, without a caret.
          if (err.kind === 'EvaluationError' && this.stmtFile && this.stmtLoc)
            return this.fail(err.kind, err.message, this.stmtFile, this.stmtLoc, [], [], false);
          return this.fail(err.kind, err.message, env.file, e, [], [], err.caret);
        }
        throw err;
      }
    }
    if (fn instanceof SchemaType) return this.instantiate(fn, new KDict(), env.file, e);
    return this.fail('TypeError', `'${typeName(fn)}' object is not callable`, env.file, e);
  }

  private lambda(e: Expr & { k: 'lambda' }, closure: Env): KFunc {
    return new KFunc(
      'lambda',
      ({ args, kwargs }) => {
        if (args.length > e.params.length)
          throw new CallError(
            'TypeError',
            `expected at most ${e.params.length} positional arguments, found ${args.length}`,
          );
        const vars: Scope = new Map();
        const env = makeEnv(closure.file, closure, vars);
        e.params.forEach((p, i) => {
          let v: Value;
          if (i < args.length) v = args[i]!;
          else if (kwargs.has(p.name)) v = kwargs.get(p.name)!;
          else if (p.default) v = this.eval(p.default, env);
          else throw new CallError('TypeError', `missing the required positional argument '${p.name}'`);
          if (p.type) v = this.convert(v, p.type, env, e);
          vars.set(p.name, v);
        });
        for (const k of kwargs.keys())
          if (!e.params.some((p) => p.name === k))
            throw new CallError('TypeError', `got an unexpected keyword argument '${k}'`);
        let result = this.execBody(e.body, env);
        if (e.ret) result = this.convert(result, e.ret, env, e);
        return result;
      },
      { params: e.params, ...(e.ret ? { ret: e.ret } : {}), body: e.body },
    );
  }

  private execBody(body: readonly Stmt[], env: Env): Value {
    let last: Value = null;
    for (const st of body) {
      switch (st.s) {
        case 'assign': {
          let v = this.eval(st.value, env);
          if (st.op) v = this.binary(st.op, this.lookup(st.target, env, st), v, env.file, st);
          if (st.type) v = this.convert(v, st.type, env, st);
          env.vars!.set(st.target, v);
          last = null;
          break;
        }
        case 'expr':
          last = this.eval(st.expr, env);
          break;
        case 'assert':
          this.assert(st, env);
          break;
        case 'if': {
          const b = st.branches.find((br) => !br.test || truthy(this.eval(br.test, env)));
          last = b ? this.execBody(b.body, env) : null;
          break;
        }
        default:
          this.fail('CompileError', `'${st.s}' statements are not allowed in a lambda body`, env.file, st);
      }
    }
    return last;
  }

  private unary(op: string, v: Value, file: FileUnit, loc: Loc): Value {
    if (op === 'not') return !truthy(v);
    if (op === '~' && typeof v === 'number') return ~v;
    if (typeof v === 'number') return op === '-' ? -v : v;
    if (v instanceof KFloat) return op === '-' ? new KFloat(-v.v) : v;
    return this.fail('TypeError', `bad operand type for unary ${op}: '${typeName(v)}'`, file, loc);
  }

  binary(op: string, a: Value, b: Value, file: FileUnit, loc: Loc): Value {
    const bad = (): never =>
      this.fail(
        'TypeError',
        `unsupported operand type(s) for ${op}: '${describeOperand(a)}' and '${describeOperand(b)}'`,
        file,
        loc,
      );
    if (op === '|') {
      if (typeof a === 'number' && typeof b === 'number') return a | b;
      if (a === null || a === UNDEFINED) return b;
      return this.union(a, b, file, loc);
    }
    if (op === '+') {
      if (typeof a === 'string' && typeof b === 'string') return a + b;
      if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
    }
    if (op === '*') {
      if (typeof a === 'string' && typeof b === 'number') return b > 0 ? a.repeat(b) : '';
      if (Array.isArray(a) && typeof b === 'number') return Array.from({ length: Math.max(0, b) }, () => a).flat();
    }
    if (op === '%' && typeof a === 'string') return bad();
    const isNum = (x: Value): boolean => typeof x === 'number' || x instanceof KFloat;
    if (!isNum(a) || !isNum(b)) return bad();
    const x = numeric(a)!;
    const y = numeric(b)!;
    const ints = typeof a === 'number' && typeof b === 'number';
    const wrap = (r: number): Value => (ints ? r : new KFloat(r));
    switch (op) {
      case '+':
        return wrap(x + y);
      case '-':
        return wrap(x - y);
      case '*':
        return wrap(x * y);
      case '/':
        if (y === 0) return this.fail('EvaluationError', 'division by zero', file, loc);
        return new KFloat(x / y);
      case '//':
        if (y === 0) return this.fail('EvaluationError', 'integer division or modulo by zero', file, loc);
        return wrap(Math.floor(x / y));
      case '%':
        if (y === 0) return this.fail('EvaluationError', 'integer division or modulo by zero', file, loc);
        return wrap(x - y * Math.floor(x / y));
      case '**':
        return wrap(x ** y);
      case '&':
        return ints ? x & y : bad();
      case '^':
        return ints ? x ^ y : bad();
      case '<<':
        return ints ? x * 2 ** y : bad();
      case '>>':
        return ints ? Math.floor(x / 2 ** y) : bad();
    }
    return bad();
  }

  private compare(op: string, a: Value, b: Value, file: FileUnit, loc: Loc): boolean {
    switch (op) {
      case '==':
        return valuesEqual(a, b);
      case '!=':
        return !valuesEqual(a, b);
      case 'is':
        return a === b || valuesEqual(a, b);
      case 'is not':
        return !(a === b || valuesEqual(a, b));
      case 'in':
      case 'not in': {
        let r: boolean;
        if (Array.isArray(b)) r = b.some((x) => valuesEqual(x, a));
        else if (b instanceof KDict) r = typeof a === 'string' && b.map.has(a) && b.map.get(a) !== UNDEFINED;
        else if (typeof b === 'string' && typeof a === 'string') r = b.includes(a);
        else if (b === null || b === UNDEFINED) r = false;
        else
          return this.fail('TypeError', `'in' needs a list, dict or str on its right, got ${typeName(b)}`, file, loc);
        return op === 'in' ? r : !r;
      }
    }
    const c = this.order(a, b, file, loc);
    switch (op) {
      case '<':
        return c < 0;
      case '<=':
        return c <= 0;
      case '>':
        return c > 0;
      default:
        return c >= 0;
    }
  }

  order(a: Value, b: Value, file?: FileUnit, loc?: Loc): number {
    const na = numeric(a);
    const nb = numeric(b);
    if (na !== undefined && nb !== undefined) return na < nb ? -1 : na > nb ? 1 : 0;
    if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.min(a.length, b.length); i++) {
        const c = this.order(a[i]!, b[i]!, file, loc);
        if (c !== 0) return c;
      }
      return a.length - b.length;
    }
    return this.fail(
      'TypeError',
      `'<' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`,
      file,
      loc,
    );
  }
}

/** kcl's "did you mean" for a misspelled member: the names within two edits. */
function suggest(name: string, names: readonly string[]): string {
  const close = names.filter((n) => editDistance(n, name) <= Math.min(2, Math.max(1, Math.floor(name.length / 3))));
  return close.length ? `, did you mean '${JSON.stringify(close).replace(/,/g, ', ')}'?` : '';
}

/**
 * kcl's "did you mean" for an undefined name: clap-style suggestions (Jaro similarity above 0.8,
 * most similar first), which leave a one-letter name without any.
 */
function suggestSimilar(name: string, names: readonly string[]): string {
  const scored = [...new Set(names)]
    .map((n) => [n, jaro(name, n)] as const)
    .filter(([, j]) => j > 0.8)
    .sort((x, y) => y[1] - x[1]);
  return scored.length ? `, did you mean '${JSON.stringify(scored.map(([n]) => n)).replace(/,/g, ', ')}'?` : '';
}

/** Jaro similarity of two strings (0: nothing in common, 1: equal). */
function jaro(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const range = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const used = new Array<boolean>(b.length).fill(false);
  const aMatched: string[] = [];
  for (let i = 0; i < a.length; i++) {
    const lo = Math.max(0, i - range);
    const hi = Math.min(b.length - 1, i + range);
    for (let j = lo; j <= hi; j++)
      if (!used[j] && b[j] === a[i]) {
        used[j] = true;
        aMatched.push(a[i]!);
        break;
      }
  }
  const m = aMatched.length;
  if (m === 0) return 0;
  let k = 0;
  let half = 0;
  for (let j = 0; j < b.length; j++) if (used[j]) half += b[j] !== aMatched[k++] ? 1 : 0;
  const t = Math.floor(half / 2);
  return (m / a.length + m / b.length + (m - t) / m) / 3;
}

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

function lineOf(file: FileUnit, loc: Loc): string {
  return file.module.text.split('\n')[loc.line - 1] ?? '';
}

function related(file: FileUnit, loc: Loc, text: string, caret: boolean): KclRelated {
  return { pos: { file: file.fileKey, line: loc.line, col: loc.col }, sourceLine: lineOf(file, loc), text, caret };
}

/** How KCL names a value in a type error: `str(x)`, `int(1)`, `[str(a) | int(1)]`, a schema's name. */
function describeValue(v: Value): string {
  if (v === null) return 'NoneType';
  if (v === UNDEFINED) return 'UndefinedType';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof KFloat)
    return `${typeName(v)}(${toStr(v)})`;
  if (Array.isArray(v)) return `[${[...new Set(v.map(describeValue))].join(' | ')}]`;
  if (v instanceof KDict && !v.schema) {
    const keys = [...new Set(v.map.keys().map(describeValue))];
    const vals = [...new Set(v.map.values().map(describeValue))];
    return vals.length ? `{${keys.join(' | ')}:${vals.join(' | ')}}` : '{}';
  }
  return typeName(v);
}

/** An operand in kcl's "unsupported operand type(s)": a scalar with its value, a container by its types. */
function describeOperand(v: Value): string {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof KFloat)
    return describeValue(v);
  return typeOf(v);
}

function typeOf(v: Value): string {
  if (Array.isArray(v)) return `[${[...new Set(v.map(typeOf))].join(' | ')}]`;
  if (v instanceof KDict && !v.schema) {
    const vals = [...new Set(v.map.values().map(typeOf))];
    return vals.length ? `{str:${vals.join(' | ')}}` : '{}';
  }
  return v === null ? 'NoneType' : v === UNDEFINED ? 'UndefinedType' : typeName(v);
}

/** `type Name = T`. */
class TypeAlias {
  constructor(
    readonly type: TypeExpr,
    readonly file: FileUnit,
  ) {}
}

/** An error raised by a builtin or lambda; the call site adds the position. */

function typeText(t: TypeExpr): string {
  switch (t.t) {
    case 'any':
      return 'any';
    case 'basic':
      return t.name;
    case 'list':
      return `[${typeText(t.item)}]`;
    case 'dict':
      return `{${typeText(t.key)}:${typeText(t.value)}}`;
    case 'named':
      return t.path.join('.');
    case 'literal':
      // As kcl names a literal type: str(TCP), int(123), bool(True).
      return describeValue(typeof t.value === 'number' && !Number.isInteger(t.value) ? new KFloat(t.value) : t.value);
    case 'union':
      return t.types.map(typeText).join(' | ');
    case 'func':
      return 'function';
  }
}

/** Where an expression starts: the leftmost operand of a chain of selections, indexes and calls. */
function startOf(e: Expr): Loc {
  for (;;) {
    if (e.k === 'select' || e.k === 'index' || e.k === 'slice') e = e.value;
    else if (e.k === 'call') e = e.fn;
    else return e;
  }
}

function isConfigLiteral(e: Expr): boolean {
  return e.k === 'config' || e.k === 'schema';
}

/** A type whose conversion depends on the value alone (no schema or alias to resolve, no union to try). */
function plainType(t: TypeExpr): boolean {
  switch (t.t) {
    case 'any':
    case 'basic':
    case 'literal':
      return true;
    case 'list':
      return plainType(t.item);
    case 'dict':
      return plainType(t.key) && plainType(t.value);
    default:
      return false;
  }
}

/**
 * Whether a schema body expression reads nothing of the instance being built: no attribute or
 * `_private` name (nor, with an index signature, any name at all), no call, no lambda or
 * comprehension. Such a value depends only on globals, imports and literals, which do not
 * change during a run.
 */
function isStatic(e: Expr, l: Layout): boolean {
  switch (e.k) {
    case 'lit':
    case 'float':
      return true;
    case 'name':
      return !l.index && !l.slots.has(e.name);
    case 'str':
      return e.parts.every((p) => p.expr === undefined || isStatic(p.expr, l));
    case 'paren':
      return isStatic(e.expr, l);
    case 'select':
      return isStatic(e.value, l);
    case 'index':
      return isStatic(e.value, l) && isStatic(e.index, l);
    case 'unary':
      return isStatic(e.operand, l);
    case 'binary':
      return isStatic(e.left, l) && isStatic(e.right, l);
    case 'compare':
      return e.operands.every((x) => isStatic(x, l));
    case 'ifexpr':
      return isStatic(e.test, l) && isStatic(e.then, l) && (!e.else || isStatic(e.else, l));
    case 'list':
      return e.items.every((it) => staticListItem(it, l));
    case 'config':
      return e.entries.every((en) => staticEntry(en, l));
    case 'schema':
      return !e.args && isStatic(e.target, l) && isStatic(e.config, l);
    default:
      return false;
  }
}

function staticListItem(it: ListItem, l: Layout): boolean {
  if (it.kind === 'if')
    return it.branches.every((b) => (!b.test || isStatic(b.test, l)) && b.items.every((x) => staticListItem(x, l)));
  return isStatic(it.value, l);
}

function staticEntry(en: ConfigEntry, l: Layout): boolean {
  if (en.kind === 'if')
    return en.branches.every((b) => (!b.test || isStatic(b.test, l)) && b.entries.every((x) => staticEntry(x, l)));
  if (en.kind === 'unpack') return isStatic(en.value, l);
  return (!en.keyExpr || isStatic(en.keyExpr, l)) && isStatic(en.value, l);
}
