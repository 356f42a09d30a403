/**
 * Narrowing record types with `T with { ... }` and `refine T with { ... }`
 * (spec §4.2). Paths go through records, optional (T | null) members, named
 * types and `[]` (list elements / map values). `with` only narrows: a
 * replacement must be a subtype of the original, only optional fields can be
 * removed, required/optional status is kept, and an open record may gain a
 * field. The result is a new type; shared named cells are never modified here.
 */
import type { Expr, PathSeg, TypeWithEntry } from './ast.js';
import { didYouMean } from './diagnostics.js';
import { isSubtype, resolve, showType, T, union, type Field, type Ty } from './types.js';

export interface WithEntryResolved {
  entry: TypeWithEntry;
  /** For `replace`: the resolved replacement type. */
  type?: Ty;
}

/** Applies the entries in order; errors are reported through `report` with the entry they concern. */
export function applyTypeWith(
  base: Ty,
  entries: WithEntryResolved[],
  report: (entry: TypeWithEntry, message: string) => void,
  scope?: unknown,
): Ty {
  let t = base;
  for (const e of entries) {
    try {
      t = applyOne(t, e.entry.path, 0, e, scope);
    } catch (err) {
      if (!(err instanceof WithError)) throw err;
      report(e.entry, err.message);
    }
  }
  return t;
}

class WithError extends Error {}

function pathText(path: PathSeg[], upto: number): string {
  return path
    .slice(0, upto + 1)
    .map((s, i) => (s.kind === 'field' ? `${i ? '.' : ''}${s.name}` : '[]'))
    .join('');
}

function applyOne(t: Ty, path: PathSeg[], i: number, e: WithEntryResolved, scope: unknown): Ty {
  const r0 = resolve(t);
  // A narrowed copy of a named record keeps the name for messages.
  const r = t.k === 'named' && r0.k === 'record' && !r0.name ? { ...r0, name: t.cell.name } : r0;
  if (r.k === 'union') {
    // Optional values: descend into the non-null members.
    const nonNull = r.members.filter((m) => resolve(m).k !== 'null');
    if (nonNull.length === 1) return union([applyOne(nonNull[0]!, path, i, e, scope), T.null]);
    throw new WithError(`cannot go through the union ${showType(t)} at \`${pathText(path, i - 1)}\``);
  }
  if (r.k === 'refine') return { ...r, base: applyOne(r.base, path, i, e, scope) };
  const seg = path[i]!;
  const last = i === path.length - 1;
  if (seg.kind === 'each') {
    if (r.k === 'list')
      return T.list(last ? leaf(r.elem, e, undefined, path, i, scope) : applyOne(r.elem, path, i + 1, e, scope));
    if (r.k === 'map')
      return T.map(last ? leaf(r.value, e, undefined, path, i, scope) : applyOne(r.value, path, i + 1, e, scope));
    throw new WithError(`\`[]\` needs a list or map, found ${showType(t)} at \`${pathText(path, i)}\``);
  }
  if (seg.kind !== 'field') throw new WithError('type refinements take field names and `[]` only');
  if (r.k !== 'record') throw new WithError(`\`${pathText(path, i)}\`: ${showType(t)} has no fields`);
  const idx = r.fields.findIndex((f) => f.name === seg.name);
  if (idx < 0) {
    if (last && r.open && e.entry.kind === 'replace' && e.type) {
      const f: Field = { name: seg.name, type: e.type, optional: true };
      if (e.entry.default) f.default = { expr: e.entry.default, scope };
      return { ...r, fields: [...r.fields, f] };
    }
    throw new WithError(
      `unknown field \`${pathText(path, i)}\`${didYouMean(
        seg.name,
        r.fields.map((f) => f.name),
      )}`,
    );
  }
  const f = r.fields[idx]!;
  let nf: Field | undefined;
  if (last) {
    if (e.entry.kind === 'remove') {
      if (!f.optional) throw new WithError(`cannot remove the required field \`${pathText(path, i)}\``);
      nf = undefined;
    } else nf = { ...f, type: leaf(f.type, e, f.name, path, i, scope) };
    if (nf && e.entry.kind === 'replace' && e.entry.default) nf.default = { expr: e.entry.default, scope };
  } else nf = { ...f, type: applyOne(f.type, path, i + 1, e, scope) };
  const fields = [...r.fields];
  if (nf) fields[idx] = nf;
  else fields.splice(idx, 1);
  return { ...r, fields };
}

function leaf(
  old: Ty,
  e: WithEntryResolved,
  alias: string | undefined,
  path: PathSeg[],
  i: number,
  scope: unknown,
): Ty {
  const entry = e.entry;
  if (entry.kind === 'predicate') return refineWith(old, entry.pred, alias, scope);
  if (entry.kind === 'replace') {
    const nt = e.type!;
    if (!isSubtype(nt, old))
      throw new WithError(
        `\`${pathText(path, i)}\`: ${showType(nt)} is not a subtype of ${showType(old)}; \`with\` only narrows`,
      );
    return nt;
  }
  throw new WithError('`[]` elements cannot be removed');
}

function refineWith(t: Ty, pred: Expr, alias: string | undefined, scope: unknown): Ty {
  const r = resolve(t);
  // A predicate on an optional field constrains the value when it is present.
  if (r.k === 'union' && r.members.some((m) => resolve(m).k === 'null')) {
    const nonNull = r.members.filter((m) => resolve(m).k !== 'null');
    return union([{ k: 'refine', base: union(nonNull), pred, ...(alias ? { alias } : {}), scope }, T.null]);
  }
  return { k: 'refine', base: t, pred, ...(alias ? { alias } : {}), scope };
}
