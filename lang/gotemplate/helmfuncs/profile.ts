/**
 * Helm's template function profile: Sprig plus toYaml, fromYaml,
 * fromYamlArray, toJson, fromJson, fromJsonArray, toToml, include (Helm's
 * 1000-per-name recursion limit and message), tpl, required, fail (Helm's
 * wrapped messages; see helmErrorMessage), and lookup (always an empty map:
 * there is no cluster). YAML input is read as YAML 1.1 (go-yaml v2) with an
 * explicit alias cap; all numbers from YAML/JSON become float64 as
 * sigs.k8s.io/yaml's JSON round trip makes them.
 */

import { parse as parseYaml, type Tags } from 'yaml';
import { FuncError, TemplateError } from '../errors.js';
import { type FuncContext, type FuncDef, FunctionProfile, def, pure } from '../function.js';
import { marshalJson, unmarshalInto } from '../sprig/encoding.js';
import { sprigFuncs, sprigWithheld, withheldMessages } from '../sprig/profile.js';
import { goFloat, isMap, kindOf, mapSet } from '../value.js';
import { marshalYaml } from './yaml-emit.js';
import { marshalToml } from './toml.js';

/** Helm's per-name include depth limit (pkg/engine recursionMaxNums). */
export const INCLUDE_RECURSION_MAX = 1000;
/** Alias expansions allowed when reading YAML (hazard 13). */
const YAML_MAX_ALIAS_COUNT = 50;

const WARN_START = 'HELM_ERR_START';
const WARN_END = 'HELM_ERR_END';

function warnWrap(msg: string): string {
  return WARN_START + msg + WARN_END;
}

/** JS value from the YAML library → Go value after sigs.k8s.io/yaml's JSON round trip. */
function fromYamlValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'bigint') return goFloat(Number(v));
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString().replace('.000Z', 'Z');
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(fromYamlValue);
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) mapSet(out, keyString(k), fromYamlValue(x));
    return out;
  }
  if (v instanceof Set) return [...v].map(fromYamlValue);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) mapSet(out, k, fromYamlValue(x));
    return out;
  }
  return null;
}

function keyString(k: unknown): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'number' || typeof k === 'boolean' || typeof k === 'bigint') return String(k);
  if (k === null) return 'null';
  return JSON.stringify(k);
}

/**
 * go-yaml v2 keeps timestamp-looking scalars as strings when decoding into
 * interface{}, and has no YAML 1.1 sexagesimal numbers: drop those tags.
 */
export function goYamlTags(tags: Tags): Tags {
  return tags.filter((t) => typeof t === 'string' || (t.tag !== 'tag:yaml.org,2002:timestamp' && t.format !== 'TIME'));
}

/** Parses one YAML document as Helm reads values and fromYaml input. Throws with a go-yaml-like message. */
export function readYaml(text: string): unknown {
  try {
    const v = parseYaml(text, {
      version: '1.1',
      customTags: goYamlTags,
      maxAliasCount: YAML_MAX_ALIAS_COUNT,
      prettyErrors: false,
      mapAsMap: true,
      uniqueKeys: false,
      intAsBigInt: false,
    });
    return fromYamlValue(v);
  } catch (e) {
    const err = e as { message: string; linePos?: [{ line: number }] };
    const line = err.linePos?.[0]?.line;
    const msg = String(err.message)
      .split('\n')[0]!
      .replace(/ at line \d+, column \d+:?$/, '');
    throw new Error(`error converting YAML to JSON: yaml: ${line !== undefined ? `line ${line}: ` : ''}${msg}`);
  }
}

function toYaml(v: unknown): string {
  try {
    return marshalYaml(v).replace(/\n$/, '');
  } catch {
    return '';
  }
}

function fromYaml(s: string): Record<string, unknown> {
  try {
    const v = readYaml(s);
    if (v === null) return {};
    if (!isMap(v))
      throw new Error(
        `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${Array.isArray(v) ? 'array' : kindOf(v) === 'string' ? 'string' : 'number'} into Go value of type map[string]interface {}`,
      );
    return v;
  } catch (e) {
    return { Error: (e as Error).message };
  }
}

