/**
 * The checker (spec §7 steps 2–3): resolves types, checks expressions
 * bidirectionally against expected types, and turns each value flowing into
 * a refined type into a verification condition decided by constant folding
 * or known facts (refuted = CLEAT_REFINEMENT; undecided = left to the runtime
 * boundary check). It enforces declare-before-use and no recursion, exact
 * records with "did you mean", match exhaustiveness, and the static part of
 * `with` patches. It never throws: problems become diagnostics, and an
 * expression it cannot type gets Json so one error does not cascade.
 */
import type { Diagnostic, Span } from '../common/source.js';
import type * as A from './ast.js';
import { BUILTINS } from './builtins.js';
import type { FnInfo, ModuleCtx, ParamInfo } from './context.js';
import { CleatCodes, CleatError, didYouMean, type CleatCode } from './diagnostics.js';
import { bind, Evaluator, NotConstant, UNKNOWN, type Frame, type Slot } from './evaluator.js';
import { comparisons, decide, FULL, narrow, type Interval } from './facts.js';
import { lookupSchemaType } from './openapi.js';
import { compileRe2 } from './re2.js';
import { joinPath } from './conform.js';
import { applyTypeWith, type WithEntryResolved } from './type-with.js';
import {
  assignable,
  expand,
  isDeclared,
  isInfinite,
  mergeRecordTypes,
  nonNull,
  overlaps,
  replaceFieldType,
  widenScalar,
} from './type-relations.js';
import {
  baseOf,
  fieldOmittable,
  isSubtype,
  litEq,
  normalize,
  resolve,
  showType,
  T,
  union,
  type Field,
  type NamedCell,
  type Ty,
} from './types.js';
import { showValue, type Value } from './value.js';

/** A static variable: its type, its value when known, and facts about it. */
interface SVar {
  name: string;
  type: Ty;
  value: Slot;
  facts: Interval;
  parent: SVar | undefined;
}

interface Scope {
  vars: SVar | undefined;
  /** The function being declared (its own name is not callable inside: no recursion). */
  inFn?: string;
}

const BUILTIN_TYPES: Record<string, Ty> = {
  Never: T.never,
  Bool: T.bool,
  Int: T.int,
  Float: T.float,
  Str: T.str,
  Json: T.json,
};

export function checkModule(ctx: ModuleCtx): void {
  new Checker(ctx).run();
}

class Checker {
  private readonly folder = new Evaluator(undefined);
  private readonly aliasCells = new Map<string, NamedCell>();
  private readonly aliasDecls = new Map<string, A.Item & { kind: 'TypeDecl' }>();
  private readonly aliasStack: string[] = [];
  private readonly topNames = new Set<string>();
  private readonly declared = new Set<string>();

  constructor(private readonly ctx: ModuleCtx) {}

  private report(code: CleatCode, message: string, span: Span, path?: string): void {
    const d: Diagnostic = { code, message, span };
    if (path) d.path = path;
    this.ctx.diagnostics.push(d);
  }

  run(): void {
    const items = this.ctx.program.items;
    for (const it of items) {
      if (it.kind === 'TypeDecl') {
        if (this.aliasDecls.has(it.name) || this.ctx.types.has(it.name))
          this.report(CleatCodes.DUPLICATE_DECL, `type \`${it.name}\` is declared twice`, it.span);
        this.aliasDecls.set(it.name, it);
        const cell: NamedCell = { name: it.name };
        this.aliasCells.set(it.name, cell);
        this.ctx.types.set(it.name, { k: 'named', cell });
      } else if (it.kind === 'LetDecl' || it.kind === 'Input' || it.kind === 'FnDecl') this.topNames.add(it.name);
    }
    for (const name of this.aliasDecls.keys()) this.resolveAlias(name);
    for (const it of items) if (it.kind === 'Refine') this.refine(it);
    for (const it of items) this.item(it);
  }

  // ---- type aliases ----
  private resolveAlias(name: string): void {
    const cell = this.aliasCells.get(name)!;
    if (cell.ty) return;
    const decl = this.aliasDecls.get(name)!;
    if (this.aliasStack.includes(name)) {
      const cycle = [...this.aliasStack.slice(this.aliasStack.indexOf(name)), name].join(' -> ');
      this.report(
        CleatCodes.RECURSION,
        `type alias \`${name}\` is recursive (${cycle}); use Json for recursive data`,
        decl.span,
      );
      cell.ty = T.json;
      return;
    }
    this.aliasStack.push(name);
    const t = this.resolveType(decl.type, { vars: undefined }, this.ctx);
    this.aliasStack.pop();
    if (!cell.ty) cell.ty = t;
  }

  /** Resolves a type expression. `scope` is what predicates and defaults may see; `owner` marks type-declaration scope. */
  resolveType(te: A.TypeExpr, sc: Scope, owner: ModuleCtx | 'local', alias?: string): Ty {
    const t = this.resolveTypeInner(te, sc, owner, alias);
    this.ctx.typeOf.set(te, t);
    return t;
  }

  private lookupTypeName(path: string[], span: Span): Ty | undefined {
    if (path.length === 1) {
      const b = BUILTIN_TYPES[path[0]!];
      if (b) return b;
      const t = this.ctx.types.get(path[0]!);
      if (t) {
        if (this.aliasCells.has(path[0]!)) this.resolveAlias(path[0]!);
        return t;
      }
      this.report(
        CleatCodes.UNKNOWN_NAME,
        `unknown type \`${path[0]}\`${didYouMean(path[0]!, [...Object.keys(BUILTIN_TYPES), ...this.ctx.types.keys()])}`,
        span,
      );
      return undefined;
    }
    const ns = this.ctx.namespaces.get(path[0]!);
    if (!ns) {
      this.report(
        CleatCodes.UNKNOWN_NAME,
        `unknown namespace \`${path[0]}\`${didYouMean(path[0]!, this.ctx.namespaces.keys())}`,
        span,
      );
      return undefined;
    }
    if (ns.kind === 'schema') {
      const r = lookupSchemaType(ns.schema, path.slice(1));
      if (typeof r === 'string') {
        this.report(r.includes('ambiguous') ? CleatCodes.AMBIGUOUS_NAME : CleatCodes.UNKNOWN_NAME, r, span);
        return undefined;
      }
      return { k: 'named', cell: r };
    }
    const t = path.length === 2 ? ns.ctx.types.get(path[1]!) : undefined;
    if (!t)
      this.report(
        CleatCodes.UNKNOWN_NAME,
        `module \`${path[0]}\` has no type \`${path.slice(1).join('.')}\`${didYouMean(path.slice(1).join('.'), ns.ctx.types.keys())}`,
        span,
      );
    return t;
  }

