/**
 * Generic traversal of the formatter tree in source order. `visitSlots` calls
 * back for every fodder slot and every child node of one node (children may be
 * replaced by returning a new node); `transformTree` and `forEachPassFodder`
 * walk a whole tree (the formatter runs its passes in one walk, see
 * tree-passes.ts; these whole-tree walks give the reference order its tests
 * compare against). Passes that only look at some node kinds build on these
 * instead of repeating the per-kind plumbing. Invariant: slots are visited in
 * the order their text appears in the source.
 */
import type { Fodder } from './fodder.js';
import type { ForSpec, LiteralString, Node, ObjectField, ObjectNode, Params } from './tree.js';

export interface SlotVisitor {
  node(child: Node): Node;
  fodder(fodder: Fodder): void;
}

function visitParams(p: Params, v: SlotVisitor): void {
  v.fodder(p.parenLeftFodder);
  for (const param of p.params) {
    v.fodder(param.nameFodder);
    if (param.defaultArg) {
      v.fodder(param.eqFodder);
      param.defaultArg = v.node(param.defaultArg);
    }
    v.fodder(param.commaFodder);
  }
  v.fodder(p.parenRightFodder);
}

function visitSpec(spec: ForSpec, v: SlotVisitor): void {
  if (spec.outer) visitSpec(spec.outer, v);
  v.fodder(spec.forFodder);
  v.fodder(spec.varFodder);
  v.fodder(spec.inFodder);
  spec.expr = v.node(spec.expr);
  for (const cond of spec.conditions) {
    v.fodder(cond.ifFodder);
    cond.expr = v.node(cond.expr);
  }
}

function visitField(f: ObjectField, v: SlotVisitor): void {
  switch (f.kind) {
    case 'local':
      v.fodder(f.fodder1);
      v.fodder(f.fodder2);
      if (f.method) visitParams(f.method, v);
      v.fodder(f.opFodder);
      f.expr2 = v.node(f.expr2);
      break;
    case 'id':
      v.fodder(f.fodder1);
      if (f.method) visitParams(f.method, v);
      v.fodder(f.opFodder);
      f.expr2 = v.node(f.expr2);
      break;
    case 'str':
      if (f.expr1) f.expr1 = v.node(f.expr1);
      if (f.method) visitParams(f.method, v);
      v.fodder(f.opFodder);
      f.expr2 = v.node(f.expr2);
      break;
    case 'expr':
      v.fodder(f.fodder1);
      if (f.expr1) f.expr1 = v.node(f.expr1);
      v.fodder(f.fodder2);
      if (f.method) visitParams(f.method, v);
      v.fodder(f.opFodder);
      f.expr2 = v.node(f.expr2);
      break;
    case 'assert':
      v.fodder(f.fodder1);
      f.expr2 = v.node(f.expr2);
      if (f.expr3) {
        v.fodder(f.opFodder);
        f.expr3 = v.node(f.expr3);
      }
      break;
  }
  v.fodder(f.commaFodder);
}

