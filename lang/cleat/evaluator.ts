/**
 * The evaluator (spec §7 step 4): expressions → values, in a module's
 * context. Ints are 64-bit (bigint, overflow is an error), floats finite.
 * Every annotated boundary (function arguments and results, annotated lets,
 * `T { ... }`, inputs) goes through conform(), which checks and completes.
 * In constant mode (used by the checker to fold VCs) an input or an unknown
 * local raises NotConstant instead of a value; nothing else differs, so what
 * the checker proves is what evaluation computes.
 */
import type { Span } from '../common/source.js';
import type * as A from './ast.js';
import { BUILTINS } from './builtins.js';
import { conform, type ConformHooks } from './conform.js';
import type { FnInfo, GlobalInfo, ModuleCtx } from './context.js';
import { CleatCodes, CleatError, type CleatCode } from './diagnostics.js';
import { applyPatch, setMember, type RuntimeSeg } from './patch.js';
import { floatText } from './serialize.js';
import { litEq, T, type Field, type Ty } from './types.js';
import { INT_MAX, INT_MIN, isObject, kindOf, ObjectValue, showValue, valueEquals, type Value } from './value.js';

/** Raised in constant mode when a value depends on something unknown. */
export class NotConstant extends Error {}

export const UNKNOWN: unique symbol = Symbol('unknown');
export type Slot = Value | typeof UNKNOWN;

export interface Frame {
  name: string;
  value: Slot;
  parent: Frame | undefined;
}

export interface Env {
  ctx: ModuleCtx;
  vars: Frame | undefined;
}

export function bind(vars: Frame | undefined, name: string, value: Slot): Frame {
  return { name, value, parent: vars };
}

const MAX_DEPTH = 400;

export class Evaluator {
  private readonly globalCache = new Map<ModuleCtx, Map<string, Value | NotConstant>>();
  private depth = 0;

  /**
   * @param inputs decoded, checked input values of the entry module; undefined in constant mode
   */
  constructor(private readonly inputs: Map<string, Value> | undefined) {}

  get constantMode(): boolean {
    return this.inputs === undefined;
  }

  private fail(code: CleatCode, message: string, span: Span, path?: string): never {
    throw new CleatError(code, message, span, path);
  }

  // ---- globals ----
  global(ctx: ModuleCtx, name: string, g: GlobalInfo, span: Span): Value {
    if (g.kind === 'data') return g.value;
    if (g.kind === 'input') {
      if (!this.inputs) throw new NotConstant();
      const v = this.inputs.get(name);
      if (v === undefined) this.fail(CleatCodes.INPUT, `input \`${name}\` has no value`, span);
      return v;
    }
    const owner = g.ctx;
    let cache = this.globalCache.get(owner);
    if (!cache) this.globalCache.set(owner, (cache = new Map()));
    const hit = cache.get(name);
    if (hit instanceof NotConstant) throw hit;
    if (hit !== undefined) return hit;
    try {
      let v = this.eval(g.decl.value, { ctx: owner, vars: undefined });
      if (g.declared) v = this.conformAt(v, g.declared, g.decl.value.span, '', { ctx: owner, vars: undefined });
      cache.set(name, v);
      return v;
    } catch (e) {
      if (e instanceof NotConstant) cache.set(name, e);
      throw e;
    }
  }

  // ---- boundaries ----
  conformAt(v: Value, t: Ty, span: Span, path: string, env: Env): Value {
    return conform(v, t, path, this.hooks(span, env));
  }

