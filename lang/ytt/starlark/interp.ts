/**
 * The Starlark evaluator: statements and expressions of parser.ts over the
 * values of values.ts. Pure: `load()` and YAML node placeholders go through
 * the host (template.ts), which owns files and the YAML tree.
 */
import { YttError, type Where } from '../errors.js';
import { SFloat, YArray, YMap } from '../nodes.js';
import { BUILTINS, MAX_ELEMENTS, callMethod, getAttr, iterate, len } from './builtins.js';
import type { Expr, Param, Stmt } from './parser.js';
import {
  SBuiltin,
  SDict,
  SFunction,
  SList,
  SStruct,
  STuple,
  equal,
  fromYaml,
  hashKey,
  repr,
  sType,
  str,
  truthy,
} from './values.js';

export interface Host {
  load(module: string, where: Where): Map<string, unknown>;
  /** run YAML node placeholder `id` (a template's body) */
  node(id: number, scope: Scope): void;
  /** a template function starts / ends: nodes emitted in between form its return value */
  beginFragment?(): void;
  endFragment?(): unknown;
}

export class Scope {
  constructor(
    readonly vars: Map<string, unknown>,
    readonly parent: Scope | undefined,
    /** the module globals (the outermost scope) */
    readonly isGlobal: boolean,
  ) {}
  lookup(name: string): unknown {
    if (this.vars.has(name)) return this.vars.get(name);
    if (this.parent) return this.parent.lookup(name);
    return BUILTINS.has(name) ? BUILTINS.get(name) : undefined;
  }
}

class Return {
  constructor(readonly value: unknown) {}
}
class Break {}
class Continue {}

const MAX_DEPTH = 200;

export class Interp {
  private depth = 0;
  constructor(private host: Host) {}

  exec(stmts: Stmt[], scope: Scope): void {
    for (const s of stmts) this.stmt(s, scope);
  }

  private stmt(s: Stmt, scope: Scope): void {
    switch (s.k) {
      case 'expr':
        this.eval(s.x, scope);
        return;
      case 'assign': {
        let v = this.eval(s.value, scope);
        if (s.op !== '=') {
          const cur = this.eval(s.target, scope);
          if (s.op === '+=' && cur instanceof SList) {
            cur.items.push(...iterate(v, s.where));
            return;
          }
          v = binop(s.op.slice(0, -1), cur, v, s.where);
        }
        this.assign(s.target, v, scope);
        return;
      }
      case 'def': {
        const defaults = s.params.map((p) => (p.def ? this.eval(p.def, scope) : undefined));
        scope.vars.set(
          s.name,
          new SFunction(
            s.name,
            s.params,
            s.body,
            closureVars(scope),
            defaults,
            hasNodes(s.body) ? this.host : undefined,
          ),
        );
        return;
      }
      case 'return':
        throw new Return(s.value ? this.eval(s.value, scope) : null);
      case 'if':
        this.exec(truthy(this.eval(s.cond, scope)) ? s.then : s.else, scope);
        return;
      case 'for': {
        const items = iterate(this.eval(s.iter, scope), s.where);
        for (const it of items) {
          this.assign(s.target, it, scope);
          try {
            this.exec(s.body, scope);
          } catch (e) {
            if (e instanceof Break) break;
            if (e instanceof Continue) continue;
            throw e;
          }
        }
        return;
      }
      case 'load': {
        const mod = this.host.load(s.module, s.where);
        for (const [local, name] of s.names) {
          if (!mod.has(name)) throw new YttError(s.where, `load: name ${name} not found in module ${s.module}`);
          scope.vars.set(local, mod.get(name));
        }
        return;
      }
      case 'break':
        throw new Break();
      case 'continue':
        throw new Continue();
      case 'pass':
        return;
      case 'node':
        this.host.node(s.id, scope);
        return;
    }
  }