  private resolveTypeInner(te: A.TypeExpr, sc: Scope, owner: ModuleCtx | 'local', alias?: string): Ty {
    switch (te.kind) {
      case 'TName':
        return this.lookupTypeName(te.path, te.span) ?? T.json;
      case 'TLit':
        return te.value === null ? T.null : T.lit(te.value);
      case 'TList':
        return T.list(this.resolveType(te.elem, sc, owner));
      case 'TTuple':
        return T.tuple(te.elems.map((e) => this.resolveType(e, sc, owner)));
      case 'TMap':
        return T.map(this.resolveType(te.value, sc, owner));
      case 'TUnion':
        return union(te.members.map((m) => this.resolveType(m, sc, owner, alias)));
      case 'TRecord': {
        const seen = new Set<string>();
        const fields: Field[] = [];
        for (const f of te.fields) {
          if (seen.has(f.name))
            this.report(CleatCodes.DUPLICATE_DECL, `field \`${f.name}\` is declared twice`, f.nameSpan);
          seen.add(f.name);
          const ft = this.resolveType(f.type, sc, owner, f.name);
          const field: Field = { name: f.name, type: ft, optional: f.optional };
          if (f.default) {
            // Defaults in types see no variables (spec §11, provisional).
            this.checkExpr(f.default, ft, { vars: undefined }, f.name);
            field.default = { expr: f.default, scope: owner === 'local' ? this.ctx : owner };
          }
          fields.push(field);
        }
        return normalize(T.record(fields, te.open));
      }
      case 'TWhere': {
        const base = this.resolveType(te.base, sc, owner, alias);
        let vars = bindS(sc.vars, 'self', base, UNKNOWN);
        if (alias) vars = bindS(vars, alias, base, UNKNOWN);
        this.checkExpr(te.pred, T.bool, { ...sc, vars });
        return normalize({ k: 'refine', base, pred: te.pred, ...(alias ? { alias } : {}), scope: owner });
      }
      case 'TWith': {
        const base = this.resolveType(te.base, sc, owner);
        return applyTypeWith(
          base,
          this.withEntries(te.entries, base, sc, owner),
          (e, m) => this.report(CleatCodes.BAD_WITH, m, e.span),
          owner,
        );
      }
    }
  }

  private withEntries(
    entries: A.TypeWithEntry[],
    base: Ty,
    sc: Scope,
    owner: ModuleCtx | 'local',
  ): WithEntryResolved[] {
    return entries.map((entry) => {
      if (entry.kind === 'replace') {
        const t = this.resolveType(entry.type, sc, owner, lastField(entry.path));
        if (entry.default) this.checkExpr(entry.default, t, { vars: undefined });
        return { entry, type: t };
      }
      if (entry.kind === 'predicate') {
        const at = typeAtPath(base, entry.path);
        const name = lastField(entry.path);
        let vars = bindS(sc.vars, 'self', at, UNKNOWN);
        if (name) vars = bindS(vars, name, at, UNKNOWN);
        this.checkExpr(entry.pred, T.bool, { ...sc, vars });
      }
      return { entry };
    });
  }

  private refine(it: A.Item & { kind: 'Refine' }): void {
    let cell: NamedCell | undefined;
    if (it.target.length === 1) {
      if (this.aliasCells.has(it.target[0]!)) cell = this.aliasCells.get(it.target[0]!);
    } else {
      const t = this.lookupTypeName(it.target, it.span);
      if (t?.k === 'named') cell = t.cell;
      else if (t) {
        this.report(CleatCodes.BAD_WITH, `\`refine\` needs a named type, found ${showType(t)}`, it.span);
        return;
      } else return;
    }
    if (!cell) {
      this.report(CleatCodes.UNKNOWN_NAME, `unknown type \`${it.target.join('.')}\``, it.span);
      return;
    }
    const current = resolve({ k: 'named', cell });
    cell.ty = applyTypeWith(
      current,
      this.withEntries(it.entries, current, { vars: undefined }, this.ctx),
      (e, m) => this.report(CleatCodes.BAD_WITH, m, e.span),
      this.ctx,
    );
  }

  // ---- items ----
  private item(it: A.Item): void {
    const sc: Scope = { vars: undefined };
    switch (it.kind) {
      case 'TypeDecl':
      case 'Refine':
      case 'Import':
        return;
      case 'Input': {
        if (!this.ctx.isEntry) {
          this.report(
            CleatCodes.MODULE_ITEM,
            'a module cannot declare inputs: pass values as function parameters',
            it.span,
          );
          return;
        }
        const t = this.resolveType(it.type, sc, this.ctx, it.name);
        if (it.default) this.checkExpr(it.default, t, sc, it.name);
        this.declare(it.name, it.span);
        this.ctx.globals.set(it.name, { kind: 'input', decl: it, type: t, ctx: this.ctx });
        return;
      }
      case 'LetDecl': {
        let t: Ty;
        let declaredTy: Ty | undefined;
        if (it.type) {
          declaredTy = this.resolveType(it.type, sc, 'local', it.name);
          this.checkExpr(it.value, declaredTy, sc, '');
          t = declaredTy;
        } else {
          const before = this.ctx.diagnostics.length;
          t = this.inferExpr(it.value, sc);
          // Top-level lets always run at export, so a constant one that fails (error("..."), 1 / 0) is a compile error.
          if (it.value.kind === 'Call' && this.ctx.diagnostics.length === before) this.constValue(it.value, sc);
        }
        this.declare(it.name, it.span);
        this.ctx.globals.set(it.name, {
          kind: 'let',
          decl: it,
          type: t,
          ...(declaredTy ? { declared: declaredTy } : {}),
          ctx: this.ctx,
        });
        return;
      }
      case 'FnDecl':
        return this.fnDecl(it);
      case 'Export': {
        if (!this.ctx.isEntry) {
          this.report(CleatCodes.MODULE_ITEM, 'a module cannot export: return values from functions instead', it.span);
          return;
        }
        const t = this.inferExpr(it.value, sc);
        this.ctx.exports.push({ decl: it, type: t });
      }
    }
  }

  private declare(name: string, span: Span): void {
    if (this.declared.has(name)) this.report(CleatCodes.DUPLICATE_DECL, `\`${name}\` is declared twice`, span);
    this.declared.add(name);
  }

  private fnDecl(it: A.Item & { kind: 'FnDecl' }): void {
    let vars: SVar | undefined;
    const params: ParamInfo[] = [];
    const seen = new Set<string>();
    for (const p of it.params) {
      if (seen.has(p.name)) this.report(CleatCodes.DUPLICATE_DECL, `parameter \`${p.name}\` is declared twice`, p.span);
      seen.add(p.name);
      const t = this.resolveType(p.type, { vars }, 'local', p.name);
      if (p.default) this.checkExpr(p.default, t, { vars }, p.name);
      params.push({ name: p.name, type: t, ...(p.default ? { default: p.default } : {}), span: p.span });
      vars = bindS(vars, p.name, t, UNKNOWN);
    }
    const sc: Scope = { vars, inFn: it.name };
    const result = it.result ? this.resolveType(it.result, sc, 'local') : undefined;
    const bodyT = result ? (this.checkExpr(it.body, result, sc, ''), result) : this.inferExpr(it.body, sc);
    this.declare(it.name, it.span);
    const info: FnInfo = { name: it.name, decl: it, params, type: bodyT, ctx: this.ctx };
    if (result) info.result = result;
    this.ctx.fns.set(it.name, info);
  }

  // ---- constant folding and VCs ----
  private frameOf(vars: SVar | undefined): Frame | undefined {
    const list: SVar[] = [];
    for (let v = vars; v; v = v.parent) list.push(v);
    let f: Frame | undefined;
    for (let i = list.length - 1; i >= 0; i--) f = bind(f, list[i]!.name, list[i]!.value);
    return f;
  }

  /** The expression's value if it is a compile-time constant. Runtime errors while folding are reported. */
  constValue(e: A.Expr, sc: Scope): Value | undefined {
    try {
      return this.folder.eval(e, { ctx: this.ctx, vars: this.frameOf(sc.vars) });
    } catch (err) {
      if (err instanceof NotConstant) return undefined;
      if (err instanceof CleatError) {
        // A constant expression that always fails (1 / 0, error("..."), overflow) is a compile error.
        if (err.span) this.report(err.code, err.message, err.span, err.path);
        return undefined;
      }
      throw err;
    }
  }

  private quietConst(e: A.Expr, sc: Scope): Value | undefined {
    try {
      return this.folder.eval(e, { ctx: this.ctx, vars: this.frameOf(sc.vars) });
    } catch {
      return undefined;
    }
  }

