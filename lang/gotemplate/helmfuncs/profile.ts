/**
 * Helm's template function profile: Sprig plus toYaml, fromYaml,
 * fromYamlArray, toJson, fromJson, fromJsonArray, toToml, include (Helm's
 * 1000-per-name recursion limit and message), tpl, required, fail (Helm's
 * wrapped messages; see helmErrorMessage), and lookup (always an empty map:
 * there is no cluster). YAML input is read by lang/go/yaml-v2 (go-yaml v2
 * through sigs.k8s.io/yaml); all numbers from YAML/JSON become float64 as
 * that JSON round trip makes them.
 */

import { GoYamlError, yamlToJson } from '../../go/yaml-v2.js';
import { FuncError, TemplateError } from '../errors.js';
import { type FuncContext, type FuncDef, FunctionProfile, def, pure } from '../function.js';
import { jsonToGoData, marshalJson, unmarshalInto } from '../sprig/encoding.js';
import { sprigFuncs, sprigWithheld, withheldMessages } from '../sprig/profile.js';
import { isMap, kindOf } from '../value.js';
import { marshalYaml } from './yaml-emit.js';
import { marshalToml } from './toml.js';

/** Helm's per-name include depth limit (pkg/engine recursionMaxNums). */
export const INCLUDE_RECURSION_MAX = 1000;

const WARN_START = 'HELM_ERR_START';
const WARN_END = 'HELM_ERR_END';

function warnWrap(msg: string): string {
  return WARN_START + msg + WARN_END;
}

/** sigs.k8s.io/yaml.Unmarshal into interface{}, as Helm reads values and fromYaml input; throws with Go's message. */
export function readYaml(text: string): unknown {
  try {
    return jsonToGoData(yamlToJson(text));
  } catch (e) {
    if (e instanceof GoYamlError) throw new Error(`error converting YAML to JSON: ${e.message}`);
    throw e;
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