/** Visits the fodder slots and children of `n` (not `n.fodder` itself). */
function visitSlots(n: Node, v: SlotVisitor): void {
  switch (n.type) {
    case 'apply':
      n.target = v.node(n.target);
      v.fodder(n.fodderLeft);
      for (const a of n.positional) {
        a.expr = v.node(a.expr);
        v.fodder(a.commaFodder);
      }
      for (const a of n.named) {
        v.fodder(a.nameFodder);
        v.fodder(a.eqFodder);
        a.arg = v.node(a.arg);
        v.fodder(a.commaFodder);
      }
      v.fodder(n.fodderRight);
      if (n.tailStrict) v.fodder(n.tailStrictFodder);
      break;
    case 'applyBrace':
      n.left = v.node(n.left);
      n.right = v.node(n.right) as ObjectNode;
      break;
    case 'array':
      for (const e of n.elements) {
        e.expr = v.node(e.expr);
        v.fodder(e.commaFodder);
      }
      v.fodder(n.closeFodder);
      break;
    case 'arrayComp':
      n.body = v.node(n.body);
      v.fodder(n.trailingCommaFodder);
      visitSpec(n.spec, v);
      v.fodder(n.closeFodder);
      break;
    case 'assert':
      n.cond = v.node(n.cond);
      if (n.message) {
        v.fodder(n.colonFodder);
        n.message = v.node(n.message);
      }
      v.fodder(n.semicolonFodder);
      n.rest = v.node(n.rest);
      break;
    case 'binary':
      n.left = v.node(n.left);
      v.fodder(n.opFodder);
      n.right = v.node(n.right);
      break;
    case 'conditional':
      n.cond = v.node(n.cond);
      v.fodder(n.thenFodder);
      n.branchTrue = v.node(n.branchTrue);
      if (n.branchFalse) {
        v.fodder(n.elseFodder);
        n.branchFalse = v.node(n.branchFalse);
      }
      break;
    case 'error':
      n.expr = v.node(n.expr);
      break;
    case 'function':
      visitParams(n.params, v);
      n.body = v.node(n.body);
      break;
    case 'import':
      n.file = v.node(n.file) as LiteralString;
      break;
    case 'index':
      n.target = v.node(n.target);
      v.fodder(n.leftBracketFodder);
      if (n.index) n.index = v.node(n.index);
      v.fodder(n.rightBracketFodder);
      break;
    case 'slice':
      n.target = v.node(n.target);
      v.fodder(n.leftBracketFodder);
      if (n.beginIndex) n.beginIndex = v.node(n.beginIndex);
      v.fodder(n.endColonFodder);
      if (n.endIndex) n.endIndex = v.node(n.endIndex);
      v.fodder(n.stepColonFodder);
      if (n.step) n.step = v.node(n.step);
      v.fodder(n.rightBracketFodder);
      break;
    case 'inSuper':
      n.index = v.node(n.index);
      v.fodder(n.inFodder);
      v.fodder(n.superFodder);
      break;
    case 'local':
      for (const b of n.binds) {
        v.fodder(b.varFodder);
        if (b.fun) visitParams(b.fun, v);
        v.fodder(b.eqFodder);
        b.body = v.node(b.body);
        v.fodder(b.closeFodder);
      }
      n.body = v.node(n.body);
      break;
    case 'object':
      for (const f of n.fields) visitField(f, v);
      v.fodder(n.closeFodder);
      break;
    case 'objectComp':
      for (const f of n.fields) visitField(f, v);
      visitSpec(n.spec, v);
      v.fodder(n.closeFodder);
      break;
    case 'parens':
      n.inner = v.node(n.inner);
      v.fodder(n.closeFodder);
      break;
    case 'superIndex':
      v.fodder(n.dotFodder);
      if (n.index) n.index = v.node(n.index);
      v.fodder(n.idFodder);
      break;
    case 'unary':
      n.expr = v.node(n.expr);
      break;
    default:
      break;
  }
}

/**
 * Rebuilds the tree top-down: `f` may replace a node before its children are
 * visited (the children of the replacement are then visited).
 */
export function transformTree(root: Node, f: (n: Node) => Node): Node {
  const visitor: SlotVisitor = {
    node(child) {
      const replaced = f(child);
      visitSlots(replaced, visitor);
      return replaced;
    },
    fodder() {},
  };
  return visitor.node(root);
}

/**
 * Like visitSlots, restricted to the slots jsonnetfmt's generic fodder passes
 * (blank lines, comment style) see. C++ jsonnetfmt 0.18 skips some, and
 * matching its output means skipping them too: the fodder inside
 * `x[...]`/`x.y` (brackets, dot, name, slice colons), inside
 * `super.y`/`super[...]`, around `in super`, and an import's path string
 * (the node and its fodder). Children are still replaced by `v.node`'s result.
 */
export function visitPassSlots(n: Node, v: SlotVisitor): void {
  switch (n.type) {
    case 'import':
      break;
    case 'inSuper':
      n.index = v.node(n.index);
      break;
    case 'index':
      n.target = v.node(n.target);
      if (n.index) n.index = v.node(n.index);
      break;
    case 'slice':
      n.target = v.node(n.target);
      if (n.beginIndex) n.beginIndex = v.node(n.beginIndex);
      if (n.endIndex) n.endIndex = v.node(n.endIndex);
      if (n.step) n.step = v.node(n.step);
      break;
    case 'superIndex':
      if (n.index) n.index = v.node(n.index);
      break;
    default:
      visitSlots(n, v);
  }
}

/** Calls `f` on every fodder jsonnetfmt's generic passes visit (see visitPassSlots), in source order. */
export function forEachPassFodder(root: Node, f: (fodder: Fodder) => void): void {
  const visitor: SlotVisitor = {
    node(child) {
      f(child.fodder);
      visitPassSlots(child, visitor);
      return child;
    },
    fodder: f,
  };
  visitor.node(root);
}
