/**
 * Relations between types used by the checker: static assignability (subtyping
 * with Json accepted where a narrower type is expected, checked at run time,
 * and refinements left to VCs), overlap for match narrowing, union expansion
 * for exhaustiveness, and the structural updates of anonymous `with` patches.
 */
import { baseOf, fieldOmittable, isSubtype, litEq, members, resolve, T, union, type Ty } from './types.js';

/** Assignability for static checks: subtyping, with Json accepted anywhere (checked at run time) and refinements left to VCs. */
export function assignable(a: Ty, b: Ty): boolean {
  return isSubtype(stripForCheck(a), stripForCheck(b)) || (containsJson(a) && shapeCompatible(a, b));
}

function stripForCheck(t: Ty): Ty {
  const r = resolve(t);
  if (r.k === 'refine') return stripForCheck(r.base);
  if (r.k === 'union') return union(r.members.map(stripForCheck));
  if (r.k === 'list') return T.list(stripForCheck(r.elem));
  if (r.k === 'map') return T.map(stripForCheck(r.value));
  if (r.k === 'tuple') return T.tuple(r.elems.map(stripForCheck));
  if (r.k === 'record' && t.k !== 'named')
    return { ...r, fields: r.fields.map((f) => ({ ...f, type: stripForCheck(f.type) })) };
  if (r.k === 'record') return stripNamedRecord(t, r);
  return t;
}

const stripCache = new WeakMap<object, Ty>();
function stripNamedRecord(t: Ty, r: Ty & { k: 'record' }): Ty {
  // Named (schema) records are compared by their refinement-free shape; cache per resolved record.
  const hit = stripCache.get(r);
  if (hit) return hit;
  const hasRefine = r.fields.some(
    (f) =>
      resolve(f.type).k === 'refine' ||
      (resolve(f.type).k === 'union' && members(f.type).some((m) => resolve(m).k === 'refine')),
  );
  if (!hasRefine) return t;
  const out: Ty = { ...r, fields: r.fields.map((f) => ({ ...f, type: stripForCheck(f.type) })) };
  stripCache.set(r, out);
  return out;
}

function containsJson(t: Ty): boolean {
  const r = resolve(t);
  if (r.k === 'json') return true;
  if (r.k === 'union') return r.members.some(containsJson);
  if (r.k === 'list') return containsJson(r.elem);
  if (r.k === 'map') return containsJson(r.value);
  if (r.k === 'record') return r.open || r.fields.some((f) => containsJson(f.type));
  if (r.k === 'tuple') return r.elems.some(containsJson);
  return false;
}

/** With Json inside `a`, accept when the outer shapes agree (Json parts are checked at run time). */
function shapeCompatible(a: Ty, b: Ty): boolean {
  const ra = baseOf(a);
  const rb = baseOf(b);
  if (ra.k === 'json' || rb.k === 'json') return true;
  if (ra.k === 'union')
    return ra.members.every((m) => shapeCompatible(m, b) || isSubtype(stripForCheck(m), stripForCheck(b)));
  if (rb.k === 'union') return rb.members.some((m) => shapeCompatible(a, m));
  if (ra.k === 'list' && rb.k === 'list')
    return shapeCompatible(ra.elem, rb.elem) || isSubtype(stripForCheck(ra.elem), stripForCheck(rb.elem));
  if (ra.k === 'map' && (rb.k === 'map' || rb.k === 'record')) return true;
  if (ra.k === 'record' && (rb.k === 'record' || rb.k === 'map')) {
    if (rb.k === 'map') return true;
    return (
      ra.fields.every((f) => {
        const g = rb.fields.find((x) => x.name === f.name);
        if (!g) return rb.open;
        return isSubtype(stripForCheck(f.type), stripForCheck(g.type)) || shapeCompatible(f.type, g.type);
      }) && rb.fields.every((g) => fieldOmittable(g) || ra.fields.some((f) => f.name === g.name))
    );
  }
  return isSubtype(stripForCheck(ra), stripForCheck(rb));
}

