/**
 * The type model (spec §3): structural types, normalization (§3.2) and
 * subtyping (§3.1). Types are plain immutable objects except `named`, whose
 * cell is resolved lazily (schema definitions) and may be narrowed in place by
 * `refine` (each importing file gets its own cells, so refines stay local).
 * Refinement predicates are kept as expressions with the scope they were
 * written in; evaluating them is the evaluator's job.
 */
import type { Expr, LitValue } from './ast.js';

export interface Field {
  name: string;
  type: Ty;
  optional: boolean;
  /** A default expression (or, for schema/implicit defaults, a constant). */
  default?: { expr?: Expr; value?: LitValue; scope?: unknown };
  doc?: string;
}

export interface NamedCell {
  name: string;
  ty?: Ty;
  resolve?: () => Ty;
  doc?: string;
}

export type Ty =
  | { k: 'never' }
  | { k: 'null' }
  | { k: 'bool' }
  | { k: 'int' }
  | { k: 'float' }
  | { k: 'str' }
  | { k: 'json' }
  | { k: 'lit'; v: string | boolean | bigint | number }
  | { k: 'list'; elem: Ty }
  | { k: 'tuple'; elems: Ty[] }
  | { k: 'map'; value: Ty }
  | {
      k: 'record';
      fields: Field[];
      open: boolean;
      /** display name of a narrowed copy of a named type */ name?: string;
    }
  | { k: 'union'; members: Ty[] }
  | { k: 'refine'; base: Ty; pred: Expr; alias?: string; scope?: unknown }
  | { k: 'named'; cell: NamedCell };

export const T = {
  never: { k: 'never' } as Ty,
  null: { k: 'null' } as Ty,
  bool: { k: 'bool' } as Ty,
  int: { k: 'int' } as Ty,
  float: { k: 'float' } as Ty,
  str: { k: 'str' } as Ty,
  json: { k: 'json' } as Ty,
  lit: (v: string | boolean | bigint | number): Ty => ({ k: 'lit', v }),
  list: (elem: Ty): Ty => ({ k: 'list', elem }),
  map: (value: Ty): Ty => ({ k: 'map', value }),
  tuple: (elems: Ty[]): Ty => ({ k: 'tuple', elems }),
  record: (fields: Field[], open = false): Ty => ({ k: 'record', fields, open }),
};

/** Follows named types to their definition. */
export function resolve(t: Ty): Ty {
  let guard = 0;
  while (t.k === 'named') {
    const c = t.cell;
    if (!c.ty) {
      if (!c.resolve) return T.json;
      const r = c.resolve;
      delete c.resolve;
      c.ty = T.json; // a reference cycle while resolving reads as Json (spec: no recursive types)
      c.ty = r();
    }
    t = c.ty;
    if (++guard > 1000) return T.json;
  }
  return t;
}

/** Strips refinements (the structural part of a type). */
export function baseOf(t: Ty): Ty {
  t = resolve(t);
  while (t.k === 'refine') t = resolve(t.base);
  return t;
}

export function union(members: Ty[]): Ty {
  return normalize({ k: 'union', members });
}

/** The members of a type seen as a union (one member when it is not a union). */
export function members(t: Ty): Ty[] {
  const r = resolve(t);
  return r.k === 'union' ? r.members.flatMap(members) : [t];
}

/** §3.2: flatten unions, drop Never, drop subsumed members, `true | false` = Bool. */
export function normalize(t: Ty): Ty {
  if (t.k === 'union') {
    let flat: Ty[] = [];
    for (const m of t.members) {
      const n = normalize(m);
      const r = resolve(n);
      if (r.k === 'never') continue;
      if (r.k === 'union' && n.k !== 'named') flat.push(...r.members);
      else flat.push(n);
    }
    if (flat.some((m) => isLit(m, true)) && flat.some((m) => isLit(m, false))) {
      flat = flat.filter((m) => !isLit(m, true) && !isLit(m, false));
      flat.push(T.bool);
    }
    const kept = withoutSubsumed(flat);
    if (kept.length === 0) return T.never;
    if (kept.length === 1) return kept[0]!;
    return { k: 'union', members: kept };
  }
  if (t.k === 'record') {
    if (t.fields.some((f) => !f.optional && resolve(f.type).k === 'never')) return T.never;
    return t;
  }
  if (t.k === 'refine') {
    if (t.pred.kind === 'Lit' && t.pred.value === false) return T.never;
    if (t.pred.kind === 'Lit' && t.pred.value === true) return t.base;
    return t;
  }
  return t;
}

