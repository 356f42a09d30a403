/**
 * Runtime boundary checks (spec §6 "Dynamic", §7 step 4): a value crossing an
 * annotation is checked against the type and completed: defaults filled in,
 * optional nulls dropped, keys ordered (single-literal fields first, then the
 * given fields in source order, then other defaults). Failures throw
 * CleatError naming the value path and the constraint. Predicates and default
 * expressions are evaluated through the injected hooks.
 */
import type { Span } from '../common/source.js';
import { CleatCodes, CleatError, didYouMean } from './diagnostics.js';
import { litEq, resolve, showType, type Field, type Ty } from './types.js';
import { isObject, ObjectValue, showValue, type Value } from './value.js';

export interface ConformHooks {
  /** Evaluates a refinement predicate with `self` (and the alias) bound to the value. */
  predicate(t: Extract<Ty, { k: 'refine' }>, value: Value, path: string): boolean;
  /** Evaluates a field default. */
  fieldDefault(f: Field, path: string): Value;
  /** Where to point errors. */
  span?: Span;
}

export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

/**
 * Value paths are built lazily (a linked list turned into text only when an
 * error is thrown): boundary checks run on every field of every document, and
 * eager path strings dominated export time.
 */
type PathNode = { parent: PathNode | string; key: string | number };
type Path = PathNode | string;

function pathText(p: Path): string {
  if (typeof p === 'string') return p;
  return joinPath(pathText(p.parent), p.key);
}

const sub = (p: Path, key: string | number): PathNode => ({ parent: p, key });

/** Checks `v` against `t` and returns the completed value. */
export function conform(v: Value, t: Ty, path: string, hooks: ConformHooks): Value {
  return conformAt(v, t, path, hooks);
}

function conformAt(v: Value, t: Ty, path: Path, hooks: ConformHooks): Value {
  const r = resolve(t);
  const fail = (constraint: string): never => {
    throw new CleatError(
      CleatCodes.TYPE_MISMATCH,
      `expected ${constraint}, found ${showValue(v)}`,
      hooks.span,
      pathText(path),
    );
  };
  switch (r.k) {
    case 'never':
      return fail('Never (no value fits)');
    case 'json':
      return v;
    case 'null':
      return v === null ? v : fail('null');
    case 'bool':
      return typeof v === 'boolean' ? v : fail('Bool');
    case 'int':
      return typeof v === 'bigint' ? v : fail('Int');
    case 'float':
      if (typeof v === 'number') return v;
      if (typeof v === 'bigint') return Number(v);
      return fail('Float');
    case 'str':
      return typeof v === 'string' ? v : fail('Str');
    case 'lit': {
      const ok =
        (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint' || typeof v === 'number') &&
        litEq(v, r.v) &&
        (typeof r.v !== 'bigint' || typeof v === 'bigint');
      return ok ? v : fail(showType(r));
    }
    case 'list':
      if (!Array.isArray(v)) return fail(showType(t));
      return v.map((x, i) => conformAt(x, r.elem, sub(path, i), hooks));
    case 'tuple':
      if (!Array.isArray(v) || v.length !== r.elems.length) return fail(showType(t));
      return v.map((x, i) => conformAt(x, r.elems[i]!, sub(path, i), hooks));
    case 'map': {
      if (!isObject(v)) return fail(showType(t));
      const out = new Map<string, Value>();
      for (const [k, x] of v.fields) out.set(k, conformAt(x, r.value, sub(path, k), hooks));
      return new ObjectValue(out);
    }
    case 'record':
      return conformRecord(v, r, t, path, hooks);
    case 'union':
      return conformUnion(v, r.members, t, path, hooks);
    case 'refine': {
      const base = conformAt(v, r.base, path, hooks);
      if (!hooks.predicate(r, base, pathText(path))) {
        const src = r.pred.span.file.text.slice(r.pred.span.start, r.pred.span.end);
        throw new CleatError(
          CleatCodes.REFINEMENT,
          `value ${showValue(base)} does not satisfy \`where ${src}\``,
          hooks.span ?? r.pred.span,
          pathText(path),
        );
      }
      return base;
    }
    case 'named':
      return fail(showType(t));
  }
}

const fieldIndex = new WeakMap<object, Map<string, Field>>();

function conformRecord(v: Value, r: Extract<Ty, { k: 'record' }>, t: Ty, path: Path, hooks: ConformHooks): Value {
  if (!isObject(v)) {
    throw new CleatError(
      CleatCodes.TYPE_MISMATCH,
      `expected ${showType(t)}, found ${showValue(v)}`,
      hooks.span,
      pathText(path),
    );
  }
  let byName = fieldIndex.get(r);
  if (!byName) fieldIndex.set(r, (byName = new Map(r.fields.map((f) => [f.name, f]))));
  for (const k of v.fields.keys()) {
    if (!byName.has(k) && !r.open) {
      throw new CleatError(
        CleatCodes.UNKNOWN_FIELD,
        `unknown field \`${k}\` in ${showType(t)}${didYouMean(k, byName.keys())}`,
        hooks.span,
        joinPath(pathText(path), k),
      );
    }
  }
  const literalFirst = new Map<string, Value>();
  const given = new Map<string, Value>();
  const defaults = new Map<string, Value>();
  for (const f of r.fields) {
    const fp = sub(path, f.name);
    const present = v.fields.get(f.name);
    const ft = resolve(f.type);
    if (present === undefined || (present === null && (f.optional || f.default !== undefined) && ft.k !== 'null')) {
      if (f.default !== undefined)
        defaults.set(f.name, conformAt(hooks.fieldDefault(f, pathText(fp)), f.type, fp, hooks));
      else if (ft.k === 'lit') literalFirst.set(f.name, ft.v);
      else if (!f.optional) {
        throw new CleatError(
          CleatCodes.MISSING_FIELD,
          `missing required field \`${f.name}\` of type ${showType(f.type)}`,
          hooks.span,
          pathText(fp),
        );
      }
      continue;
    }
    // A literal field the caller wrote stays in source order; only filled-in literals go first.
    given.set(f.name, conformAt(present, f.type, fp, hooks));
  }
  const out = new Map<string, Value>(literalFirst);
  for (const [k, x] of v.fields) {
    if (out.has(k)) continue;
    if (given.has(k)) out.set(k, given.get(k)!);
    else if (!byName.has(k)) out.set(k, x); // open record: extra Json
  }
  for (const [k, x] of defaults) out.set(k, x);
  return new ObjectValue(out);
}

function conformUnion(v: Value, ms: Ty[], t: Ty, path: Path, hooks: ConformHooks): Value {
  let best: CleatError | undefined;
  let bestScore = -1;
  for (const m of ms) {
    try {
      return conformAt(v, m, path, hooks);
    } catch (e) {
      if (!(e instanceof CleatError)) throw e;
      // The member that got furthest explains the failure best (a discriminated
      // member whose `kind` matched fails deep inside, the others at the top).
      const score = (e.path ?? '').length + (e.code === CleatCodes.REFINEMENT ? 0.5 : 0);
      if (score > bestScore) {
        best = e;
        bestScore = score;
      }
    }
  }
  const here = pathText(path);
  if (best && (best.path ?? '') !== here) throw best;
  throw new CleatError(
    CleatCodes.TYPE_MISMATCH,
    `expected ${showType(resolve(t))}, found ${showValue(v)}`,
    hooks.span,
    here,
  );
}