/** Union members, with Bool split into true and false (for exhaustiveness). */
export function expand(t: Ty): Ty[] {
  return members(t).flatMap((m) => {
    const r = resolve(m);
    if (r.k === 'bool') return [T.lit(true), T.lit(false)];
    if (r.k === 'never') return [];
    return [m];
  });
}

export function isInfinite(t: Ty): boolean {
  const r = baseOf(t);
  return r.k === 'str' || r.k === 'int' || r.k === 'float' || r.k === 'json' || r.k === 'list' || r.k === 'map';
}

/** Could a value belong to both types? Records conflict when a shared field has different literals. */
export function overlaps(a: Ty, b: Ty): boolean {
  if (isSubtype(a, b) || isSubtype(b, a)) return true;
  const ra = baseOf(a);
  const rb = baseOf(b);
  if (ra.k === 'json' || rb.k === 'json') return true;
  if (rb.k === 'union') return rb.members.some((m) => overlaps(a, m));
  if (ra.k === 'union') return ra.members.some((m) => overlaps(m, b));
  if (ra.k === 'record' && rb.k === 'record') {
    for (const f of ra.fields) {
      const g = rb.fields.find((x) => x.name === f.name);
      if (!g) {
        if (!rb.open && !f.optional) return false;
        continue;
      }
      const fa = baseOf(f.type);
      const fb = baseOf(g.type);
      if (fa.k === 'lit' && fb.k === 'lit' && !litEq(fa.v, fb.v)) return false;
    }
    return true;
  }
  const kindOfTy = (r: Ty): string =>
    r.k === 'lit'
      ? typeof r.v === 'string'
        ? 'str'
        : typeof r.v === 'boolean'
          ? 'bool'
          : 'float'
      : r.k === 'int'
        ? 'float'
        : r.k === 'tuple'
          ? 'list'
          : r.k === 'map'
            ? 'record'
            : r.k;
  return kindOfTy(ra) === kindOfTy(rb);
}

export function widenScalar(t: Ty): Ty {
  const r = resolve(t);
  if (r.k !== 'lit') return t;
  if (typeof r.v === 'string') return T.str;
  if (typeof r.v === 'boolean') return T.bool;
  if (typeof r.v === 'bigint') return T.int;
  return T.float;
}

export function mergeRecordTypes(a: Ty & { k: 'record' }, b: Ty & { k: 'record' }): Ty {
  const fields = [...a.fields];
  for (const f of b.fields) {
    const i = fields.findIndex((x) => x.name === f.name);
    if (i < 0) fields.push(f);
    else {
      const x = baseOf(fields[i]!.type);
      const y = baseOf(f.type);
      fields[i] = { ...f, type: x.k === 'record' && y.k === 'record' ? mergeRecordTypes(x, y) : f.type };
    }
  }
  return T.record(fields, a.open || b.open);
}

export function isDeclared(t: Ty): boolean {
  if (t.k === 'named') return true;
  const r = resolve(t);
  if (r.k === 'list') return isDeclared(r.elem);
  if (r.k === 'union') return r.members.some(isDeclared);
  if (r.k === 'tuple') return r.elems.some(isDeclared);
  return false;
}

export function replaceFieldType(t: Ty, path: string[], v: Ty): Ty {
  const r = resolve(t);
  if (r.k !== 'record' || path.length === 0) return path.length === 0 ? v : t;
  const [head, ...rest] = path;
  const i = r.fields.findIndex((f) => f.name === head);
  const fields = [...r.fields];
  if (i < 0)
    fields.push({ name: head!, type: rest.length ? replaceFieldType(T.record([]), rest, v) : v, optional: false });
  else fields[i] = { ...fields[i]!, type: replaceFieldType(fields[i]!.type, rest, v) };
  return T.record(fields, r.open);
}

export function nonNull(t: Ty): Ty {
  const r = resolve(t);
  if (r.k !== 'union') return t;
  return union(r.members.filter((m) => baseOf(m).k !== 'null'));
}