  /** Decides `e` against the refinement layers of `t`; reports refutations. */
  private verify(e: A.Expr, t: Ty, sc: Scope, path: string): void {
    const r = resolve(t);
    if (r.k !== 'refine') return;
    this.verify(e, r.base, sc, path);
    const predText = r.pred.span.file.text.slice(r.pred.span.start, r.pred.span.end);
    const v = this.quietConst(e, sc);
    const predScope = r.scope === 'local' ? sc.vars : undefined;
    if (v !== undefined) {
      let vars = bindS(predScope, 'self', r.base, v);
      if (r.alias) vars = bindS(vars, r.alias, r.base, v);
      const ok = this.quietConst(r.pred, { vars });
      if (ok === false)
        this.report(
          CleatCodes.REFINEMENT,
          `value ${showValue(v)} does not satisfy \`where ${predText}\``,
          e.span,
          path || undefined,
        );
      return;
    }
    if (e.kind !== 'Var') return;
    const b = lookupS(sc.vars, e.name);
    const known = b ? b.facts : this.globalFacts(e.name);
    const declaredType = b ? b.type : this.ctx.globals.get(e.name)?.type;
    if (declaredType && hasRefinement(declaredType, r.pred)) return;
    const isSelf = (x: A.Expr): boolean => x.kind === 'Self' || (x.kind === 'Var' && x.name === r.alias);
    const conj = comparisons(r.pred, isSelf, (x) => numberOf(this.quietConst(x, { vars: predScope })));
    if (!conj) return;
    let allTrue = true;
    for (const c of conj) {
      const d = decide(known, c.op, c.c);
      if (d === false) {
        this.report(
          CleatCodes.REFINEMENT,
          `\`${e.name}\` can never satisfy \`where ${predText}\` (known: ${showInterval(known)})`,
          e.span,
          path || undefined,
        );
        return;
      }
      if (d !== true) allTrue = false;
    }
    void allTrue; // proven VCs need no runtime check; the boundary check stays as a cheap safety net
  }

  private globalFacts(name: string): Interval {
    const g = this.ctx.globals.get(name);
    return g ? factsFromType(g.type, (x) => numberOf(this.quietConst(x, { vars: undefined }))) : FULL;
  }

  // ---- checking against an expected type ----
  /** Checks `e` against `expected`; returns the type to use for `e` (the expected one when it fits). */
  checkExpr(e: A.Expr, expected: Ty, sc: Scope, path = ''): Ty {
    const exp = resolve(expected);
    if (exp.k === 'refine') {
      this.checkExpr(e, exp.base, sc, path);
      this.verify(e, expected, sc, path);
      return expected;
    }
    if (exp.k === 'json') {
      this.inferExpr(e, sc);
      return expected;
    }
    switch (e.kind) {
      case 'Object':
        if (exp.k === 'record' || exp.k === 'map') {
          this.checkObject(e, exp, expected, sc, path);
          return expected;
        }
        if (exp.k === 'union') return this.checkUnion(e, exp.members, expected, sc, path);
        break;
      case 'List':
        if (exp.k === 'list') {
          // Plain items before any spread/if/for have known indices, so paths can say `[2]`.
          let known = true;
          e.items.forEach((it, i) => {
            if (it.kind !== 'item') known = false;
            this.checkListItem(it, exp.elem, sc, path, known ? i : undefined);
          });
          return expected;
        }
        if (exp.k === 'union') return this.checkUnion(e, exp.members, expected, sc, path);
        break;
      case 'Tuple':
        if (exp.k === 'tuple' && exp.elems.length === e.elems.length) {
          e.elems.forEach((x, i) => this.checkExpr(x, exp.elems[i]!, sc, joinPath(path, i)));
          return expected;
        }
        break;
      case 'If': {
        this.checkExpr(e.cond, T.bool, sc);
        const [tv, fv] = this.branchScopes(e.cond, sc);
        this.checkExpr(e.then, expected, tv, path);
        if (e.else) this.checkExpr(e.else, expected, fv, path);
        return expected;
      }
      case 'Let': {
        const inner = this.letScope(e, sc);
        this.checkExpr(e.body, expected, inner, path);
        return expected;
      }
      case 'Match': {
        this.matchExpr(e, sc, (body, s) => this.checkExpr(body, expected, s, path));
        return expected;
      }
      default:
        break;
    }
    const actual = this.inferExpr(e, sc);
    this.expectType(actual, expected, e.span, path);
    this.verify(e, expected, sc, path);
    return expected;
  }

  private expectType(actual: Ty, expected: Ty, span: Span, path: string): void {
    if (!assignable(actual, expected)) {
      this.report(
        CleatCodes.TYPE_MISMATCH,
        `expected \`${showType(expected)}\`, found \`${showType(actual)}\``,
        span,
        path || undefined,
      );
    }
  }

  /** Tries each union member quietly; keeps the first that fits, else reports the closest member's errors. */
  private checkUnion(e: A.Expr, ms: Ty[], expected: Ty, sc: Scope, path: string): Ty {
    let best: Diagnostic[] | undefined;
    const saved = this.ctx.diagnostics;
    for (const m of ms) {
      const rm = baseOf(m);
      if (e.kind === 'Object' && rm.k !== 'record' && rm.k !== 'map' && rm.k !== 'json') continue;
      if (e.kind === 'List' && rm.k !== 'list' && rm.k !== 'json') continue;
      this.ctx.diagnostics = [];
      this.checkExpr(e, m, sc, path);
      const got = this.ctx.diagnostics;
      this.ctx.diagnostics = saved;
      if (got.length === 0) return m;
      if (!best || got.length < best.length) best = got;
    }
    if (best) saved.push(...best);
    else this.report(CleatCodes.TYPE_MISMATCH, `expected \`${showType(expected)}\``, e.span, path || undefined);
    return expected;
  }

  private checkListItem(it: A.ListItem, elem: Ty, sc: Scope, path: string, index?: number): void {
    switch (it.kind) {
      case 'item':
        this.checkExpr(it.value, elem, sc, index === undefined ? `${path}[]` : joinPath(path, index));
        return;
      case 'spread':
        this.checkExpr(it.value, T.list(elem), sc, path);
        return;
      case 'if': {
        this.checkExpr(it.cond, T.bool, sc);
        const [tv, fv] = this.branchScopes(it.cond, sc);
        this.checkListItem(it.then, elem, tv, path);
        if (it.else) this.checkListItem(it.else, elem, fv, path);
        return;
      }
      case 'for':
        this.checkListItem(it.body, elem, this.forScope(it.key, it.name, it.source, sc), path);
    }
  }