  private hooks(span: Span, env: Env): ConformHooks {
    return {
      span,
      predicate: (r, value) => {
        // Type declarations see no variables (scope = their module); parameter types see earlier parameters.
        const scopeEnv: Env =
          r.scope === 'local' ? env : { ctx: (r.scope as ModuleCtx | undefined) ?? env.ctx, vars: undefined };
        let vars = bind(scopeEnv.vars, 'self', value);
        if (r.alias) vars = bind(vars, r.alias, value);
        const res = this.eval(r.pred, { ctx: scopeEnv.ctx, vars });
        if (typeof res !== 'boolean')
          this.fail(CleatCodes.TYPE_MISMATCH, `a \`where\` predicate must be Bool, found ${kindOf(res)}`, r.pred.span);
        return res;
      },
      fieldDefault: (f: Field) => {
        if (f.default?.expr)
          return this.eval(f.default.expr, {
            ctx: (f.default.scope as ModuleCtx | undefined) ?? env.ctx,
            vars: undefined,
          });
        return f.default?.value ?? null;
      },
    };
  }

  // ---- expressions ----
  eval(e: A.Expr, env: Env): Value {
    if (++this.depth > MAX_DEPTH) {
      this.depth = 0;
      this.fail(CleatCodes.RUNTIME, 'evaluation nested too deeply', e.span);
    }
    try {
      return this.evalInner(e, env);
    } finally {
      this.depth--;
    }
  }

  private isBound(name: string, env: Env): boolean {
    for (let f = env.vars; f; f = f.parent) if (f.name === name) return true;
    return env.ctx.globals.has(name);
  }

  private lookup(name: string, env: Env, span: Span): Value {
    for (let f = env.vars; f; f = f.parent) {
      if (f.name === name) {
        if (f.value === UNKNOWN) throw new NotConstant();
        return f.value;
      }
    }
    const g = env.ctx.globals.get(name);
    if (g) return this.global(env.ctx, name, g, span);
    return this.fail(CleatCodes.UNKNOWN_NAME, `unknown name \`${name}\``, span);
  }

