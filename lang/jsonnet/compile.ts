/**
 * Compiles analyzed AST nodes to closures (`Code`), so evaluation calls the
 * code of each child directly instead of dispatching on `node.type` at every
 * step. Each node is compiled once, on its first evaluation, and keeps its
 * code in `node.code`; ASTs are shared read-only, so the code never captures
 * an evaluator or an env: both are arguments.
 * Invariants (the same as the tree walker's, which the closures transcribe):
 *  - `ev.cur` is set to the node before anything in it can fail, and restored
 *    on normal return only, so a thrown error names the failing node;
 *  - children evaluated in place (operands, conditions, bodies of `local`)
 *    are compiled with their parent; code reached through a thunk, a field or
 *    a function body is compiled when first reached (`ev.evaluate`), so
 *    unused library code costs nothing;
 *  - a left-leaning `a + b + c ...` chain is one loop, never one JS frame per
 *    operand, so long concatenations cannot overflow the JS stack.
 * Why (recursion bench): the `evaluate` switch compared `node.type` strings
 * and re-read each node's fields on every step; it was about 35% of the
 * recursion case's CPU time. The before/after figures are in
 * docs/performance.md ("Closure compilation").
 */
import type { Apply, Binary, BinaryOp, FunctionLit, Node } from './ast.js';
import type { Evaluator } from './evaluator.js';
import { ArrayValue, Env, FuncValue, Thunk, type Value } from './value.js';

export type Code = (ev: Evaluator, env: Env) => Value;

/** A pending call returned from a tail position (trampolined by Evaluator.callFunction). */
export class TailCall {
  constructor(
    readonly fn: FuncValue,
    readonly positional: Thunk[],
    readonly named: [string, Thunk][] | null,
    readonly node: Apply,
  ) {}
}

/** Code of a function body run in a `tailstrict` frame: a call in tail position returns a TailCall. */
export type TailCode = (ev: Evaluator, env: Env) => Value | TailCall;

/** The node's code, compiled on first use. */
export function codeOf(node: Node): Code {
  const code = node.code;
  if (code !== undefined) return code;
  return (node.code = compile(node));
}

/** The function body's tail-position code, compiled on first use. */
export function tailCodeOf(fn: FunctionLit): TailCode {
  const code = fn.tailCode;
  if (code !== undefined) return code;
  return (fn.tailCode = compileTail(fn.body));
}

/** Tail positions are the body itself, through `local` bodies and both branches of `if`. */
function compileTail(node: Node): TailCode {
  switch (node.type) {
    case 'Apply':
      return applyCode(node, true);
    case 'Local':
      return localCode(node, compileTail(node.body));
    case 'Conditional':
      return conditionalCode(node, compileTail(node.then), node.else ? compileTail(node.else) : null);
    default:
      return codeOf(node);
  }
}