function fromYamlArray(s: string): unknown[] {
  try {
    const v = readYaml(s);
    if (v === null) return [];
    if (!Array.isArray(v))
      throw new Error(
        `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${isMap(v) ? 'object' : 'string'} into Go value of type []interface {}`,
      );
    return v;
  } catch (e) {
    return [(e as Error).message];
  }
}

function include(ctx: FuncContext, name: string, data: unknown): string {
  const counts = (ctx.scratch.get('helm.include') as Map<string, number> | undefined) ?? new Map<string, number>();
  ctx.scratch.set('helm.include', counts);
  const n = counts.get(name) ?? 0;
  if (n > INCLUDE_RECURSION_MAX)
    throw new FuncError(
      `rendering template has a nested reference name: ${name}: unable to execute template`,
      'TPL_LIMIT',
    );
  counts.set(name, n + 1);
  try {
    return ctx.executeTemplate(name, data === null ? undefined : data);
  } catch (e) {
    // The JS stack can run out before Helm's count does; report it as the same recursion limit.
    if (
      e instanceof RangeError ||
      (e instanceof FuncError && e.code === 'TPL_LIMIT' && e.message.startsWith('exceeded maximum template depth'))
    )
      throw new FuncError(
        `rendering template has a nested reference name: ${name}: unable to execute template`,
        'TPL_LIMIT',
      );
    throw e;
  } finally {
    counts.set(name, (counts.get(name) ?? 1) - 1);
  }
}

function tpl(ctx: FuncContext, text: string, data: unknown): string {
  let out: string;
  try {
    out = ctx.executeText(ctx.templateName, text, data === null ? undefined : data);
  } catch (e) {
    if (e instanceof TemplateError && e.code === 'TPL_LIMIT') throw e;
    const phase =
      e instanceof TemplateError && e.code === 'TPL_PARSE'
        ? 'cannot parse template'
        : 'error during tpl function execution for';
    throw new FuncError(
      `${phase} ${JSON.stringify(text)}: ${(e as Error).message}`,
      e instanceof TemplateError ? e.code : 'TPL_EXEC',
    );
  }
  return out.replaceAll('<no value>', '');
}

function required(warn: string, val: unknown): unknown {
  if (val === null || val === undefined || val === '') throw new Error(warnWrap(warn));
  return val;
}

function toJsonHelm(v: unknown): string {
  try {
    return marshalJson(v, { escapeHTML: true });
  } catch {
    return '';
  }
}

function fromJsonHelm(s: string): Record<string, unknown> {
  try {
    return unmarshalInto(s, 'map') as Record<string, unknown>;
  } catch (e) {
    return { Error: (e as Error).message };
  }
}

function fromJsonArrayHelm(s: string): unknown[] {
  try {
    return unmarshalInto(s, 'slice') as unknown[];
  } catch (e) {
    return [(e as Error).message];
  }
}

const helmFuncs: Record<string, FuncDef> = {
  toYaml: pure(['any'], toYaml),
  fromYaml: pure(['string'], fromYaml),
  fromYamlArray: pure(['string'], fromYamlArray),
  toJson: pure(['any'], toJsonHelm),
  fromJson: pure(['string'], fromJsonHelm),
  fromJsonArray: pure(['string'], fromJsonArrayHelm),
  toToml: pure(['any'], (v: unknown) => {
    try {
      return marshalToml(v);
    } catch (e) {
      return (e as Error).message;
    }
  }),
  include: def(['string', 'any'], include),
  tpl: def(['string', 'any'], tpl),
  required: pure(['string', 'any'], required),
  fail: pure(['string'], (msg: string) => {
    throw new Error(warnWrap(msg));
  }),
  lookup: pure(['string', 'string', 'string', 'string'], () => ({})),
};

/**
 * Helm's cleanup of execution errors: a `required`/`fail` message becomes
 * "execution error at (FILE:LINE:COL): MESSAGE"; other messages pass through.
 */
export function helmErrorMessage(message: string): string {
  const tokens = splitN(message, ': ', 3);
  const m = new RegExp(`${WARN_START}([\\s\\S]*)${WARN_END}`).exec(message);
  if (tokens.length === 3 && m) return `execution error at (${tokens[1]}): ${m[1]}`;
  return message.replaceAll(WARN_START, '').replaceAll(WARN_END, '');
}

function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

export const helmProfile = new FunctionProfile({ ...sprigFuncs, ...helmFuncs }, withheldMessages(sprigWithheld));