/**
 * The members no other member subsumes, in their order; of two equivalent members the first stays.
 * Subsumption is on inputs (isSubtype's `inputs`): a union conforms inputs, and `{ b: 0 }` (b may be
 * left out) absorbed into `{ b: Float }` would refuse `{}`, which the union accepted. A member is
 * removed only for a member that stays (the kept set grows from the top), so no chain of
 * subsumptions can leave nothing that accepts what a removed member accepted.
 */
function withoutSubsumed(flat: readonly Ty[]): Ty[] {
  const inputSubtype = (a: Ty, b: Ty): boolean => isSubtype(a, b, new Set(), true);
  const above = (m: Ty, i: number, among: readonly number[]): boolean =>
    among.some((j) => j !== i && inputSubtype(m, flat[j]!) && (!inputSubtype(flat[j]!, m) || j < i));
  const keptAt: number[] = [];
  let rest = flat.map((_, i) => i);
  while (rest.length > 0) {
    rest = rest.filter((i) => !above(flat[i]!, i, keptAt));
    const top = rest.filter((i) => !above(flat[i]!, i, rest));
    if (top.length === 0) {
      keptAt.push(...rest); // a cycle no member tops: keep them all rather than lose what they accept
      break;
    }
    keptAt.push(...top);
    rest = rest.filter((i) => !top.includes(i));
  }
  return keptAt.sort((a, b) => a - b).map((i) => flat[i]!);
}

function isLit(t: Ty, v: boolean): boolean {
  const r = resolve(t);
  return r.k === 'lit' && r.v === v;
}

/** True when a record field may be left out by a caller: optional, defaulted, or a single literal. */
export function fieldOmittable(f: Field): boolean {
  return f.optional || f.default !== undefined || resolve(f.type).k === 'lit';
}

/**
 * §3.1: is every value of `a` a value of `b`? Refined `b` is only proven for the same predicate.
 * With `inputs`, the stricter question normalization asks (§3.2): does `b` accept every input `a`
 * accepts? Then a field `a` lets a caller leave out (optional, defaulted, a single literal) must be
 * one `b` lets a caller leave out too: `{ kind: "A" }` accepts `{}`, `{ kind: Str }` does not.
 */
