/**
 * Object building and value patches at run time: deep merge for object
 * literals (§5.1: a key set twice merges when both values are objects, else
 * it is an error) and `e with { ... }` (§5.4: set, `+:` merge, `-` remove,
 * through fields, `[i]` and `[key: value]` selectors). A selector that matches
 * nothing is an error. Values are copied on write; inputs are never mutated.
 */
import type { Span } from '../common/source.js';
import { CleatCodes, CleatError } from './diagnostics.js';
import { joinPath } from './conform.js';
import { isObject, kindOf, ObjectValue, showValue, valueEquals, type Value } from './value.js';

/** Sets `key` in `m` following the duplicate-key rule of object literals. */
export function setMember(m: Map<string, Value>, key: string, v: Value, span: Span, path: string): void {
  const old = m.get(key);
  if (old === undefined) {
    m.set(key, v);
    return;
  }
  if (isObject(old) && isObject(v)) {
    m.set(key, deepMergeStrict(old, v, span, joinPath(path, key)));
    return;
  }
  throw new CleatError(CleatCodes.DUPLICATE_KEY, `duplicate key \`${key}\``, span, joinPath(path, key));
}

function deepMergeStrict(a: ObjectValue, b: ObjectValue, span: Span, path: string): ObjectValue {
  const m = new Map(a.fields);
  for (const [k, v] of b.fields) setMember(m, k, v, span, path);
  return new ObjectValue(m);
}

/** `+:` merge: objects merge deeply (right wins on scalars), lists concatenate. */
function mergeValues(a: Value, b: Value, span: Span, path: string): Value {
  if (isObject(a) && isObject(b)) {
    const m = new Map(a.fields);
    for (const [k, v] of b.fields) {
      const old = m.get(k);
      m.set(k, old === undefined ? v : mergeValues(old, v, span, joinPath(path, k)));
    }
    return new ObjectValue(m);
  }
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (a === null) return b;
  if (kindOf(a) === kindOf(b)) return b;
  throw new CleatError(CleatCodes.TYPE_MISMATCH, `\`+:\` cannot merge ${kindOf(b)} into ${kindOf(a)}`, span, path);
}

export type RuntimeSeg =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: bigint }
  | { kind: 'select'; keys: { name: string; value: Value }[]; text: string };

export type PatchOp = { op: 'set' | 'merge'; value: Value } | { op: 'remove' };

function segText(s: RuntimeSeg): string {
  return s.kind === 'field' ? s.name : s.kind === 'index' ? `[${s.index}]` : s.text;
}

function matchesSelector(v: Value, keys: { name: string; value: Value }[]): boolean {
  if (!isObject(v)) return false;
  return keys.every((k) => {
    const x = v.get(k.name);
    return x !== undefined && valueEquals(x, k.value);
  });
}

/** Applies one patch entry to `v`, returning the new value. */
export function applyPatch(v: Value, segs: RuntimeSeg[], op: PatchOp, span: Span, path = ''): Value {
  const seg = segs[0]!;
  const last = segs.length === 1;
  const finish = (old: Value | undefined, p: string): Value | undefined => {
    if (op.op === 'remove') return undefined;
    if (op.op === 'set' || old === undefined) return op.value;
    return mergeValues(old, op.value, span, p);
  };
  if (seg.kind === 'field') {
    if (v === null && op.op !== 'remove') v = new ObjectValue();
    if (!isObject(v))
      throw new CleatError(
        CleatCodes.TYPE_MISMATCH,
        `cannot patch field \`${seg.name}\` of ${kindOf(v)} ${showValue(v)}`,
        span,
        path,
      );
    const p = joinPath(path, seg.name);
    const m = new Map(v.fields);
    const old = m.get(seg.name);
    if (last) {
      const nv = finish(old, p);
      if (nv === undefined) m.delete(seg.name);
      else m.set(seg.name, nv);
    } else {
      if (old === undefined && op.op === 'remove') return v;
      m.set(seg.name, applyPatch(old ?? new ObjectValue(), segs.slice(1), op, span, p));
    }
    return new ObjectValue(m);
  }
  if (!Array.isArray(v))
    throw new CleatError(
      CleatCodes.TYPE_MISMATCH,
      `selector \`${segText(seg)}\` needs a list, found ${kindOf(v)}`,
      span,
      path,
    );
  const hits: number[] = [];
  if (seg.kind === 'index') {
    const i = Number(seg.index);
    if (seg.index < 0n || i >= v.length)
      throw new CleatError(
        CleatCodes.INDEX,
        `index ${seg.index} is out of bounds for a list of length ${v.length}`,
        span,
        path,
      );
    hits.push(i);
  } else {
    v.forEach((x, i) => {
      if (matchesSelector(x, seg.keys)) hits.push(i);
    });
    if (hits.length === 0)
      throw new CleatError(CleatCodes.SELECTOR_NO_MATCH, `selector \`${seg.text}\` matches no element`, span, path);
  }
  const out: (Value | undefined)[] = [...v];
  for (const i of hits) {
    const p = joinPath(path, i);
    out[i] = last ? finish(v[i], p) : applyPatch(v[i]!, segs.slice(1), op, span, p);
  }
  return out.filter((x): x is Value => x !== undefined);
}
