/**
 * ytt `#@schema/validation` keyword arguments → KCL check: items. Carried:
 * min_len, max_len, min, max, one_of, and not_null (read from the annotation
 * text, as ytt's OpenAPI output does not carry it); anything else is named
 * back so the converter can warn about it.
 */
import { evaluateKcl, memoryHost, toPlain as kclPlain } from '../kcl/index.js';
import { kclString } from './kcl-write.js';

/** The keyword arguments of a `#@schema/validation` annotation, as written (`min_len=1, one_of=["a", "b"]`). */
export function validationKwargs(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let depth = 0;
  let cur = '';
  const parts: string[] = [];
  for (const ch of text) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  for (const p of parts) {
    const m = /^\s*([A-Za-z_]\w*)\s*=\s*([\s\S]*?)\s*$/.exec(p);
    if (m) out.set(m[1]!, m[2]!);
    else if (p.trim() !== '') out.set(`#${out.size}`, p.trim());
  }
  return out;
}

const CARRIED = new Set(['min_len', 'max_len', 'min', 'max', 'one_of', 'not_null']);

/** check: items for one attribute; undefined names what has no KCL counterpart. */
export function checksOf(
  attr: string,
  path: string,
  text: string,
): { checks: string[]; uncarried: string[]; demands: boolean } {
  const checks: string[] = [];
  const uncarried: string[] = [];
  let demands = false;
  for (const [k, v] of validationKwargs(text)) {
    if (!CARRIED.has(k)) {
      uncarried.push(k.startsWith('#') ? v : `${k}=${v}`);
      continue;
    }
    const n = Number(v);
    if (k === 'min_len') {
      checks.push(
        `len(${attr}) >= ${v}, ${kclString(n === 1 ? `${path} must not be empty` : `${path} must be at least ${v} long`)}`,
      );
      if (n >= 1) demands = true;
    }
    if (k === 'max_len') checks.push(`len(${attr}) <= ${v}, ${kclString(`${path} must be at most ${v} long`)}`);
    if (k === 'min') checks.push(`${attr} >= ${v}, ${kclString(`${path} must be at least ${v}`)}`);
    if (k === 'max') checks.push(`${attr} <= ${v}, ${kclString(`${path} must be at most ${v}`)}`);
    if (k === 'one_of') checks.push(`${attr} in ${v}, ${kclString(`${path} must be one of ${v}`)}`);
    if (k === 'not_null' && v === 'True') checks.push(`${attr} != None, ${kclString(`${path} must not be null`)}`);
  }
  return { checks, uncarried, demands };
}

/**
 * Whether a default satisfies the checks written for it: KCL runs a check at
 * every instantiation, ytt validated the final values once, so a default that
 * fails its own check has to become an absent value (docs/myks.md).
 */
export function defaultSatisfies(literal: string, text: string): boolean {
  const { checks } = checksOf('_v', '', text);
  if (checks.length === 0) return true;
  const conds = checks.map((c) => c.slice(0, c.lastIndexOf(', "')));
  try {
    const r = evaluateKcl(memoryHost({ '/c/main.k': `_v = ${literal}\nok = [${conds.join(', ')}]\n` }), {
      paths: ['/c/main.k'],
    });
    const ok = kclPlain(r.value.map.get('ok') ?? null) as unknown[];
    return ok.every((x) => x === true);
  } catch {
    return false;
  }
}