  assign(target: Expr, v: unknown, scope: Scope): void {
    switch (target.k) {
      case 'name':
        scope.vars.set(target.name, v);
        return;
      case 'tuple':
      case 'list': {
        const items = iterate(v, target.where);
        if (items.length !== target.items.length)
          throw new YttError(
            target.where,
            `too ${items.length > target.items.length ? 'many' : 'few'} values to unpack (got ${items.length}, want ${target.items.length})`,
          );
        target.items.forEach((t, i) => this.assign(t, items[i], scope));
        return;
      }
      case 'index': {
        const x = this.eval(target.x, scope);
        const i = this.eval(target.i, scope);
        if (x instanceof SList) {
          if (x.frozen) throw new YttError(target.where, 'cannot assign to element of frozen list');
          x.items[index(i, x.items.length, target.where)] = v;
        } else if (x instanceof SDict) {
          if (x.frozen) throw new YttError(target.where, 'cannot insert into frozen hash table');
          x.set(i, v);
        } else throw new YttError(target.where, `${sType(x)} value does not support item assignment`);
        return;
      }
      case 'attr': {
        const x = this.eval(target.x, scope);
        throw new YttError(target.where, `can't assign to .${target.name} field of ${sType(x)}`);
      }
      default:
        throw new YttError(target.where, 'cannot assign to this expression');
    }
  }

  eval(e: Expr, scope: Scope): unknown {
    switch (e.k) {
      case 'lit':
        return e.float ? new SFloat(e.v as number) : e.v;
      case 'name': {
        const v = scope.lookup(e.name);
        if (v === undefined) throw new YttError(e.where, `undefined: ${e.name}`);
        return v;
      }
      case 'list':
        return new SList(e.items.map((x) => this.eval(x, scope)));
      case 'tuple':
        return new STuple(e.items.map((x) => this.eval(x, scope)));
      case 'dict': {
        const d = new SDict();
        for (const [k, v] of e.entries) {
          const kv = this.eval(k, scope);
          if (d.has(kv)) throw new YttError(k.where, `duplicate key: ${repr(kv)}`);
          d.set(kv, this.eval(v, scope));
        }
        return d;
      }
      case 'comp': {
        const out: unknown[] = [];
        const d = new SDict();
        const inner = new Scope(new Map(), scope, false);
        const run = (ci: number): void => {
          const c = e.clauses[ci];
          if (c === undefined) {
            if (e.kind === 'list') out.push(this.eval(e.elt, inner));
            else d.set(this.eval(e.elt, inner), this.eval(e.val!, inner));
            return;
          }
          if (c.k === 'if') {
            if (truthy(this.eval(c.cond, inner))) run(ci + 1);
            return;
          }
          for (const it of iterate(this.eval(c.iter, inner), e.where)) {
            this.assign(c.target, it, inner);
            run(ci + 1);
          }
        };
        run(0);
        return e.kind === 'list' ? new SList(out) : d;
      }
      case 'unary': {
        const x = this.eval(e.x, scope);
        if (e.op === 'not') return !truthy(x);
        if (e.op === '-') {
          if (typeof x === 'number') return -x;
          if (x instanceof SFloat) return new SFloat(-x.v);
        }
        if (e.op === '+' && (typeof x === 'number' || x instanceof SFloat)) return x;
        if (e.op === '~' && typeof x === 'number') return ~x;
        throw new YttError(e.where, `unknown unary op: ${e.op}${sType(x)}`);
      }
      case 'bin': {
        if (e.op === 'and') {
          const l = this.eval(e.l, scope);
          return truthy(l) ? this.eval(e.r, scope) : l;
        }
        if (e.op === 'or') {
          const l = this.eval(e.l, scope);
          return truthy(l) ? l : this.eval(e.r, scope);
        }
        return binop(e.op, this.eval(e.l, scope), this.eval(e.r, scope), e.where);
      }
      case 'cond':
        return truthy(this.eval(e.c, scope)) ? this.eval(e.t, scope) : this.eval(e.f, scope);
      case 'call': {
        const args: unknown[] = [];
        const kwargs: [string, unknown][] = [];
        for (const a of e.args) {
          const v = this.eval(a.value, scope);
          if (a.star === '*') args.push(...iterate(v, e.where));
          else if (a.star === '**') {
            if (!(v instanceof SDict))
              throw new YttError(e.where, `argument after ** must be a mapping, not ${sType(v)}`);
            for (const [k, x] of v.entries()) kwargs.push([String(k), x]);
          } else if (a.name) kwargs.push([a.name, v]);
          else args.push(v);
        }
        if (e.fn.k === 'attr') {
          const recv = this.eval(e.fn.x, scope);
          const m = callMethod(recv, e.fn.name, args, kwargs, e.where, (f, a, k) => this.call(f, a, k, e.where));
          if (m !== undefined) return m;
          return this.call(getAttr(recv, e.fn.name, e.where), args, kwargs, e.where);
        }
        return this.call(this.eval(e.fn, scope), args, kwargs, e.where);
      }
      case 'index': {
        const x = this.eval(e.x, scope);
        const i = this.eval(e.i, scope);
        return indexValue(x, i, e.where);
      }
      case 'slice': {
        const x = this.eval(e.x, scope);
        const lo = e.lo ? this.eval(e.lo, scope) : null;
        const hi = e.hi ? this.eval(e.hi, scope) : null;
        const st = e.step ? this.eval(e.step, scope) : null;
        return slice(x, lo, hi, st, e.where);
      }
      case 'attr':
        return getAttr(this.eval(e.x, scope), e.name, e.where);
      case 'lambda': {
        const defaults = e.params.map((p) => (p.def ? this.eval(p.def, scope) : undefined));
        return new SFunction('lambda', e.params, e.body, closureVars(scope), defaults, undefined);
      }
    }
  }