function compile(node: Node): Code {
  switch (node.type) {
    case 'Var':
      return varCode(node, node.depth, node.index);
    case 'Index': {
      const target = codeOf(node.target);
      const id = node.id;
      if (id !== null) {
        return (ev, env) => {
          const saved = ev.cur;
          ev.cur = node;
          const t = target(ev, env);
          ev.cur = node;
          const r = ev.indexValue(t, id);
          ev.cur = saved;
          return r;
        };
      }
      const index = codeOf(node.index);
      return (ev, env) => {
        const saved = ev.cur;
        ev.cur = node;
        const t = target(ev, env);
        const i = index(ev, env);
        ev.cur = node;
        const r = ev.indexValue(t, i);
        ev.cur = saved;
        return r;
      };
    }
    case 'Apply':
      return applyCode(node, false) as Code;
    case 'Binary':
      return binaryCode(node);
    case 'String':
    case 'Bool': {
      const v = node.value;
      return () => v;
    }
    case 'Number': {
      const v = node.value;
      if (v === Infinity) {
        return (ev) => {
          ev.cur = node;
          throw ev.error('overflow');
        };
      }
      return () => v;
    }
    case 'Null':
      return () => null;
    case 'Self':
      return (_ev, env) => env.self!;
    case 'Conditional':
      return conditionalCode(node, codeOf(node.then), node.else ? codeOf(node.else) : null) as Code;
    case 'Local':
      return localCode(node, codeOf(node.body)) as Code;
    case 'Object':
      return (ev, env) => ev.makeObject(node, env);
    case 'Array': {
      const plan = argPlan(node.elements);
      return (_ev, env) => new ArrayValue(makeThunks(plan, env));
    }
    case 'Function':
      return (_ev, env) => new FuncValue(node.params, node, env, '', null, null);
    case 'Dollar': {
      const { depth, index } = node;
      return (_ev, env) => {
        let e = env;
        for (let d = depth; d > 0; d--) e = e.parent!;
        return e.slots[index]!.value!;
      };
    }
    case 'Unary':
      return unaryCode(node);
    case 'SuperIndex': {
      const index = codeOf(node.index);
      return (ev, env) => {
        const saved = ev.cur;
        ev.cur = node;
        const name = index(ev, env);
        if (typeof name !== 'string') throw ev.typeError(name, 'string');
        ev.cur = node;
        const r = ev.superIndex(env, name);
        ev.cur = saved;
        return r;
      };
    }
    case 'ObjectComp':
      return (ev, env) => ev.makeObjectComp(node, env);
    case 'ArrayComp':
      return (ev, env) => ev.makeArrayComp(node, env);
    case 'Slice': {
      const target = codeOf(node.target);
      const begin = node.begin ? codeOf(node.begin) : null;
      const end = node.end ? codeOf(node.end) : null;
      const step = node.step ? codeOf(node.step) : null;
      return (ev, env) => {
        const saved = ev.cur;
        ev.cur = node;
        const t = target(ev, env);
        const b = begin !== null ? begin(ev, env) : null;
        const e = end !== null ? end(ev, env) : null;
        const s = step !== null ? step(ev, env) : null;
        ev.cur = node;
        const r = ev.slice(t, b, e, s);
        ev.cur = saved;
        return r;
      };
    }
    case 'Error': {
      const expr = codeOf(node.expr);
      return (ev, env) => {
        // No need to restore `cur`: this always throws.
        ev.cur = node;
        const m = expr(ev, env);
        ev.cur = node;
        const msg = typeof m === 'string' ? m : ev.toStringValue(m);
        ev.cur = node;
        throw ev.error(msg);
      };
    }
    case 'Assert': {
      const cond = codeOf(node.cond);
      const msgCode = node.msg ? codeOf(node.msg) : null;
      const rest = codeOf(node.rest);
      return (ev, env) => {
        const saved = ev.cur;
        ev.cur = node;
        const c = cond(ev, env);
        if (typeof c !== 'boolean') throw ev.typeError(c, 'boolean');
        if (!c) {
          let msg = 'Assertion failed';
          if (msgCode !== null) {
            const m = msgCode(ev, env);
            msg = typeof m === 'string' ? m : ev.toStringValue(m);
          }
          throw ev.desugaredAssertFailure(node.span, msg);
        }
        ev.cur = saved;
        return rest(ev, env);
      };
    }
    case 'InSuper': {
      const index = codeOf(node.index);
      return (ev, env) => {
        const saved = ev.cur;
        ev.cur = node;
        const name = index(ev, env);
        if (typeof name !== 'string') throw ev.typeError(name, 'string');
        ev.cur = saved;
        return env.self!.findLayer(name, env.layer) >= 0;
      };
    }
    case 'Import': {
      const { kind, path } = node;
      const from = node.span.file.name;
      return (ev) => {
        const saved = ev.cur;
        ev.cur = node;
        const r = ev.evalImport(kind, path, from);
        ev.cur = saved;
        return r;
      };
    }
  }
}

/** `local` binds lazily, then runs the body's code (plain or tail-position) in the new frame. */
function localCode(node: Extract<Node, { type: 'Local' }>, body: TailCode): TailCode {
  const bodies = node.binds.map((b) => b.body);
  return (ev, env) => {
    const slots = new Array<Thunk>(bodies.length);
    const inner = new Env(env, slots, env.self, env.layer);
    for (let i = 0; i < bodies.length; i++) slots[i] = Thunk.lazy(bodies[i]!, inner);
    return body(ev, inner);
  };
}

/** `if` with the branches' code (plain or tail-position). */
function conditionalCode(node: Extract<Node, { type: 'Conditional' }>, then: TailCode, els: TailCode | null): TailCode {
  const cond = codeOf(node.cond);
  return (ev, env) => {
    const saved = ev.cur;
    ev.cur = node;
    const c = cond(ev, env);
    if (typeof c !== 'boolean') throw ev.typeError(c, 'boolean');
    ev.cur = saved;
    if (c) return then(ev, env);
    return els !== null ? els(ev, env) : null;
  };
}

/**
 * Variables specialised by frame depth: most reads are of the innermost frame
 * or its parent, so the parent walk is unrolled for them.
 */
