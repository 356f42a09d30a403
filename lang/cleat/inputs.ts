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
import { showType, type Ty } from './types.js';
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
export function accepts(v: Value, t: Ty, pred: (t: Extract<Ty, { k: 'refine' }>, v: Value) => boolean): boolean {
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
    let params: unknown;
    try {
      params = JSON.parse(sources.argocdParameters);
    } catch {
      throw new CleatError(CleatCodes.INPUT, 'ARGOCD_APP_PARAMETERS is not valid JSON');
    }
    if (!Array.isArray(params)) throw new CleatError(CleatCodes.INPUT, 'ARGOCD_APP_PARAMETERS must be a JSON array');
    for (const p of params as Record<string, unknown>[]) {
      const name = typeof p?.name === 'string' ? p.name : '';
      const d = known(name, 'Argo CD parameters');
      if (typeof p.string === 'string') out.set(name, setValue(p.string, d.type, pred));
      else if (Array.isArray(p.array))
        out.set(
          name,
          p.array.map((x) => String(x)),
        );
      else if (p.map && typeof p.map === 'object')
        out.set(
          name,
          new ObjectValue(new Map(Object.entries(p.map as Record<string, unknown>).map(([k, v]) => [k, String(v)]))),
        );
    }
  }
  for (const s of sources.sets ?? []) {
    const { name, raw } = parseSet(s);
    const d = known(name, '--set');
    out.set(name, setValue(raw, d.type, pred));
  }
  return out;
}

export function describeInput(d: InputDecl): string {
  return `input \`${d.name}\`: ${showType(d.type)}`;
}