export function isSubtype(a: Ty, b: Ty, seen: Set<string> = new Set(), inputs = false): boolean {
  if (a === b) return true;
  // Named types may be deep (schemas): memoize pairs being compared to cut cycles.
  if (a.k === 'named' && b.k === 'named') {
    if (a.cell === b.cell) return true;
    const key = `${a.cell.name}\u0000${b.cell.name}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  const ra = resolve(a);
  const rb = resolve(b);
  if (ra.k === 'never') return true;
  if (rb.k === 'json') return true;
  if (ra.k === 'union') return ra.members.every((m) => isSubtype(m, rb, seen, inputs));
  if (
    ra.k === 'bool' &&
    rb.k === 'union' &&
    rb.members.some((m) => isLit(m, true)) &&
    rb.members.some((m) => isLit(m, false))
  )
    return true;
  if (rb.k === 'union') return rb.members.some((m) => isSubtype(ra, m, seen, inputs));
  if (rb.k === 'refine') {
    if (ra.k === 'refine' && ra.pred === rb.pred) return isSubtype(ra.base, rb.base, seen, inputs);
    if (ra.k === 'refine') return isSubtype(ra.base, rb, seen, inputs);
    return false;
  }
  if (ra.k === 'refine') return isSubtype(ra.base, rb, seen, inputs);
  switch (ra.k) {
    case 'json':
      return false;
    case 'null':
      return rb.k === 'null';
    case 'bool':
      return rb.k === 'bool';
    case 'int':
      return rb.k === 'int' || rb.k === 'float';
    case 'float':
      return rb.k === 'float';
    case 'str':
      return rb.k === 'str';
    case 'lit': {
      if (rb.k === 'lit') return litEq(ra.v, rb.v);
      const v = ra.v;
      if (typeof v === 'string') return rb.k === 'str';
      if (typeof v === 'boolean') return rb.k === 'bool';
      if (typeof v === 'bigint') return rb.k === 'int' || rb.k === 'float';
      return rb.k === 'float';
    }
    case 'list':
      return rb.k === 'list' && isSubtype(ra.elem, rb.elem, seen, inputs);
    case 'tuple':
      if (rb.k === 'list') return ra.elems.every((e) => isSubtype(e, rb.elem, seen, inputs));
      return (
        rb.k === 'tuple' &&
        rb.elems.length === ra.elems.length &&
        ra.elems.every((e, i) => isSubtype(e, rb.elems[i]!, seen, inputs))
      );
    case 'map':
      if (rb.k === 'map') return isSubtype(ra.value, rb.value, seen, inputs);
      return (
        rb.k === 'record' && rb.open && rb.fields.every((f) => f.optional) && isSubtype(ra.value, T.json, seen, inputs)
      );
    case 'record': {
      if (rb.k === 'map')
        return (
          (!ra.open || resolve(rb.value).k === 'json') &&
          ra.fields.every((f) => isSubtype(f.type, rb.value, seen, inputs))
        );
      if (rb.k !== 'record') return false;
      if (ra.open && !rb.open) return false;
      for (const fb of rb.fields) {
        const fa = ra.fields.find((f) => f.name === fb.name);
        if (!fa) {
          if (!fieldOmittable(fb)) return false;
          if (ra.open) continue; // an open record may carry it as Json
          continue;
        }
        if (fa.optional && !fb.optional && fb.default === undefined) return false;
        if (inputs && fieldOmittable(fa) && !fieldOmittable(fb)) return false;
        if (!isSubtype(fa.type, fb.type, seen, inputs)) return false;
      }
      if (!rb.open) for (const fa of ra.fields) if (!rb.fields.some((f) => f.name === fa.name)) return false;
      return true;
    }
    default:
      return false;
  }
}

export function litEq(a: string | boolean | bigint | number, b: string | boolean | bigint | number): boolean {
  if (typeof a === 'bigint' && typeof b === 'number') return Number(a) === b;
  if (typeof a === 'number' && typeof b === 'bigint') return a === Number(b);
  return a === b;
}

function showLit(v: string | boolean | bigint | number): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isInteger(v) ? `${v}.0` : String(v);
  return String(v);
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Renders a type as Cleat source (named types print their name). */
export function showType(t: Ty, depth = 0): string {
  if (depth > 6) return '…';
  switch (t.k) {
    case 'never':
      return 'Never';
    case 'null':
      return 'null';
    case 'bool':
      return 'Bool';
    case 'int':
      return 'Int';
    case 'float':
      return 'Float';
    case 'str':
      return 'Str';
    case 'json':
      return 'Json';
    case 'lit':
      return showLit(t.v);
    case 'list':
      return `[${showType(t.elem, depth + 1)}]`;
    case 'tuple':
      return `(${t.elems.map((e) => showType(e, depth + 1)).join(', ')}${t.elems.length === 1 ? ',' : ''})`;
    case 'map':
      return `{ [Str]: ${showType(t.value, depth + 1)} }`;
    case 'record': {
      if (t.name) return t.name;
      const fs = t.fields.map(
        (f) =>
          `${IDENT.test(f.name) ? f.name : JSON.stringify(f.name)}${f.optional ? '?' : ''}: ${showType(f.type, depth + 1)}`,
      );
      if (t.open) fs.push('..');
      return fs.length ? `{ ${fs.join(', ')} }` : '{}';
    }
    case 'union':
      return t.members.map((m) => showType(m, depth + 1)).join(' | ');
    case 'refine':
      return `${showType(t.base, depth + 1)} where …`;
    case 'named':
      return t.cell.name;
  }
}