  /** Object literal against a record or map type: unknown fields, field values, missing fields. */
  private checkObject(
    e: A.Expr & { kind: 'Object' },
    t: Ty & { k: 'record' | 'map' },
    named: Ty,
    sc: Scope,
    path: string,
    partial = false,
  ): void {
    type Entry = { rest: A.KeySeg[]; value: A.Expr; span: Span; keySpan: Span };
    const groups = new Map<string, Entry[]>();
    let complete = !partial;
    const addFieldMember = (m: A.Member & { kind: 'field' }): void => {
      const k = m.path[0]!;
      const key = k.kind === 'name' ? k.name : this.quietConst(k.expr, sc);
      if (typeof key !== 'string') {
        complete = false;
        this.checkExpr(k.kind === 'computed' ? k.expr : m.value, T.str, sc);
        if (t.k === 'map') this.checkExpr(m.value, t.value, sc, path);
        else this.inferExpr(m.value, sc);
        return;
      }
      const list = groups.get(key) ?? [];
      list.push({ rest: m.path.slice(1), value: m.value, span: m.span, keySpan: k.span });
      groups.set(key, list);
    };
    for (const m of e.members) {
      if (m.kind === 'field') addFieldMember(m);
      else if (m.kind === 'spread') {
        complete = false;
        const st = this.inferExpr(m.value, sc);
        const sb = baseOf(st);
        if (t.k === 'record' && sb.k === 'record') {
          for (const f of sb.fields)
            if (!t.open && !t.fields.some((x) => x.name === f.name)) {
              this.report(
                CleatCodes.UNKNOWN_FIELD,
                `unknown field \`${f.name}\` (from the spread) in \`${showType(named)}\`${didYouMean(
                  f.name,
                  t.fields.map((x) => x.name),
                )}`,
                m.span,
                joinPath(path, f.name),
              );
            }
        }
      } else if (m.kind === 'if') {
        complete = false;
        this.checkExpr(m.cond, T.bool, sc);
        const [tv, fv] = this.branchScopes(m.cond, sc);
        this.checkMemberBody(m.then, t, named, tv, path);
        if (m.else) this.checkMemberBody(m.else, t, named, fv, path);
      } else {
        complete = false;
        this.checkMemberBody(m.body, t, named, this.forScope(m.key, m.name, m.source, sc), path);
      }
    }
    for (const [key, entries] of groups) {
      const fp = joinPath(path, key);
      let ft: Ty;
      if (t.k === 'map') ft = t.value;
      else {
        const f = t.fields.find((x) => x.name === key);
        if (!f) {
          if (!t.open) {
            this.report(
              CleatCodes.UNKNOWN_FIELD,
              `unknown field \`${key}\` in \`${showType(named)}\`${didYouMean(
                key,
                t.fields.map((x) => x.name),
              )}`,
              entries[0]!.keySpan,
              fp,
            );
          }
          for (const en of entries) this.inferExpr(en.value, sc);
          continue;
        }
        ft = f.type;
        if (f.optional) {
          // An optional field may be given null (it is dropped); anything else must fit the field's type.
          const rest = entries.filter(
            (en) => !(en.rest.length === 0 && en.value.kind === 'Lit' && en.value.value === null),
          );
          if (rest.length === 0) continue;
          entries.splice(0, entries.length, ...rest);
        }
      }
      const whole = entries.filter((en) => en.rest.length === 0);
      const dotted = entries.filter((en) => en.rest.length > 0);
      for (const en of whole) this.checkExpr(en.value, ft, sc, fp);
      if (dotted.length > 0) {
        const sub: A.Expr & { kind: 'Object' } = {
          kind: 'Object',
          members: dotted.map((en) => ({ kind: 'field', path: en.rest, value: en.value, span: en.span })),
          span: dotted[0]!.span,
        };
        const target = nonNull(ft);
        const rt = baseOf(target);
        if (rt.k === 'record' || rt.k === 'map') this.checkObject(sub, rt, target, sc, fp, whole.length > 0);
        else if (rt.k === 'json') this.inferExpr(sub, sc);
        else
          this.report(
            CleatCodes.TYPE_MISMATCH,
            `\`${key}\` is \`${showType(ft)}\`, not an object`,
            dotted[0]!.span,
            fp,
          );
      }
    }
    if (complete && t.k === 'record') {
      for (const f of t.fields) {
        if (!groups.has(f.name) && !fieldOmittable(f)) {
          this.report(
            CleatCodes.MISSING_FIELD,
            `missing required field \`${f.name}\` of \`${showType(named)}\``,
            e.span,
            joinPath(path, f.name),
          );
        }
      }
    }
  }

  private checkMemberBody(body: A.Expr, t: Ty & { k: 'record' | 'map' }, named: Ty, sc: Scope, path: string): void {
    if (body.kind === 'Object') this.checkObject(body, t, named, sc, path, true);
    else this.inferExpr(body, sc);
  }

  // ---- inference ----
  inferExpr(e: A.Expr, sc: Scope): Ty {
    switch (e.kind) {
      case 'Lit':
        return e.value === null ? T.null : T.lit(e.value);
      case 'Str':
        for (const p of e.parts) {
          if (typeof p === 'string') continue;
          const pt = this.inferExpr(p, sc);
          if (!assignable(pt, union([T.str, T.float, T.bool]))) {
            this.report(
              CleatCodes.TYPE_MISMATCH,
              `only Str, Int, Float or Bool can be interpolated, found \`${showType(pt)}\``,
              p.span,
            );
          }
        }
        return T.str;
      case 'Var':
        return this.varType(e.name, e.span, sc);
      case 'Self':
        return this.varType('self', e.span, sc);
      case 'List': {
        const elems: Ty[] = [];
        for (const it of e.items) this.inferListItem(it, sc, elems);
        return T.list(union(elems.map(widenScalar)));
      }
      case 'Tuple':
        return T.tuple(e.elems.map((x) => this.inferExpr(x, sc)));
      case 'Object':
        return this.inferObject(e, sc);
      case 'Field': {
        const mod = this.moduleValue(e, sc);
        if (mod) return mod;
        return this.fieldType(this.inferExpr(e.target, sc), e.name, e.nameSpan);
      }
      case 'TupleIndex': {
        const t = baseOf(this.inferExpr(e.target, sc));
        if (t.k === 'tuple') {
          if (e.index < t.elems.length) return t.elems[e.index]!;
          this.report(CleatCodes.INDEX, `tuple index ${e.index} is out of range for \`${showType(t)}\``, e.span);
          return T.json;
        }
        if (t.k === 'list') return t.elem;
        if (t.k !== 'json')
          this.report(CleatCodes.TYPE_MISMATCH, `\`.${e.index}\` needs a tuple, found \`${showType(t)}\``, e.span);
        return T.json;
      }
      case 'Index': {
        const t = baseOf(this.inferExpr(e.target, sc));
        const it = this.inferExpr(e.index, sc);
        if (t.k === 'list' || t.k === 'tuple') {
          this.expectType(it, T.int, e.index.span, '');
          return t.k === 'list' ? t.elem : union(t.elems);
        }
        if (t.k === 'map') {
          this.expectType(it, T.str, e.index.span, '');
          return union([t.value, T.null]);
        }
        if (t.k === 'record') {
          const key = this.quietConst(e.index, sc);
          if (typeof key === 'string') return this.fieldType(t, key, e.index.span);
          this.expectType(it, T.str, e.index.span, '');
          return T.json;
        }
        if (t.k !== 'json') this.report(CleatCodes.TYPE_MISMATCH, `cannot index \`${showType(t)}\``, e.span);
        return T.json;
      }
      case 'Call':
        return this.callType(e, sc);
      case 'Construct': {
        const t = this.resolveType(e.type, sc, 'local');
        this.checkExpr(e.body, t, sc, '');
        return t;
      }
      case 'Unary': {
        const t = this.inferExpr(e.operand, sc);
        if (e.op === '!') {
          this.expectType(t, T.bool, e.operand.span, '');
          return T.bool;
        }
        if (assignable(t, T.int)) return T.int;
        this.expectType(t, T.float, e.operand.span, '');
        return T.float;
      }
      case 'Binary':
        return this.binaryType(e, sc);
      case 'If': {
        this.checkExpr(e.cond, T.bool, sc);
        const [tv, fv] = this.branchScopes(e.cond, sc);
        const a = this.inferExpr(e.then, tv);
        const b = e.else ? this.inferExpr(e.else, fv) : T.null;
        return union([a, b]);
      }
      case 'Let':
        return this.inferExpr(e.body, this.letScope(e, sc));
      case 'Match': {
        const ts: Ty[] = [];
        this.matchExpr(e, sc, (body, s) => ts.push(this.inferExpr(body, s)));
        return union(ts);
      }
      case 'Patch':
        return this.patchType(e, sc);
    }
  }