  private evalInner(e: A.Expr, env: Env): Value {
    switch (e.kind) {
      case 'Lit':
        return e.value;
      case 'Str': {
        let s = '';
        for (const p of e.parts) {
          if (typeof p === 'string') {
            s += p;
            continue;
          }
          const v = this.eval(p, env);
          if (typeof v === 'string') s += v;
          else if (typeof v === 'bigint' || typeof v === 'boolean') s += String(v);
          else if (typeof v === 'number') s += floatText(v);
          else
            this.fail(
              CleatCodes.TYPE_MISMATCH,
              `only Str, Int, Float or Bool can be interpolated, found ${kindOf(v)}`,
              p.span,
            );
        }
        return s;
      }
      case 'Var':
        return this.lookup(e.name, env, e.span);
      case 'Self':
        return this.lookup('self', env, e.span);
      case 'List': {
        const out: Value[] = [];
        for (const it of e.items) this.listItem(it, env, out);
        return out;
      }
      case 'Tuple':
        return e.elems.map((x) => this.eval(x, env));
      case 'Object': {
        const m = new Map<string, Value>();
        for (const mem of e.members) this.member(mem, env, m);
        return new ObjectValue(m);
      }
      case 'Field': {
        if (e.target.kind === 'Var' && !this.isBound(e.target.name, env)) {
          const ns = env.ctx.namespaces.get(e.target.name);
          const g = ns?.kind === 'module' ? ns.ctx.globals.get(e.name) : undefined;
          if (ns?.kind === 'module' && g) return this.global(ns.ctx, e.name, g, e.span);
        }
        const t = this.eval(e.target, env);
        if (t === null) return null; // optional values propagate null through field reads
        if (!isObject(t))
          return this.fail(CleatCodes.TYPE_MISMATCH, `cannot read field \`${e.name}\` of ${kindOf(t)}`, e.nameSpan);
        return t.get(e.name) ?? null;
      }
      case 'TupleIndex': {
        const t = this.eval(e.target, env);
        if (!Array.isArray(t) || e.index >= t.length)
          return this.fail(CleatCodes.INDEX, `no element ${e.index} in ${showValue(t)}`, e.span);
        return t[e.index]!;
      }
      case 'Index': {
        const t = this.eval(e.target, env);
        const i = this.eval(e.index, env);
        if (Array.isArray(t)) {
          if (typeof i !== 'bigint')
            return this.fail(CleatCodes.TYPE_MISMATCH, `a list index must be Int, found ${kindOf(i)}`, e.index.span);
          if (i < 0n || i >= BigInt(t.length))
            return this.fail(CleatCodes.INDEX, `index ${i} is out of bounds for a list of length ${t.length}`, e.span);
          return t[Number(i)]!;
        }
        if (isObject(t)) {
          if (typeof i !== 'string')
            return this.fail(CleatCodes.TYPE_MISMATCH, `an object key must be Str, found ${kindOf(i)}`, e.index.span);
          return t.get(i) ?? null;
        }
        return this.fail(CleatCodes.TYPE_MISMATCH, `cannot index ${kindOf(t)}`, e.span);
      }
      case 'Call':
        return this.call(e, env);
      case 'Construct': {
        const t = env.ctx.typeOf.get(e.type) ?? T.json;
        const v = this.eval(e.body, env);
        return this.conformAt(v, t, e.span, '', env);
      }
      case 'Unary': {
        const v = this.eval(e.operand, env);
        if (e.op === '!') {
          if (typeof v !== 'boolean')
            return this.fail(CleatCodes.TYPE_MISMATCH, `\`!\` needs Bool, found ${kindOf(v)}`, e.span);
          return !v;
        }
        if (typeof v === 'bigint') return this.checkInt(-v, e.span);
        if (typeof v === 'number') return -v;
        return this.fail(CleatCodes.TYPE_MISMATCH, `\`-\` needs a number, found ${kindOf(v)}`, e.span);
      }
      case 'Binary':
        return this.binary(e, env);
      case 'If': {
        const c = this.eval(e.cond, env);
        if (typeof c !== 'boolean')
          return this.fail(CleatCodes.TYPE_MISMATCH, `a condition must be Bool, found ${kindOf(c)}`, e.cond.span);
        return c ? this.eval(e.then, env) : e.else ? this.eval(e.else, env) : null;
      }
      case 'Let': {
        let v = this.eval(e.value, env);
        if (e.type) v = this.conformAt(v, env.ctx.typeOf.get(e.type) ?? T.json, e.value.span, '', env);
        return this.eval(e.body, { ctx: env.ctx, vars: bind(env.vars, e.name, v) });
      }
      case 'Match': {
        const v = this.eval(e.scrutinee, env);
        for (const arm of e.arms) {
          const vars = this.matchPattern(arm.pattern, v, env, env.vars);
          if (vars !== false) return this.eval(arm.body, { ctx: env.ctx, vars });
        }
        return this.fail(CleatCodes.NONEXHAUSTIVE, `no pattern matches ${showValue(v)}`, e.span);
      }
      case 'Patch': {
        let v = this.eval(e.target, env);
        for (const entry of e.entries) {
          const segs = entry.path.map((s) => this.runtimeSeg(s, env));
          const op =
            entry.kind === 'remove'
              ? { op: 'remove' as const }
              : { op: entry.kind, value: this.eval(entry.value, env) };
          v = applyPatch(v, segs, op, entry.span);
        }
        return v;
      }
    }
  }

  private runtimeSeg(s: A.PathSeg, env: Env): RuntimeSeg {
    switch (s.kind) {
      case 'field':
        return { kind: 'field', name: s.name };
      case 'index': {
        const i = this.eval(s.index, env);
        if (typeof i !== 'bigint') this.fail(CleatCodes.TYPE_MISMATCH, 'a list index must be Int', s.span);
        return { kind: 'index', index: i };
      }
      case 'select':
        return {
          kind: 'select',
          keys: s.keys.map((k) => ({ name: k.name, value: this.eval(k.value, env) })),
          text: s.span.file.text.slice(s.span.start, s.span.end),
        };
      case 'each':
        return this.fail(CleatCodes.PARSE, '`[]` is only allowed in type refinements', s.span);
    }
  }

