/**
 * An input's default as Argo CD announces it (the `string`, `array` or `map`
 * of a parameter announcement), so the UI shows what the plugin will use when
 * the Application sets nothing. Argo CD passes values back as strings, read
 * with the `--set` rule (inputs.ts): a default is announced only when its
 * text reads back as exactly the same value, else it is left out (a union
 * `Str | Int` with default 2 would come back as the string "2").
 */
import type { ModuleCtx } from './context.js';
import { CleatError } from './diagnostics.js';
import type { Evaluator } from './evaluator.js';
import { argocdItemType, setValue } from './inputs.js';
import { toJsonText } from './serialize.js';
import { baseOf, type Ty } from './types.js';
import { isObject, valueEquals, type Value } from './value.js';

export type AnnouncedDefault = { string: string } | { array: string[] } | { map: [string, string][] };

type Predicate = (t: Extract<Ty, { k: 'refine' }>, v: Value) => boolean;

/** The text Argo CD would pass for `v`, when it reads back as `v` against `t`. */
function asParameterText(v: Value, t: Ty | undefined, pred: Predicate): string | undefined {
  const text = typeof v === 'string' ? v : toJsonText(v, 0);
  // Without a type (an open record's extra key), the raw string is what the input gets.
  if (t === undefined) return typeof v === 'string' ? text : undefined;
  try {
    return valueEquals(setValue(text, t, pred), v) ? text : undefined;
  } catch (e) {
    if (e instanceof CleatError) return undefined;
    throw e;
  }
}

/**
 * The default of the input `name` of `entry`, evaluated and checked against
 * its type, as an announcement; undefined when there is none, it fails, or it
 * cannot be written as parameter text.
 */
export function announcedDefault(
  entry: ModuleCtx,
  ev: Evaluator,
  pred: Predicate,
  name: string,
  collection: 'string' | 'array' | 'map',
): AnnouncedDefault | undefined {
  const g = entry.globals.get(name);
  if (g?.kind !== 'input' || !g.decl.default) return undefined;
  const env = { ctx: entry, vars: undefined };
  let v: Value;
  try {
    v = ev.conformAt(ev.eval(g.decl.default, env), g.type, g.decl.span, name, env);
  } catch (e) {
    if (e instanceof CleatError) return undefined;
    throw e;
  }
  if (collection === 'string') {
    const text = asParameterText(v, g.type, pred);
    return text === undefined ? undefined : { string: text };
  }
  const t = baseOf(g.type);
  if (collection === 'array') {
    if (!Array.isArray(v)) return undefined;
    const items = v.map((x, i) => asParameterText(x, argocdItemType(t, i), pred));
    return items.every((x) => x !== undefined) ? { array: items } : undefined;
  }
  if (!isObject(v)) return undefined;
  const entries: [string, string][] = [];
  for (const [k, x] of v.fields) {
    const text = asParameterText(x, argocdItemType(t, k), pred);
    if (text === undefined) return undefined;
    entries.push([k, text]);
  }
  return { map: entries };
}
