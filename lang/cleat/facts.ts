/**
 * Known facts for deciding refinement VCs without an SMT solver (spec §6):
 * numeric intervals of variables, learned from `if` conditions (path
 * conditions) and from the refinements in a variable's declared type. A fact
 * is tied to one binding object, so a shadowing variable never inherits the
 * facts of the outer one. Only `x OP constant` comparisons are understood;
 * anything else stays unknown (a runtime check).
 */
import type * as A from './ast.js';

export interface Interval {
  lo: number;
  loStrict: boolean;
  hi: number;
  hiStrict: boolean;
}

export const FULL: Interval = { lo: -Infinity, loStrict: false, hi: Infinity, hiStrict: false };

export type Cmp = '<' | '<=' | '>' | '>=' | '==';

/** `subject OP c` facts found in a conjunction; `isSubject` says which expression is the subject. */
export function comparisons(
  e: A.Expr,
  isSubject: (e: A.Expr) => boolean,
  constOf: (e: A.Expr) => number | undefined,
): { op: Cmp; c: number }[] | undefined {
  if (e.kind === 'Binary' && e.op === '&&') {
    const l = comparisons(e.left, isSubject, constOf);
    const r = comparisons(e.right, isSubject, constOf);
    return l && r ? [...l, ...r] : undefined;
  }
  if (e.kind !== 'Binary' || !['<', '<=', '>', '>=', '=='].includes(e.op)) return undefined;
  const flip: Record<string, Cmp> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==' };
  if (isSubject(e.left)) {
    const c = constOf(e.right);
    return c === undefined ? undefined : [{ op: e.op as Cmp, c }];
  }
  if (isSubject(e.right)) {
    const c = constOf(e.left);
    return c === undefined ? undefined : [{ op: flip[e.op]!, c }];
  }
  return undefined;
}

export function narrow(iv: Interval, op: Cmp, c: number): Interval {
  const r = { ...iv };
  if (op === '<' || op === '<=' || op === '==') {
    if (c < r.hi || (c === r.hi && op === '<')) {
      r.hi = c;
      r.hiStrict = op === '<';
    }
  }
  if (op === '>' || op === '>=' || op === '==') {
    if (c > r.lo || (c === r.lo && op === '>')) {
      r.lo = c;
      r.loStrict = op === '>';
    }
  }
  return r;
}

/** Does every value in `iv` satisfy `x OP c` (true), none (false), or only some (undefined)? */
export function decide(iv: Interval, op: Cmp, c: number): boolean | undefined {
  const allBelow = iv.hi < c || (iv.hi === c && iv.hiStrict); // every x < c
  const allAbove = iv.lo > c || (iv.lo === c && iv.loStrict); // every x > c
  switch (op) {
    case '<':
      return allBelow ? true : iv.lo >= c ? false : undefined;
    case '<=':
      return iv.hi <= c ? true : allAbove ? false : undefined;
    case '>':
      return allAbove ? true : iv.hi <= c ? false : undefined;
    case '>=':
      return iv.lo >= c ? true : allBelow ? false : undefined;
    case '==':
      return iv.lo === c && iv.hi === c ? true : allBelow || allAbove ? false : undefined;
  }
}