  call(fn: unknown, args: unknown[], kwargs: [string, unknown][], where: Where): unknown {
    if (fn instanceof SBuiltin) {
      try {
        return fn.fn(args, kwargs, where);
      } catch (err) {
        if (err instanceof YttError && !err.where) throw new YttError(where, err.reason);
        throw err;
      }
    }
    if (!(fn instanceof SFunction)) throw new YttError(where, `invalid call of non-function (${sType(fn)})`);
    if (++this.depth > MAX_DEPTH) {
      this.depth = 0;
      throw new YttError(where, `function ${fn.name} called recursively`);
    }
    try {
      const locals = bindParams(fn, args, kwargs, where);
      const scope = new Scope(locals, new Scope(fn.globals, undefined, true), false);
      if (!Array.isArray(fn.body)) return this.eval(fn.body, scope);
      // a template function emits the YAML nodes of the file that defined it
      const owner = fn.owner as Host | undefined;
      const isTemplate = owner !== undefined && owner.beginFragment !== undefined;
      const runner = owner && owner !== this.host ? new Interp(owner) : this;
      if (isTemplate) owner.beginFragment!();
      let result: unknown = null;
      let returned = false;
      try {
        runner.exec(fn.body, scope);
      } catch (e) {
        if (!(e instanceof Return)) throw e;
        result = e.value;
        returned = true;
      } finally {
        if (isTemplate) {
          const frag = owner.endFragment!();
          if (!returned) result = frag;
        }
      }
      return result;
    } finally {
      this.depth--;
    }
  }
}