  /** `ns.name` where `ns` is an imported Cleat module: the module's top-level value. */
  private moduleValue(e: A.Expr & { kind: 'Field' }, sc: Scope): Ty | undefined {
    if (e.target.kind !== 'Var' || lookupS(sc.vars, e.target.name) || this.ctx.globals.has(e.target.name))
      return undefined;
    const ns = this.ctx.namespaces.get(e.target.name);
    if (ns?.kind !== 'module') return undefined;
    const g = ns.ctx.globals.get(e.name);
    if (g) return g.type;
    this.report(
      CleatCodes.UNKNOWN_NAME,
      `module \`${e.target.name}\` has no value \`${e.name}\`${didYouMean(e.name, ns.ctx.globals.keys())}`,
      e.nameSpan,
    );
    return T.json;
  }

  private varType(name: string, span: Span, sc: Scope): Ty {
    const b = lookupS(sc.vars, name);
    if (b) return b.type;
    const g = this.ctx.globals.get(name);
    if (g && (g.kind !== 'input' && g.kind !== 'let' ? true : this.declared.has(name) || g.ctx !== this.ctx))
      return g.type;
    if (name === 'self') {
      this.report(CleatCodes.UNKNOWN_NAME, '`self` is only defined in `where` predicates', span);
      return T.json;
    }
    if (this.ctx.fns.has(name) || BUILTINS.has(name)) {
      this.report(CleatCodes.TYPE_MISMATCH, `\`${name}\` is a function; call it`, span);
      return T.json;
    }
    if (this.topNames.has(name)) {
      this.report(
        sc.inFn === name ? CleatCodes.RECURSION : CleatCodes.USE_BEFORE_DECL,
        `\`${name}\` is used before its declaration`,
        span,
      );
      return T.json;
    }
    const candidates: string[] = [...this.ctx.globals.keys()];
    for (let v = sc.vars; v; v = v.parent) candidates.push(v.name);
    this.report(CleatCodes.UNKNOWN_NAME, `unknown name \`${name}\`${didYouMean(name, candidates)}`, span);
    return T.json;
  }

  private fieldType(target: Ty, name: string, span: Span): Ty {
    const t = resolve(target);
    if (t.k === 'union') {
      // Reading through an optional value propagates null (`d.spec.replicas ?? 1`, spec §5.3).
      const present = t.members.filter((m) => baseOf(m).k !== 'null');
      const types = present.map((m) => this.fieldType(m, name, span));
      return union(present.length < t.members.length ? [...types, T.null] : types);
    }
    if (t.k === 'null') return T.null;
    const b = baseOf(t);
    if (b.k === 'json') return T.json;
    if (b.k === 'map') return union([b.value, T.null]);
    if (b.k === 'record') {
      const f = b.fields.find((x) => x.name === name);
      if (f) return f.optional && f.default === undefined ? union([f.type, T.null]) : f.type;
      if (b.open) return T.json;
      this.report(
        CleatCodes.UNKNOWN_FIELD,
        `\`${showType(target)}\` has no field \`${name}\`${didYouMean(
          name,
          b.fields.map((x) => x.name),
        )}`,
        span,
      );
      return T.json;
    }
    this.report(CleatCodes.TYPE_MISMATCH, `cannot read field \`${name}\` of \`${showType(target)}\``, span);
    return T.json;
  }

  private inferListItem(it: A.ListItem, sc: Scope, out: Ty[]): void {
    switch (it.kind) {
      case 'item':
        out.push(this.inferExpr(it.value, sc));
        return;
      case 'spread': {
        const t = baseOf(this.inferExpr(it.value, sc));
        if (t.k === 'list') out.push(t.elem);
        else if (t.k === 'tuple') out.push(...t.elems);
        else if (t.k === 'null') return;
        else {
          if (t.k !== 'json')
            this.report(CleatCodes.TYPE_MISMATCH, `\`...\` in a list needs a list, found \`${showType(t)}\``, it.span);
          out.push(T.json);
        }
        return;
      }
      case 'if': {
        this.checkExpr(it.cond, T.bool, sc);
        const [tv, fv] = this.branchScopes(it.cond, sc);
        this.inferListItem(it.then, tv, out);
        if (it.else) this.inferListItem(it.else, fv, out);
        return;
      }
      case 'for':
        this.inferListItem(it.body, this.forScope(it.key, it.name, it.source, sc), out);
    }
  }

  private inferObject(e: A.Expr & { kind: 'Object' }, sc: Scope): Ty {
    const fields: Field[] = [];
    let dynamic = false;
    const put = (name: string, t: Ty, optional: boolean, span: Span): void => {
      const i = fields.findIndex((f) => f.name === name);
      if (i < 0) {
        fields.push({ name, type: t, optional });
        return;
      }
      const old = fields[i]!;
      const a = baseOf(old.type);
      const b = baseOf(t);
      if (a.k === 'record' && b.k === 'record') {
        const merged = mergeRecordTypes(a, b);
        fields[i] = { name, type: merged, optional: old.optional && optional };
      } else if (!optional && !old.optional) {
        this.report(CleatCodes.DUPLICATE_KEY, `duplicate key \`${name}\``, span);
      } else fields[i] = { name, type: union([old.type, t]), optional: old.optional && optional };
    };
    const addRecord = (t: Ty, optional: boolean, span: Span): void => {
      const b = baseOf(t);
      if (b.k === 'record') {
        for (const f of b.fields) put(f.name, f.type, optional || f.optional, span);
        if (b.open) dynamic = true;
      } else if (b.k !== 'null') dynamic = true;
    };
    for (const m of e.members) {
      if (m.kind === 'field') {
        const keys: (string | undefined)[] = m.path.map((k) => {
          if (k.kind === 'name') return k.name;
          this.checkExpr(k.expr, T.str, sc);
          const v = this.quietConst(k.expr, sc);
          return typeof v === 'string' ? v : undefined;
        });
        let t = this.inferExpr(m.value, sc);
        if (keys.some((k) => k === undefined)) {
          dynamic = true;
          continue;
        }
        for (let i = keys.length - 1; i > 0; i--) t = T.record([{ name: keys[i]!, type: t, optional: false }]);
        put(keys[0]!, t, false, m.span);
      } else if (m.kind === 'spread') addRecord(this.inferExpr(m.value, sc), false, m.span);
      else if (m.kind === 'if') {
        this.checkExpr(m.cond, T.bool, sc);
        const [tv, fv] = this.branchScopes(m.cond, sc);
        addRecord(this.inferExpr(m.then, tv), true, m.span);
        if (m.else) addRecord(this.inferExpr(m.else, fv), true, m.span);
      } else {
        this.inferExpr(m.body, this.forScope(m.key, m.name, m.source, sc));
        dynamic = true;
      }
    }
    if (dynamic) return T.map(T.json);
    return T.record(fields);
  }