  private listItem(it: A.ListItem, env: Env, out: Value[]): void {
    switch (it.kind) {
      case 'item':
        out.push(this.eval(it.value, env));
        return;
      case 'spread': {
        const v = this.eval(it.value, env);
        if (v === null) return;
        if (!Array.isArray(v))
          this.fail(CleatCodes.TYPE_MISMATCH, `\`...\` in a list needs a list, found ${kindOf(v)}`, it.span);
        out.push(...v);
        return;
      }
      case 'if': {
        const c = this.eval(it.cond, env);
        if (typeof c !== 'boolean')
          this.fail(CleatCodes.TYPE_MISMATCH, `a condition must be Bool, found ${kindOf(c)}`, it.cond.span);
        if (c) this.listItem(it.then, env, out);
        else if (it.else) this.listItem(it.else, env, out);
        return;
      }
      case 'for':
        for (const vars of this.iterate(it.key, it.name, it.source, env))
          this.listItem(it.body, { ctx: env.ctx, vars }, out);
    }
  }

  private *iterate(key: string | undefined, name: string, source: A.Expr, env: Env): Generator<Frame | undefined> {
    const src = this.eval(source, env);
    if (Array.isArray(src)) {
      for (let i = 0; i < src.length; i++) {
        let vars = env.vars;
        if (key !== undefined) vars = bind(vars, key, BigInt(i));
        yield bind(vars, name, src[i]!);
      }
    } else if (isObject(src)) {
      for (const [k, v] of src.fields) {
        yield key !== undefined ? bind(bind(env.vars, key, k), name, v) : bind(env.vars, name, k);
      }
    } else if (src !== null) {
      this.fail(CleatCodes.TYPE_MISMATCH, `\`for\` needs a list or an object, found ${kindOf(src)}`, source.span);
    }
  }

  private member(mem: A.Member, env: Env, m: Map<string, Value>): void {
    switch (mem.kind) {
      case 'field': {
        const keys = mem.path.map((k) => {
          if (k.kind === 'name') return k.name;
          const v = this.eval(k.expr, env);
          if (typeof v !== 'string')
            this.fail(CleatCodes.TYPE_MISMATCH, `a computed key must be Str, found ${kindOf(v)}`, k.span);
          return v;
        });
        let v = this.eval(mem.value, env);
        for (let i = keys.length - 1; i > 0; i--) v = new ObjectValue(new Map([[keys[i]!, v]]));
        setMember(m, keys[0]!, v, mem.span, '');
        return;
      }
      case 'spread': {
        const v = this.eval(mem.value, env);
        if (v === null) return;
        if (!isObject(v))
          this.fail(CleatCodes.TYPE_MISMATCH, `\`...\` in an object needs an object, found ${kindOf(v)}`, mem.span);
        for (const [k, x] of v.fields) setMember(m, k, x, mem.span, '');
        return;
      }
      case 'if': {
        const c = this.eval(mem.cond, env);
        if (typeof c !== 'boolean')
          this.fail(CleatCodes.TYPE_MISMATCH, `a condition must be Bool, found ${kindOf(c)}`, mem.cond.span);
        const branch = c ? mem.then : mem.else;
        if (branch) this.mergeBody(this.eval(branch, env), branch.span, m);
        return;
      }
      case 'for':
        for (const vars of this.iterate(mem.key, mem.name, mem.source, env)) {
          this.mergeBody(this.eval(mem.body, { ctx: env.ctx, vars }), mem.body.span, m);
        }
    }
  }

  private mergeBody(v: Value, span: Span, m: Map<string, Value>): void {
    if (v === null) return;
    if (!isObject(v))
      this.fail(
        CleatCodes.TYPE_MISMATCH,
        `conditional and \`for\` members must give objects, found ${kindOf(v)}`,
        span,
      );
    for (const [k, x] of v.fields) setMember(m, k, x, span, '');
  }

  // ---- operators ----
  private checkInt(v: bigint, span: Span): bigint {
    if (v > INT_MAX || v < INT_MIN) this.fail(CleatCodes.OVERFLOW, 'integer overflow (Int is 64-bit)', span);
    return v;
  }