/** a lambda sees the variables of every enclosing scope at the time it runs */
function closureVars(scope: Scope): Map<string, unknown> {
  if (!scope.parent) return scope.vars;
  const chain: Map<string, unknown>[] = [];
  for (let s: Scope | undefined = scope; s; s = s.parent) chain.push(s.vars);
  return new Proxy(new Map<string, unknown>(), {
    get(target, prop) {
      if (prop === 'has') return (k: string) => chain.some((m) => m.has(k));
      if (prop === 'get') return (k: string) => chain.find((m) => m.has(k))?.get(k);
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

function hasNodes(body: Stmt[]): boolean {
  return body.some(
    (s) =>
      s.k === 'node' || (s.k === 'if' && (hasNodes(s.then) || hasNodes(s.else))) || (s.k === 'for' && hasNodes(s.body)),
  );
}

function bindParams(fn: SFunction, args: unknown[], kwargs: [string, unknown][], where: Where): Map<string, unknown> {
  const locals = new Map<string, unknown>();
  const params: Param[] = fn.params;
  let ai = 0;
  let kwDict: SDict | undefined;
  params.forEach((p, i) => {
    if (p.star === '*') {
      locals.set(p.name, new STuple(args.slice(ai)));
      ai = args.length;
    } else if (p.star === '**') {
      kwDict = new SDict();
      locals.set(p.name, kwDict);
    } else if (ai < args.length) locals.set(p.name, args[ai++]);
    else if (fn.defaults[i] !== undefined) locals.set(p.name, fn.defaults[i]);
  });
  if (ai < args.length)
    throw new YttError(where, `function ${fn.name} accepts at most ${ai} positional arguments (${args.length} given)`);
  for (const [k, v] of kwargs) {
    const p = params.find((x) => x.name === k && !x.star);
    if (p) locals.set(k, v);
    else if (kwDict) kwDict.set(k, v);
    else throw new YttError(where, `function ${fn.name} got an unexpected keyword argument '${k}'`);
  }
  for (const p of params)
    if (!p.star && !locals.has(p.name)) throw new YttError(where, `function ${fn.name} missing argument '${p.name}'`);
  return locals;
}

function index(i: unknown, n: number, where: Where): number {
  if (typeof i !== 'number') throw new YttError(where, `index must be int, not ${sType(i)}`);
  const j = i < 0 ? i + n : i;
  if (j < 0 || j >= n) throw new YttError(where, `index ${i} out of range [0:${n}]`);
  return j;
}

function indexValue(x: unknown, i: unknown, where: Where): unknown {
  if (x instanceof SList || x instanceof STuple) return x.items[index(i, x.items.length, where)];
  if (typeof x === 'string') return x[index(i, x.length, where)];
  if (x instanceof SDict) {
    const h = hashKey(i);
    const e = x.map.get(h);
    if (!e) throw new YttError(where, `key ${repr(i)} not in dict`);
    return e[1];
  }
  if (x instanceof YArray) return x.items[index(i, x.items.length, where)]!.value;
  if (x instanceof YMap) {
    const it = x.get(i as never);
    if (!it) throw new YttError(where, `key ${repr(i)} not in yamlfragment`);
    return it.value;
  }
  if (x instanceof SStruct) {
    if (typeof i === 'string' && x.fields.has(i)) return x.fields.get(i);
    throw new YttError(where, `struct has no .${str(i)} field`);
  }
  throw new YttError(where, `unhandled index operation ${sType(x)}[${sType(i)}]`);
}

function slice(x: unknown, lo: unknown, hi: unknown, st: unknown, where: Where): unknown {
  const seq = x instanceof SList || x instanceof STuple ? x.items : typeof x === 'string' ? [...x] : undefined;
  if (!seq) throw new YttError(where, `invalid slice operand ${sType(x)}`);
  const n = seq.length;
  const step = st === null ? 1 : (st as number);
  const norm = (v: unknown, d: number): number => {
    if (v === null) return d;
    let j = v as number;
    if (j < 0) j += n;
    return Math.max(step > 0 ? 0 : -1, Math.min(step > 0 ? n : n - 1, j));
  };
  const a = norm(lo, step > 0 ? 0 : n - 1);
  const b = norm(hi, step > 0 ? n : -1);
  const out: unknown[] = [];
  if (step > 0) for (let j = a; j < b; j += step) out.push(seq[j]);
  else for (let j = a; j > b; j += step) out.push(seq[j]);
  if (typeof x === 'string') return out.join('');
  return x instanceof STuple ? new STuple(out) : new SList(out);
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof SFloat) return v.v;
  return undefined;
}

function compare(a: unknown, b: unknown, where: Where): number {
  const x = num(a);
  const y = num(b);
  if (x !== undefined && y !== undefined) return x < y ? -1 : x > y ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if ((a instanceof SList && b instanceof SList) || (a instanceof STuple && b instanceof STuple)) {
    for (let i = 0; i < Math.min(a.items.length, b.items.length); i++) {
      const c = compare(a.items[i], b.items[i], where);
      if (c) return c;
    }
    return a.items.length - b.items.length;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  throw new YttError(where, `${sType(a)} < ${sType(b)} not implemented`);
}

function binop(op: string, l: unknown, r: unknown, where: Where): unknown {
  switch (op) {
    case '==':
      return equal(l, r);
    case '!=':
      return !equal(l, r);
    case '<':
      return compare(l, r, where) < 0;
    case '>':
      return compare(l, r, where) > 0;
    case '<=':
      return compare(l, r, where) <= 0;
    case '>=':
      return compare(l, r, where) >= 0;
    case 'in':
    case 'not in': {
      let found: boolean;
      if (typeof r === 'string') {
        if (typeof l !== 'string')
          throw new YttError(where, `'in <string>' requires string as left operand, not ${sType(l)}`);
        found = r.includes(l);
      } else if (r instanceof SDict) found = r.has(l);
      else if (r instanceof YMap) found = r.get(l as never) !== undefined;
      else if (r instanceof SStruct) found = typeof l === 'string' && r.fields.has(l);
      else found = iterate(r, where).some((x) => equal(x, l));
      return op === 'in' ? found : !found;
    }
  }
  const x = num(l);
  const y = num(r);
  const isFloat = l instanceof SFloat || r instanceof SFloat;
  if (x !== undefined && y !== undefined) {
    const mk = (v: number): unknown => (isFloat ? new SFloat(v) : v);
    switch (op) {
      case '+':
        return mk(x + y);
      case '-':
        return mk(x - y);
      case '*':
        return mk(x * y);
      case '/':
        if (y === 0) throw new YttError(where, 'floating-point division by zero');
        return new SFloat(x / y);
      case '//':
        if (y === 0) throw new YttError(where, isFloat ? 'floored division by zero' : 'integer division by zero');
        return mk(Math.floor(x / y));
      case '%':
        if (y === 0) throw new YttError(where, isFloat ? 'floating-point modulo by zero' : 'integer modulo by zero');
        return mk(((x % y) + y) % y);
      case '|':
        if (!isFloat) return x | y;
        break;
      case '&':
        if (!isFloat) return x & y;
        break;
      case '^':
        if (!isFloat) return x ^ y;
        break;
      case '<<':
        if (!isFloat) return x << y;
        break;
      case '>>':
        if (!isFloat) return x >> y;
        break;
    }
  }
  if (op === '+') {
    if (typeof l === 'string' && typeof r === 'string') return l + r;
    if (l instanceof SList && r instanceof SList) return new SList([...l.items, ...r.items]);
    if (l instanceof STuple && r instanceof STuple) return new STuple([...l.items, ...r.items]);
    if ((l instanceof YArray || l instanceof SList) && (r instanceof YArray || r instanceof SList))
      return new SList([...iterate(l, where), ...iterate(r, where)]);
  }
  if (op === '*') {
    const [s, n] = typeof r === 'number' ? [l, r] : [r, l];
    if (typeof n === 'number') {
      const size = typeof s === 'string' ? s.length : s instanceof SList || s instanceof STuple ? s.items.length : 0;
      if (size * n > MAX_ELEMENTS) throw new YttError(where, `repeat: result longer than ${MAX_ELEMENTS}`);
      if (typeof s === 'string') return s.repeat(Math.max(0, n));
      if (s instanceof SList) return new SList(Array.from({ length: Math.max(0, n) }, () => s.items).flat());
      if (s instanceof STuple) return new STuple(Array.from({ length: Math.max(0, n) }, () => s.items).flat());
    }
  }
  if (op === '%' && typeof l === 'string') return percentFormat(l, r, where);
  if (op === '|' && l instanceof SDict && r instanceof SDict) return new SDict([...l.entries(), ...r.entries()]);
  throw new YttError(where, `unknown binary op: ${sType(l)} ${op} ${sType(r)}`);
}

function percentFormat(fmt: string, arg: unknown, where: Where): string {
  const args = arg instanceof STuple ? [...arg.items] : [arg];
  let ai = 0;
  const out = fmt.replace(
    /%(\([^)]*\))?([-0 +#]*)(\d*)(?:\.(\d+))?([sdrxXoeEfFgGc%])/g,
    (_m, key: string | undefined, _fl, _w, prec: string | undefined, c: string) => {
      if (c === '%') return '%';
      let v: unknown;
      if (key) {
        if (!(arg instanceof SDict)) throw new YttError(where, 'format requires a mapping');
        v = arg.get(key.slice(1, -1));
      } else {
        if (ai >= args.length) throw new YttError(where, 'not enough arguments for format string');
        v = args[ai++];
      }
      switch (c) {
        case 's':
          return str(v);
        case 'r':
          return repr(v);
        case 'd':
          return String(Math.trunc(num(v) ?? NaN));
        case 'x':
          return (num(v) ?? 0).toString(16);
        case 'X':
          return (num(v) ?? 0).toString(16).toUpperCase();
        case 'o':
          return (num(v) ?? 0).toString(8);
        case 'f':
        case 'F':
          return (num(v) ?? 0).toFixed(prec ? Number(prec) : 6);
        case 'e':
        case 'E':
          return (num(v) ?? 0).toExponential(prec ? Number(prec) : 6);
        case 'c':
          return typeof v === 'string' ? v : String.fromCodePoint(num(v) ?? 0);
        default:
          return str(v);
      }
    },
  );
  if (!(arg instanceof SDict) && ai < args.length) throw new YttError(where, 'too many arguments for format string');
  return out;
}

export { len, fromYaml };