function varCode(node: Node, depth: number, index: number): Code {
  const slow = (ev: Evaluator, t: Thunk): Value => {
    const saved = ev.cur;
    ev.cur = node;
    const r = ev.force(t);
    ev.cur = saved;
    return r;
  };
  if (depth === 0) {
    return (ev, env) => {
      const t = env.slots[index]!;
      const v = t.value;
      return v !== undefined ? v : slow(ev, t);
    };
  }
  if (depth === 1) {
    return (ev, env) => {
      const t = env.parent!.slots[index]!;
      const v = t.value;
      return v !== undefined ? v : slow(ev, t);
    };
  }
  return (ev, env) => {
    let e = env;
    for (let d = depth; d > 0; d--) e = e.parent!;
    const t = e.slots[index]!;
    const v = t.value;
    return v !== undefined ? v : slow(ev, t);
  };
}

// ------------------------------------------------------------------ arguments

const LAZY = 0;
const READY = 1;
const VARIABLE = 2;

/**
 * How each argument (or array element) becomes a thunk, decided once: literals
 * are one shared ready thunk (immutable once ready), a variable passes its own
 * thunk (same laziness, one cache, no extra frame when forced), anything else
 * is a lazy thunk over its node.
 */
interface ArgPlan {
  kinds: Uint8Array;
  nodes: Node[];
  ready: (Thunk | null)[];
  depth: Int32Array;
  index: Int32Array;
}

function argPlan(nodes: Node[]): ArgPlan {
  const n = nodes.length;
  const plan: ArgPlan = {
    kinds: new Uint8Array(n),
    nodes,
    ready: new Array<Thunk | null>(n).fill(null),
    depth: new Int32Array(n),
    index: new Int32Array(n),
  };
  for (let i = 0; i < n; i++) {
    const a = nodes[i]!;
    if (a.type === 'Var') {
      plan.kinds[i] = VARIABLE;
      plan.depth[i] = a.depth;
      plan.index[i] = a.index;
    } else if (a.type === 'Null') {
      plan.kinds[i] = READY;
      plan.ready[i] = Thunk.ready(null);
    } else if (a.type === 'Bool' || a.type === 'String' || (a.type === 'Number' && a.value !== Infinity)) {
      plan.kinds[i] = READY;
      plan.ready[i] = Thunk.ready(a.value);
    }
  }
  return plan;
}

function makeThunks(plan: ArgPlan, env: Env): Thunk[] {
  const { kinds, nodes } = plan;
  const n = kinds.length;
  const out = new Array<Thunk>(n);
  for (let i = 0; i < n; i++) {
    const k = kinds[i];
    if (k === LAZY) out[i] = Thunk.lazy(nodes[i]!, env);
    else if (k === READY) out[i] = plan.ready[i]!;
    else {
      let e = env;
      for (let d = plan.depth[i]!; d > 0; d--) e = e.parent!;
      out[i] = e.slots[plan.index[i]!]!;
    }
  }
  return out;
}

/** In tail position (`tail`), a call of a Jsonnet function is returned as a TailCall, not made. */
function applyCode(node: Apply, tail: boolean): TailCode {
  const target = codeOf(node.target);
  const plan = argPlan(node.positional);
  const named = node.named;
  const tailstrict = node.tailstrict;
  return (ev, env) => {
    const saved = ev.cur;
    ev.cur = node;
    const fv = target(ev, env);
    ev.cur = node;
    if (!(fv instanceof FuncValue)) throw ev.typeError(fv, 'function');
    const positional = makeThunks(plan, env);
    let namedThunks: [string, Thunk][] | null = null;
    if (named.length > 0) namedThunks = named.map((a) => [a.name, Thunk.lazy(a.value, env)]);
    if (tailstrict) {
      for (const t of positional) ev.force(t);
      if (namedThunks) for (const [, t] of namedThunks) ev.force(t);
    }
    // `cur` is left as it is: the trampoline's exitFrame restores the caller's.
    if (tail && fv.literal !== null) return new TailCall(fv, positional, namedThunks, node);
    const r = ev.callFunction(fv, positional, namedThunks, tailstrict);
    ev.cur = saved;
    return r;
  };
}

// ------------------------------------------------------------------ operators