  private binaryType(e: A.Expr & { kind: 'Binary' }, sc: Scope): Ty {
    const op = e.op;
    if (op === '&&' || op === '||') {
      this.checkExpr(e.left, T.bool, sc);
      const [tv, fv] = this.branchScopes(e.left, sc);
      this.checkExpr(e.right, T.bool, op === '&&' ? tv : fv);
      return T.bool;
    }
    const l = this.inferExpr(e.left, sc);
    if (op === '??') {
      const r = this.inferExpr(e.right, sc);
      return union([nonNull(l), r]);
    }
    const r = this.inferExpr(e.right, sc);
    if (op === '==' || op === '!=') return T.bool;
    const lb = baseOf(l);
    const rb = baseOf(r);
    if (lb.k === 'json' || rb.k === 'json')
      return op === '<' || op === '<=' || op === '>' || op === '>=' ? T.bool : T.json;
    if (op === '<' || op === '<=' || op === '>' || op === '>=') {
      if ((assignable(l, T.float) && assignable(r, T.float)) || (assignable(l, T.str) && assignable(r, T.str)))
        return T.bool;
      this.report(CleatCodes.TYPE_MISMATCH, `cannot compare \`${showType(l)}\` with \`${showType(r)}\``, e.span);
      return T.bool;
    }
    if (op === '+' && assignable(l, T.str) && assignable(r, T.str)) return T.str;
    if (op === '+' && (lb.k === 'list' || lb.k === 'tuple') && (rb.k === 'list' || rb.k === 'tuple')) {
      const el = (x: Ty): Ty => {
        const b = baseOf(x);
        return b.k === 'list' ? b.elem : b.k === 'tuple' ? union(b.elems) : T.json;
      };
      return T.list(union([el(l), el(r)]));
    }
    if (assignable(l, T.int) && assignable(r, T.int)) {
      const d = op === '/' || op === '%' ? this.quietConst(e.right, sc) : undefined;
      if (d === 0n) this.report(CleatCodes.DIV_ZERO, 'division by zero', e.span);
      else this.constValue(e, sc); // reports constant overflow
      return T.int;
    }
    if (assignable(l, T.float) && assignable(r, T.float)) {
      if (op === '/' || op === '%') {
        const d = this.quietConst(e.right, sc);
        if (d === 0 || d === 0n) this.report(CleatCodes.DIV_ZERO, 'division by zero', e.span);
      }
      return T.float;
    }
    this.report(CleatCodes.TYPE_MISMATCH, `\`${op}\` cannot combine \`${showType(l)}\` and \`${showType(r)}\``, e.span);
    return T.json;
  }

  // ---- calls ----
  private callType(e: A.Expr & { kind: 'Call' }, sc: Scope): Ty {
    const target = this.folder.resolveCallee(e.callee, this.ctx);
    if (!target) {
      const name = e.callee.kind === 'Var' ? e.callee.name : e.callee.kind === 'Field' ? e.callee.name : '';
      if (e.callee.kind === 'Var' && sc.inFn === name) {
        this.report(
          CleatCodes.RECURSION,
          `\`${name}\` cannot call itself: a function may only call functions declared above it`,
          e.callee.span,
        );
      } else if (e.callee.kind === 'Var' && this.topNames.has(name)) {
        this.report(
          CleatCodes.RECURSION,
          `\`${name}\` is declared below; a function may only call functions declared above it`,
          e.callee.span,
        );
      } else if (e.callee.kind === 'Var' && lookupS(sc.vars, name)) {
        this.report(CleatCodes.TYPE_MISMATCH, `\`${name}\` is a value, not a function`, e.callee.span);
      } else {
        const pool =
          e.callee.kind === 'Field' && e.callee.target.kind === 'Var'
            ? (() => {
                const ns = this.ctx.namespaces.get((e.callee.target as { name: string }).name);
                return ns?.kind === 'module' ? [...ns.ctx.fns.keys()] : [];
              })()
            : [...this.ctx.fns.keys(), ...BUILTINS.keys()];
        this.report(CleatCodes.UNKNOWN_NAME, `unknown function \`${name}\`${didYouMean(name, pool)}`, e.callee.span);
      }
      for (const a of e.args) this.inferExpr(a.value, sc);
      return T.json;
    }
    if ('builtin' in target) {
      const b = BUILTINS.get(target.builtin)!;
      if (e.args.some((a) => a.name !== undefined))
        this.report(CleatCodes.ARGS, `\`${b.name}\` takes positional arguments only`, e.span);
      if (e.args.length < b.arity[0] || e.args.length > b.arity[1]) {
        this.report(
          CleatCodes.ARGS,
          `\`${b.name}\` takes ${b.arity[0] === b.arity[1] ? b.arity[0] : `${b.arity[0]} to ${b.arity[1]}`} argument(s), found ${e.args.length}`,
          e.span,
        );
        return T.json;
      }
      const types = e.args.map((a) => this.inferExpr(a.value, sc));
      if (b.name === 'matches' && e.args[1]) {
        const re = this.quietConst(e.args[1].value, sc);
        if (typeof re === 'string') {
          const c = compileRe2(re);
          if (typeof c === 'string') this.report(CleatCodes.REGEX, c, e.args[1].value.span);
        }
      }
      const r = b.type(types);
      if (typeof r === 'string') {
        this.report(CleatCodes.TYPE_MISMATCH, `${b.name}: ${r}`, e.span);
        return T.json;
      }
      return r;
    }
    const fn = target.fn;
    const byName = new Map<string, A.Arg>();
    e.args.forEach((a, i) => {
      if (a.name === undefined && e.args.slice(0, i).some((x) => x.name !== undefined)) {
        this.report(CleatCodes.ARGS, 'positional arguments must come before named ones', a.span);
      }
      const name = a.name ?? fn.params[i]?.name;
      if (name === undefined) {
        this.report(CleatCodes.ARGS, `too many arguments to \`${fn.name}\` (it takes ${fn.params.length})`, a.span);
        return;
      }
      if (!fn.params.some((p) => p.name === name)) {
        this.report(
          CleatCodes.ARGS,
          `\`${fn.name}\` has no parameter \`${name}\`${didYouMean(
            name,
            fn.params.map((p) => p.name),
          )}`,
          a.span,
        );
        return;
      }
      if (byName.has(name)) this.report(CleatCodes.ARGS, `argument \`${name}\` is given twice`, a.span);
      byName.set(name, a);
    });
    // Parameter predicates may mention earlier parameters: bind their constant values when known.
    let vars: SVar | undefined;
    for (const p of fn.params) {
      const a = byName.get(p.name);
      let value: Slot = UNKNOWN;
      if (a) {
        this.checkExprWithParams(a.value, p.type, sc, vars, p.name);
        value = this.quietConst(a.value, sc) ?? UNKNOWN;
      } else if (!p.default) {
        this.report(CleatCodes.ARGS, `missing argument \`${p.name}\` of \`${fn.name}\``, e.span);
      }
      vars = bindS(vars, p.name, p.type, value);
    }
    for (const a of e.args) if (!byName.has(a.name ?? '') && a.name !== undefined) this.inferExpr(a.value, sc);
    return fn.result ?? fn.type;
  }

  /** Checks an argument; refinement VCs of the parameter see the earlier parameters' values. */
  private checkExprWithParams(arg: A.Expr, t: Ty, sc: Scope, params: SVar | undefined, name: string): void {
    const r = resolve(t);
    if (r.k !== 'refine' || r.scope !== 'local') {
      this.checkExpr(arg, t, sc, name);
      return;
    }
    this.checkExpr(arg, r.base, sc, name);
    const v = this.quietConst(arg, sc);
    if (v === undefined) return;
    let vars = bindS(params, 'self', r.base, v);
    if (r.alias) vars = bindS(vars, r.alias, r.base, v);
    const ok = this.quietConst(r.pred, { vars });
    if (ok === false) {
      const predText = r.pred.span.file.text.slice(r.pred.span.start, r.pred.span.end);
      this.report(
        CleatCodes.REFINEMENT,
        `value ${showValue(v)} does not satisfy \`where ${predText}\``,
        arg.span,
        name,
      );
    }
  }