  private checkFloat(v: number, span: Span): number {
    if (!Number.isFinite(v)) this.fail(CleatCodes.NON_FINITE, 'float overflow (floats must stay finite)', span);
    return v;
  }

  private binary(e: A.Expr & { kind: 'Binary' }, env: Env): Value {
    const op = e.op;
    if (op === '&&' || op === '||') {
      const l = this.eval(e.left, env);
      if (typeof l !== 'boolean')
        return this.fail(CleatCodes.TYPE_MISMATCH, `\`${op}\` needs Bool, found ${kindOf(l)}`, e.left.span);
      if (op === '&&' ? !l : l) return l;
      const r = this.eval(e.right, env);
      if (typeof r !== 'boolean')
        return this.fail(CleatCodes.TYPE_MISMATCH, `\`${op}\` needs Bool, found ${kindOf(r)}`, e.right.span);
      return r;
    }
    if (op === '??') {
      const l = this.eval(e.left, env);
      return l === null ? this.eval(e.right, env) : l;
    }
    const l = this.eval(e.left, env);
    const r = this.eval(e.right, env);
    if (op === '==') return valueEquals(l, r);
    if (op === '!=') return !valueEquals(l, r);
    if (op === '<' || op === '<=' || op === '>' || op === '>=') {
      let c: number;
      if (typeof l === 'string' && typeof r === 'string') c = l < r ? -1 : l > r ? 1 : 0;
      else if (typeof l === 'bigint' && typeof r === 'bigint') c = l < r ? -1 : l > r ? 1 : 0;
      else if ((typeof l === 'bigint' || typeof l === 'number') && (typeof r === 'bigint' || typeof r === 'number'))
        c = Number(l) - Number(r);
      else return this.fail(CleatCodes.TYPE_MISMATCH, `cannot compare ${kindOf(l)} with ${kindOf(r)}`, e.span);
      return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
    }
    if (op === '+' && typeof l === 'string' && typeof r === 'string') return l + r;
    if (op === '+' && Array.isArray(l) && Array.isArray(r)) return [...l, ...r];
    if (typeof l === 'bigint' && typeof r === 'bigint') {
      switch (op) {
        case '+':
          return this.checkInt(l + r, e.span);
        case '-':
          return this.checkInt(l - r, e.span);
        case '*':
          return this.checkInt(l * r, e.span);
        case '/':
          if (r === 0n) return this.fail(CleatCodes.DIV_ZERO, 'division by zero', e.span);
          return this.checkInt(l / r, e.span);
        case '%':
          if (r === 0n) return this.fail(CleatCodes.DIV_ZERO, 'division by zero', e.span);
          return l % r;
      }
    }
    if ((typeof l === 'bigint' || typeof l === 'number') && (typeof r === 'bigint' || typeof r === 'number')) {
      const a = Number(l);
      const b = Number(r);
      switch (op) {
        case '+':
          return this.checkFloat(a + b, e.span);
        case '-':
          return this.checkFloat(a - b, e.span);
        case '*':
          return this.checkFloat(a * b, e.span);
        case '/':
          if (b === 0) return this.fail(CleatCodes.DIV_ZERO, 'division by zero', e.span);
          return this.checkFloat(a / b, e.span);
        case '%':
          if (b === 0) return this.fail(CleatCodes.DIV_ZERO, 'division by zero', e.span);
          return this.checkFloat(a % b, e.span);
      }
    }
    return this.fail(CleatCodes.TYPE_MISMATCH, `\`${op}\` cannot combine ${kindOf(l)} and ${kindOf(r)}`, e.span);
  }