function unaryCode(node: Extract<Node, { type: 'Unary' }>): Code {
  const expr = codeOf(node.expr);
  const op = node.op;
  return (ev, env) => {
    const saved = ev.cur;
    ev.cur = node;
    const v = expr(ev, env);
    let r: Value;
    if (op === '!') {
      if (typeof v !== 'boolean') throw ev.typeError(v, 'boolean');
      r = !v;
    } else {
      if (typeof v !== 'number') throw ev.typeError(v, 'number');
      r = op === '-' ? -v : op === '+' ? v : ev.bitwiseNot(v);
    }
    ev.cur = saved;
    return r;
  };
}

type OpFn = (ev: Evaluator, l: Value, r: Value) => Value;

/**
 * Each operator as its own function with the number case first: the generic
 * binaryOp re-dispatched on the operator string for every operation.
 */
function opFunction(op: BinaryOp): OpFn {
  switch (op) {
    case '+':
      return (ev, l, r) => {
        if (typeof l === 'number' && typeof r === 'number') {
          const x = l + r;
          return x - x === 0 ? x : ev.checkNum(x);
        }
        return ev.plus(l, r);
      };
    case '-':
      return (ev, l, r) => {
        if (typeof l === 'number' && typeof r === 'number') {
          const x = l - r;
          return x - x === 0 ? x : ev.checkNum(x);
        }
        return ev.binaryOp(op, l, r);
      };
    case '*':
      return (ev, l, r) => {
        if (typeof l === 'number' && typeof r === 'number') {
          const x = l * r;
          return x - x === 0 ? x : ev.checkNum(x);
        }
        return ev.binaryOp(op, l, r);
      };
    case '<':
      return (ev, l, r) => (typeof l === 'number' && typeof r === 'number' ? l < r : ev.compare(l, r) < 0);
    case '<=':
      return (ev, l, r) => (typeof l === 'number' && typeof r === 'number' ? l <= r : ev.compare(l, r) <= 0);
    case '>':
      return (ev, l, r) => (typeof l === 'number' && typeof r === 'number' ? l > r : ev.compare(l, r) > 0);
    case '>=':
      return (ev, l, r) => (typeof l === 'number' && typeof r === 'number' ? l >= r : ev.compare(l, r) >= 0);
    case '==':
      return (ev, l, r) => (typeof l === 'number' && typeof r === 'number' ? l === r : ev.equals(l, r));
    case '!=':
      return (ev, l, r) => (typeof l === 'number' && typeof r === 'number' ? l !== r : !ev.equals(l, r));
    default:
      return (ev, l, r) => ev.binaryOp(op, l, r);
  }
}

function isChainLink(n: Node): n is Binary {
  return n.type === 'Binary' && n.op !== '&&' && n.op !== '||';
}

function binaryCode(node: Binary): Code {
  if (node.op === '&&' || node.op === '||') return logicalCode(node, node.op === '&&');
  if (!isChainLink(node.left)) {
    const left = codeOf(node.left);
    const right = codeOf(node.right);
    const fn = opFunction(node.op);
    return (ev, env) => {
      const saved = ev.cur;
      ev.cur = node;
      const l = left(ev, env);
      const r = right(ev, env);
      ev.cur = node;
      const v = fn(ev, l, r);
      ev.cur = saved;
      return v;
    };
  }
  // A left-leaning chain, innermost link first; `node` itself is the last link.
  const links: Binary[] = [];
  let n: Node = node;
  while (isChainLink(n)) {
    links.push(n);
    n = n.left;
  }
  links.reverse();
  const base = codeOf(n);
  const rights = links.map((b) => codeOf(b.right));
  const fns = links.map((b) => opFunction(b.op));
  const first = links[0]!;
  return (ev, env) => {
    const saved = ev.cur;
    ev.cur = first;
    let acc = base(ev, env);
    for (let i = 0; i < links.length; i++) {
      const b = links[i]!;
      ev.cur = b;
      const r = rights[i]!(ev, env);
      ev.cur = b;
      acc = fns[i]!(ev, acc, r);
    }
    ev.cur = saved;
    return acc;
  };
}

function logicalCode(node: Binary, isAnd: boolean): Code {
  const left = codeOf(node.left);
  const right = codeOf(node.right);
  return (ev, env) => {
    const saved = ev.cur;
    ev.cur = node;
    const l = left(ev, env);
    if (typeof l !== 'boolean') throw ev.typeError(l, 'boolean');
    if (isAnd ? !l : l) {
      ev.cur = saved;
      return l;
    }
    const r = right(ev, env);
    if (typeof r !== 'boolean') {
      ev.cur = node;
      throw ev.typeError(r, 'boolean');
    }
    ev.cur = saved;
    return r;
  };
}