  // ---- scopes ----
  private letScope(e: A.Expr & { kind: 'Let' }, sc: Scope): Scope {
    let t: Ty;
    if (e.type) {
      t = this.resolveType(e.type, sc, 'local', e.name);
      this.checkExpr(e.value, t, sc);
    } else t = this.inferExpr(e.value, sc);
    const v = this.quietConst(e.value, sc);
    return {
      ...sc,
      vars: bindS(
        sc.vars,
        e.name,
        t,
        v ?? UNKNOWN,
        factsFromType(t, (x) => numberOf(this.quietConst(x, { vars: undefined }))),
      ),
    };
  }

  private forScope(key: string | undefined, name: string, source: A.Expr, sc: Scope): Scope {
    const st = this.inferExpr(source, sc);
    const b = baseOf(st);
    let keyT: Ty = T.json;
    let valT: Ty = T.json;
    if (b.k === 'list') {
      keyT = T.int;
      valT = b.elem;
    } else if (b.k === 'tuple') {
      keyT = T.int;
      valT = union(b.elems);
    } else if (b.k === 'map') {
      keyT = T.str;
      valT = b.value;
      if (key === undefined) valT = T.str;
    } else if (b.k === 'record') {
      keyT = T.str;
      valT = b.open ? T.json : union(b.fields.map((f) => f.type));
      if (key === undefined) valT = T.str;
    } else if (b.k !== 'json' && b.k !== 'null')
      this.report(
        CleatCodes.TYPE_MISMATCH,
        `\`for\` needs a list or an object, found \`${showType(st)}\``,
        source.span,
      );
    let vars = sc.vars;
    if (key !== undefined) vars = bindS(vars, key, keyT, UNKNOWN);
    vars = bindS(vars, name, valT, UNKNOWN);
    return { ...sc, vars };
  }

  /** Scopes for the true and false branches of a condition, with facts learned from it. */
  private branchScopes(cond: A.Expr, sc: Scope): [Scope, Scope] {
    const learn = (positive: boolean): Scope => {
      const target = condSubject(cond);
      if (!target) return sc;
      const b = lookupS(sc.vars, target);
      const base = b ? b.facts : this.ctx.globals.has(target) ? this.globalFacts(target) : undefined;
      if (!base) return sc;
      const cmps = comparisons(
        cond,
        (x) => x.kind === 'Var' && x.name === target,
        (x) => numberOf(this.quietConst(x, sc)),
      );
      if (!cmps) return sc;
      let iv = base;
      if (positive) for (const c of cmps) iv = narrow(iv, c.op, c.c);
      else if (cmps.length === 1) {
        const neg: Record<string, '<' | '<=' | '>' | '>='> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
        const n = neg[cmps[0]!.op];
        if (n) iv = narrow(iv, n, cmps[0]!.c);
      }
      const type = b ? b.type : this.ctx.globals.get(target)!.type;
      const value = b ? b.value : UNKNOWN;
      return { ...sc, vars: bindS(sc.vars, target, type, value, iv) };
    };
    return [learn(true), learn(false)];
  }

  // ---- match ----
  private matchExpr(e: A.Expr & { kind: 'Match' }, sc: Scope, body: (b: A.Expr, s: Scope) => void): void {
    const st = this.inferExpr(e.scrutinee, sc);
    let remaining = expand(st);
    let infinite = remaining.some((m) => isInfinite(m));
    for (const arm of e.arms) {
      const patT = this.patternScope(arm.pattern, remaining, st, sc);
      if (remaining.length === 0 && !infinite) {
        this.report(
          CleatCodes.NONEXHAUSTIVE,
          'this pattern is unreachable: earlier arms cover every value',
          arm.pattern.span,
        );
      }
      body(arm.body, patT);
      if (coversAll(arm.pattern, this.ctx)) {
        remaining = [];
        infinite = false;
        continue;
      }
      remaining = remaining.filter((m) => !this.covers(arm.pattern, m));
      if (infinite && remaining.every((m) => !isInfinite(m))) infinite = false;
    }
    if (remaining.length > 0) {
      this.report(
        CleatCodes.NONEXHAUSTIVE,
        `\`match\` is not exhaustive: ${remaining.map((m) => `\`${showType(m)}\``).join(', ')} not covered (add the missing arms or \`_\`)`,
        e.span,
      );
    }
  }

  private covers(p: A.Pattern, m: Ty): boolean {
    const r = baseOf(m);
    switch (p.kind) {
      case 'PWild':
        return true;
      case 'PBind':
        return !p.type || isSubtype(m, this.ctx.typeOf.get(p.type) ?? T.json, new Set());
      case 'PLit':
        if (p.value === null) return r.k === 'null';
        return r.k === 'lit' && litEq(r.v, p.value) && (typeof r.v === 'bigint') === (typeof p.value === 'bigint');
      case 'PTuple':
        return (
          r.k === 'tuple' &&
          r.elems.length === p.elems.length &&
          p.elems.every((q, i) => expand(r.elems[i]!).every((x) => this.covers(q, x)))
        );
      case 'PRecord': {
        if (r.k !== 'record') return false;
        if (!p.open && (r.open || r.fields.some((f) => !p.fields.some((q) => q.name === f.name)))) return false;
        return p.fields.every((q) => {
          const f = r.fields.find((x) => x.name === q.name);
          return f !== undefined && !f.optional && expand(f.type).every((x) => this.covers(q.pattern, x));
        });
      }
    }
  }

  /** Binds a pattern's variables with types narrowed to the members it can match. */
  private patternScope(p: A.Pattern, remaining: Ty[], whole: Ty, sc: Scope): Scope {
    let vars = sc.vars;
    const walk = (q: A.Pattern, t: Ty, cands: Ty[]): void => {
      switch (q.kind) {
        case 'PBind': {
          let bt = t;
          if (q.type) {
            const pt = this.resolveType(q.type, sc, 'local');
            const fits = cands.filter((m) => overlaps(m, pt));
            bt = baseOf(t).k === 'json' || fits.length === 0 ? pt : union(fits.map((m) => (isSubtype(m, pt) ? m : m)));
            if (fits.length === 0 && baseOf(t).k !== 'json') {
              this.report(
                CleatCodes.NONEXHAUSTIVE,
                `this pattern can never match a value of type \`${showType(whole)}\``,
                q.span,
              );
            }
          }
          vars = bindS(vars, q.name, bt, UNKNOWN);
          return;
        }
        case 'PTuple': {
          const b = baseOf(t);
          q.elems.forEach((x, i) => {
            const et = b.k === 'tuple' ? (b.elems[i] ?? T.json) : b.k === 'list' ? b.elem : T.json;
            walk(x, et, expand(et));
          });
          return;
        }
        case 'PRecord': {
          const recs = cands.filter((m) => baseOf(m).k === 'record' || baseOf(m).k === 'json' || baseOf(m).k === 'map');
          for (const f of q.fields) {
            const fts = recs.map((m) => {
              const b = baseOf(m);
              return b.k === 'record'
                ? (b.fields.find((x) => x.name === f.name)?.type ?? T.json)
                : b.k === 'map'
                  ? b.value
                  : T.json;
            });
            const ft = fts.length ? union(fts) : T.json;
            walk(f.pattern, ft, expand(ft));
          }
          return;
        }
        default:
          return;
      }
    };
    walk(p, whole, remaining.length ? remaining : expand(whole));
    return { ...sc, vars };
  }

  // ---- patches ----
  private patchType(e: A.Expr & { kind: 'Patch' }, sc: Scope): Ty {
    const base = this.inferExpr(e.target, sc);
    let result = base;
    for (const entry of e.entries) {
      for (const seg of entry.path) {
        if (seg.kind === 'index') this.checkExpr(seg.index, T.int, sc);
        if (seg.kind === 'select') for (const k of seg.keys) this.inferExpr(k.value, sc);
      }
      const valueT = entry.kind === 'remove' ? undefined : this.inferExpr(entry.value, sc);
      const strict = isDeclared(base);
      const at = this.walkPatchPath(result, entry.path, 0, strict, sc, entry.span, '');
      if (!at) continue;
      if (entry.kind === 'set' && at.strict && at.type) this.checkExpr(entry.value, at.type, sc, at.path);
      if (entry.kind === 'merge' && at.strict && at.type) {
        const tb = baseOf(at.type);
        if (tb.k === 'list' || tb.k === 'map') this.checkExpr(entry.value, at.type, sc, at.path);
      }
      if (entry.kind === 'remove' && at.strict && at.field && !at.field.optional) {
        this.report(CleatCodes.BAD_WITH, `cannot remove the required field \`${at.field.name}\``, entry.span, at.path);
      }
      if (!strict && entry.kind === 'set' && valueT && entry.path.every((s) => s.kind === 'field')) {
        result = replaceFieldType(
          result,
          entry.path.map((s) => (s as { name: string }).name),
          valueT,
        );
      }
    }
    return result;
  }

  /** Follows a patch path through a type. Returns the type at the end and whether checks are strict there. */
  private walkPatchPath(
    t: Ty,
    path: A.PathSeg[],
    i: number,
    strict: boolean,
    sc: Scope,
    span: Span,
    vpath: string,
  ): { type?: Ty; field?: Field; strict: boolean; path: string } | undefined {
    if (i === path.length) return { type: t, strict, path: vpath };
    const seg = path[i]!;
    const strictHere = strict || (resolve(t) !== t && t.k === 'named');
    const b = baseOf(nonNull(t));
    if (b.k === 'json') return { strict: false, path: vpath };
    if (seg.kind === 'field') {
      if (b.k === 'map')
        return this.walkPatchPath(b.value, path, i + 1, strictHere, sc, span, joinPath(vpath, seg.name));
      if (b.k !== 'record') {
        if (strictHere)
          this.report(CleatCodes.BAD_WITH, `\`${seg.name}\`: \`${showType(t)}\` has no fields`, seg.span, vpath);
        return undefined;
      }
      const f = b.fields.find((x) => x.name === seg.name);
      const fp = joinPath(vpath, seg.name);
      if (!f) {
        if (strictHere && !b.open) {
          this.report(
            CleatCodes.UNKNOWN_FIELD,
            `unknown field \`${seg.name}\` in \`${showType(t)}\`${didYouMean(
              seg.name,
              b.fields.map((x) => x.name),
            )}`,
            seg.span,
            fp,
          );
        }
        return undefined;
      }
      if (i === path.length - 1) return { type: f.type, field: f, strict: strictHere, path: fp };
      return this.walkPatchPath(f.type, path, i + 1, strictHere, sc, span, fp);
    }
    if (b.k !== 'list' && b.k !== 'tuple') {
      if (strictHere || b.k !== 'record')
        this.report(CleatCodes.BAD_WITH, `a selector needs a list, found \`${showType(t)}\``, seg.span, vpath);
      return undefined;
    }
    let elems = b.k === 'list' ? expand(b.elem) : b.elems.flatMap(expand);
    if (seg.kind === 'select') {
      const wanted = seg.keys.map((k) => ({ name: k.name, value: this.quietConst(k.value, sc) }));
      const known = wanted.every((w) => w.value !== undefined);
      const matching = elems.filter((m) => {
        const r = baseOf(m);
        if (r.k !== 'record') return true;
        return wanted.every((w) => {
          const f = r.fields.find((x) => x.name === w.name);
          if (!f) return r.open;
          const fr = baseOf(f.type);
          if (fr.k !== 'lit' || w.value === undefined) return true;
          return typeof w.value === 'string' ||
            typeof w.value === 'bigint' ||
            typeof w.value === 'number' ||
            typeof w.value === 'boolean'
            ? litEq(fr.v, w.value)
            : false;
        });
      });
      if (matching.length === 0 && known && elems.length > 0) {
        const text = seg.span.file.text.slice(seg.span.start, seg.span.end);
        this.report(
          CleatCodes.SELECTOR_NO_MATCH,
          `selector \`${text}\` matches no element of \`${showType(t)}\``,
          seg.span,
          vpath,
        );
        return undefined;
      }
      elems = matching;
    }
    const et = elems.length ? union(elems) : T.json;
    const segText = seg.kind === 'select' ? seg.span.file.text.slice(seg.span.start, seg.span.end) : '[]';
    return this.walkPatchPath(et, path, i + 1, strictHere, sc, span, `${vpath}${segText}`);
  }
}