  // ---- calls ----
  /** Resolves a callee expression to a user function or a built-in. */
  resolveCallee(callee: A.Expr, ctx: ModuleCtx): { fn: FnInfo } | { builtin: string } | undefined {
    if (callee.kind === 'Var') {
      const fn = ctx.fns.get(callee.name);
      if (fn) return { fn };
      if (BUILTINS.has(callee.name)) return { builtin: callee.name };
      return undefined;
    }
    if (callee.kind === 'Field' && callee.target.kind === 'Var') {
      const ns = ctx.namespaces.get(callee.target.name);
      if (ns?.kind === 'module') {
        const fn = ns.ctx.fns.get(callee.name);
        if (fn) return { fn };
      }
    }
    return undefined;
  }

  private call(e: A.Expr & { kind: 'Call' }, env: Env): Value {
    const target = this.resolveCallee(e.callee, env.ctx);
    if (!target) return this.fail(CleatCodes.UNKNOWN_NAME, 'not a function', e.callee.span);
    if ('builtin' in target) {
      const b = BUILTINS.get(target.builtin)!;
      const args = e.args.map((a) => this.eval(a.value, env));
      return b.run(args, { fail: (code, message) => this.fail(code, `${b.name}: ${message}`, e.span) });
    }
    return this.callFn(target.fn, e.args, env, e.span);
  }

  callFn(fn: FnInfo, args: A.Arg[], env: Env, span: Span): Value {
    const given = new Map<string, { value: Value; span: Span }>();
    args.forEach((a, i) => {
      const name = a.name ?? fn.params[i]?.name;
      if (name === undefined) this.fail(CleatCodes.ARGS, `too many arguments to \`${fn.name}\``, a.span);
      given.set(name, { value: this.eval(a.value, env), span: a.value.span });
    });
    let vars: Frame | undefined;
    for (const p of fn.params) {
      const g = given.get(p.name);
      const calleeEnv: Env = { ctx: fn.ctx, vars };
      let v: Value;
      let at: Span;
      if (g) {
        v = g.value;
        at = g.span;
      } else if (p.default) {
        v = this.eval(p.default, calleeEnv);
        at = p.default.span;
      } else return this.fail(CleatCodes.ARGS, `missing argument \`${p.name}\` of \`${fn.name}\``, span);
      v = this.conformAt(v, p.type, at, p.name, calleeEnv);
      vars = bind(vars, p.name, v);
    }
    const bodyEnv: Env = { ctx: fn.ctx, vars };
    const result = this.eval(fn.decl.body, bodyEnv);
    return fn.result ? this.conformAt(result, fn.result, fn.decl.body.span, '', bodyEnv) : result;
  }

  // ---- patterns ----
  matchPattern(p: A.Pattern, v: Value, env: Env, vars: Frame | undefined): Frame | undefined | false {
    switch (p.kind) {
      case 'PWild':
        return vars;
      case 'PBind': {
        if (p.type) {
          const t = env.ctx.typeOf.get(p.type) ?? T.json;
          try {
            conform(v, t, '', this.hooks(p.span, env));
          } catch (err) {
            if (err instanceof CleatError) return false;
            throw err;
          }
        }
        return bind(vars, p.name, v);
      }
      case 'PLit': {
        const lit = p.value;
        if (lit === null) return v === null ? vars : false;
        if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint' || typeof v === 'number') {
          return litEq(v, lit) ? vars : false;
        }
        return false;
      }
      case 'PTuple': {
        if (!Array.isArray(v) || v.length !== p.elems.length) return false;
        let out: Frame | undefined | false = vars;
        for (let i = 0; i < p.elems.length && out !== false; i++) out = this.matchPattern(p.elems[i]!, v[i]!, env, out);
        return out;
      }
      case 'PRecord': {
        if (!isObject(v)) return false;
        if (!p.open && [...v.fields.keys()].some((k) => !p.fields.some((f) => f.name === k))) return false;
        let out: Frame | undefined | false = vars;
        for (const f of p.fields) {
          if (out === false) return false;
          const x = v.get(f.name);
          if (x === undefined) return false;
          out = this.matchPattern(f.pattern, x, env, out);
        }
        return out;
      }
    }
  }
}
