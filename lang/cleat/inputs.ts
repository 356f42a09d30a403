/**
 * Inputs (spec §8), decoded before evaluation: values from input files
 * (objects of inputs, later files win), `--set k=v` (string-first: if the
 * type accepts the raw string it is that string, otherwise the text is read
 * as JSON), and Argo CD parameters (ARGOCD_APP_PARAMETERS JSON, passed in as
 * text). A missing input without default, an unknown input, or a value that
 * does not fit is an error naming the input and its expected type.
 */
import type { InputDecl } from './program-types.js';
import { conform } from './conform.js';
import { decodeValue } from './decode.js';
import { CleatCodes, CleatError, didYouMean } from './diagnostics.js';
import { baseOf, type Ty } from './types.js';
import { isObject, ObjectValue, type Value } from './value.js';

export interface InputSources {
  /** Decoded `--input` files in order (each an object of inputs). */
  files?: { name: string; value: Value }[];
  /** `--set name=value` arguments in order. */
  sets?: string[];
  /** The text of ARGOCD_APP_PARAMETERS (read by the caller). */
  argocdParameters?: string;
}

/** Does `t` accept `v`, with refinements evaluated by `pred`? */
function accepts(v: Value, t: Ty, pred: (t: Extract<Ty, { k: 'refine' }>, v: Value) => boolean): boolean {
  try {
    conform(v, t, '', { predicate: pred, fieldDefault: () => null });
    return true;
  } catch (e) {
    if (e instanceof CleatError) return false;
    throw e;
  }
}

/** The `--set` rule: the raw string if the type accepts it, else the text read as JSON (or the string, to fail with a clear message). */
export function setValue(raw: string, t: Ty, pred: (t: Extract<Ty, { k: 'refine' }>, v: Value) => boolean): Value {
  if (accepts(raw, t, pred)) return raw;
  try {
    return decodeValue(raw, 'json');
  } catch {
    return raw;
  }
}

/** Splits `name=value` (the value may contain `=`). */
export function parseSet(arg: string): { name: string; raw: string } {
  const i = arg.indexOf('=');
  if (i <= 0) throw new CleatError(CleatCodes.INPUT, `--set expects name=value, found ${JSON.stringify(arg)}`);
  return { name: arg.slice(0, i), raw: arg.slice(i + 1) };
}

/** Raw (unchecked) input values from every source, later sources winning. */
export function collectInputs(
  decls: Map<string, InputDecl>,
  sources: InputSources,
  pred: (t: Extract<Ty, { k: 'refine' }>, v: Value) => boolean,
): Map<string, Value> {
  const out = new Map<string, Value>();
  const known = (name: string, where: string): InputDecl => {
    const d = decls.get(name);
    if (!d)
      throw new CleatError(
        CleatCodes.INPUT,
        `unknown input \`${name}\` (from ${where})${didYouMean(name, decls.keys())}`,
        undefined,
        name,
      );
    return d;
  };
  for (const f of sources.files ?? []) {
    if (!isObject(f.value))
      throw new CleatError(CleatCodes.INPUT, `input file ${f.name} must hold an object of inputs`);
    for (const [k, v] of f.value.fields) {
      known(k, f.name);
      out.set(k, v);
    }
  }
  if (sources.argocdParameters !== undefined) {
    for (const p of argocdParameterList(sources.argocdParameters)) {
      const d = known(p.name, 'Argo CD parameters');
      out.set(p.name, argocdValue(p, d, pred));
    }
  }
  for (const s of sources.sets ?? []) {
    const { name, raw } = parseSet(s);
    const d = known(name, '--set');
    out.set(name, setValue(raw, d.type, pred));
  }
  return out;
}

/** One entry of ARGOCD_APP_PARAMETERS: `{name, string}`, `{name, array}` or `{name, map}`, values as strings. */
type ArgocdParameter =
  { name: string; string: string } | { name: string; array: string[] } | { name: string; map: [string, string][] };

function argocdParameterList(text: string): ArgocdParameter[] {
  let params: unknown;
  try {
    params = JSON.parse(text);
  } catch {
    throw new CleatError(CleatCodes.INPUT, 'ARGOCD_APP_PARAMETERS is not valid JSON');
  }
  if (!Array.isArray(params)) throw new CleatError(CleatCodes.INPUT, 'ARGOCD_APP_PARAMETERS must be a JSON array');
  return params.map((p: unknown, i): ArgocdParameter => {
    const where = `ARGOCD_APP_PARAMETERS[${i}]`;
    if (p === null || typeof p !== 'object' || Array.isArray(p))
      throw new CleatError(CleatCodes.INPUT, `${where} must be an object {name, string|array|map}`);
    const o = p as Record<string, unknown>;
    if (typeof o.name !== 'string' || o.name === '') throw new CleatError(CleatCodes.INPUT, `${where} has no name`);
    const name = o.name;
    const bad = (what: string): CleatError =>
      new CleatError(CleatCodes.INPUT, `Argo CD parameter \`${name}\`: ${what}`, undefined, name);
    if (typeof o.string === 'string') return { name, string: o.string };
    if (Array.isArray(o.array)) {
      if (!o.array.every((x) => typeof x === 'string')) throw bad('array items must be strings');
      return { name, array: o.array };
    }
    if (o.map !== null && typeof o.map === 'object' && !Array.isArray(o.map)) {
      const entries = Object.entries(o.map as Record<string, unknown>);
      if (!entries.every(([, v]) => typeof v === 'string')) throw bad('map values must be strings');
      return { name, map: entries as [string, string][] };
    }
    throw bad('expected a string, array or map value');
  });
}

/**
 * Argo CD passes every value as a string: a string parameter follows the
 * `--set` rule against the input's type, and so does each array item (against
 * the element type) and each map value (against the value or field type).
 */
function argocdValue(
  p: ArgocdParameter,
  d: InputDecl,
  pred: (t: Extract<Ty, { k: 'refine' }>, v: Value) => boolean,
): Value {
  if ('string' in p) return setValue(p.string, d.type, pred);
  const t = baseOf(d.type);
  if ('array' in p) {
    return p.array.map((raw, i) => {
      const elem = argocdItemType(t, i);
      return elem ? setValue(raw, elem, pred) : raw;
    });
  }
  const fields = new Map<string, Value>();
  for (const [k, raw] of p.map) {
    const vt = argocdItemType(t, k);
    fields.set(k, vt ? setValue(raw, vt, pred) : raw);
  }
  return new ObjectValue(fields);
}

/** The type an array item (by index) or map value (by key) of an Argo CD parameter is read against. */
export function argocdItemType(base: Ty, key: number | string): Ty | undefined {
  if (typeof key === 'number') return base.k === 'list' ? base.elem : base.k === 'tuple' ? base.elems[key] : undefined;
  if (base.k === 'map') return base.value;
  return base.k === 'record' ? base.fields.find((f) => f.name === key)?.type : undefined;
}