// ---- helpers ----
function bindS(vars: SVar | undefined, name: string, type: Ty, value: Slot, facts?: Interval): SVar {
  return { name, type, value, facts: facts ?? FULL, parent: vars };
}

function lookupS(vars: SVar | undefined, name: string): SVar | undefined {
  for (let v = vars; v; v = v.parent) if (v.name === name) return v;
  return undefined;
}

function numberOf(v: Value | undefined): number | undefined {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return v;
  return undefined;
}

function showInterval(iv: Interval): string {
  const lo = iv.lo === -Infinity ? '' : `${iv.loStrict ? '>' : '>='} ${iv.lo}`;
  const hi = iv.hi === Infinity ? '' : `${iv.hiStrict ? '<' : '<='} ${iv.hi}`;
  return [lo, hi].filter(Boolean).join(' and ') || 'nothing';
}

/** Facts implied by a type's refinements about a variable of that type. */
function factsFromType(t: Ty, constOf: (e: A.Expr) => number | undefined): Interval {
  let iv = FULL;
  let r = resolve(t);
  while (r.k === 'refine') {
    const alias = r.alias;
    const cmps = comparisons(r.pred, (x) => x.kind === 'Self' || (x.kind === 'Var' && x.name === alias), constOf);
    for (const c of cmps ?? []) iv = narrow(iv, c.op, c.c);
    r = resolve(r.base);
  }
  return iv;
}

function hasRefinement(t: Ty, pred: A.Expr): boolean {
  let r = resolve(t);
  while (r.k === 'refine') {
    if (r.pred === pred) return true;
    r = resolve(r.base);
  }
  return false;
}

function condSubject(e: A.Expr): string | undefined {
  if (e.kind !== 'Binary') return undefined;
  if (e.op === '&&') return condSubject(e.left) ?? condSubject(e.right);
  if (e.left.kind === 'Var') return e.left.name;
  if (e.right.kind === 'Var') return e.right.name;
  return undefined;
}

function lastField(path: A.PathSeg[]): string | undefined {
  const l = path[path.length - 1];
  return l?.kind === 'field' ? l.name : undefined;
}

/** The type at a `with` path (through records, optionals and `[]`), for typing predicates. */
function typeAtPath(t: Ty, path: A.PathSeg[]): Ty {
  let cur = t;
  for (const s of path) {
    const b = baseOf(nonNull(cur));
    if (s.kind === 'field' && b.k === 'record') cur = b.fields.find((f) => f.name === s.name)?.type ?? T.json;
    else if (s.kind === 'each' && b.k === 'list') cur = b.elem;
    else if (s.kind === 'each' && b.k === 'map') cur = b.value;
    else return T.json;
  }
  return nonNull(cur);
}

function coversAll(p: A.Pattern, ctx: ModuleCtx): boolean {
  if (p.kind === 'PWild') return true;
  if (p.kind === 'PBind') return !p.type || baseOf(ctx.typeOf.get(p.type) ?? T.never).k === 'json';
  return false;
}
