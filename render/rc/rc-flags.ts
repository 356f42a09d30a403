/**
 * Flags from files (RFC02): turning the evaluated `.kubecfgrc.jsonnet` into
 * default flag values for one command. Pure: the caller finds the file,
 * evaluates `rcOverlaySnippet(...)` with the Jsonnet engine and passes the
 * value here with the command's flag specs.
 *
 * Rules kept here: `commands[cmd][flag]` is a flag's default (CLI flags and
 * KUBECFG_* env win, applied by the caller); `features`/`alpha` only under
 * `flags` (they are per invocation); path flags resolve against the rc file's
 * directory; a kubeconfig from the rc file is ignored while KUBECONFIG is set;
 * a name that is no flag at all is an error naming it and the rc file; a
 * string where a list is expected is a one-element list.
 */
import type { JsonValue, JsonObject } from '../../lang/common/json.js';
import { isJsonObject } from '../../lang/common/json.js';
import { KubecfgError } from '../../lang/common/errors.js';

export type FlagKind = 'string' | 'bool' | 'int' | 'float' | 'stringArray';

export interface FlagSpec {
  name: string;
  kind: FlagKind;
  /** The value is a path (or NAME=PATH for *-file variable flags) resolved against the rc file's directory. */
  path?: 'path' | 'name=path';
}

export type FlagValue = string | boolean | number | string[];

export interface RcResult {
  /** Default values for the command's flags, by long flag name. */
  defaults: Record<string, FlagValue>;
  /** `flags.features` as feature items ("yakl", "knit=false"), when set. */
  features?: string[];
  /** `flags.alpha`, when set. */
  alpha?: boolean;
}

export class RcError extends KubecfgError {
  readonly code = 'RC_FLAGS';
}

/** Per-invocation settings that may appear only under `flags`. */
const GLOBAL_ONLY = ['features', 'alpha'];

/**
 * The Jsonnet the rc file is evaluated as: RFC02's base object overlaid with
 * the file. `commands.X` defaults to `$.flags`, so `flags` apply to every command.
 */
export function rcOverlaySnippet(commands: readonly string[], rcImportPath: string): string {
  const cmds = commands.map((c) => `${JSON.stringify(c)}: $.flags`).join(', ');
  return `{ flags: {}, commands: { ${cmds} } } + (import ${JSON.stringify(rcImportPath)})\n`;
}

export interface RcContext {
  rcFile: string;
  rcDir: string;
  command: string;
  specs: readonly FlagSpec[];
  /** Every flag name any command knows: a name outside it is an error. */
  allFlagNames: ReadonlySet<string>;
  kubeconfigEnvSet: boolean;
  /** Joins the rc directory and a relative path (injected: render/ does no path I/O). */
  resolvePath(dir: string, p: string): string;
}

export function flagsFromRc(value: JsonValue, ctx: RcContext): RcResult {
  if (!isJsonObject(value)) throw new RcError(`${ctx.rcFile}: must evaluate to an object`);
  const flags = objectField(value, 'flags', ctx.rcFile);
  const commands = objectField(value, 'commands', ctx.rcFile);
  const forCommand = commands[ctx.command] === undefined ? flags : commands[ctx.command]!;
  if (!isJsonObject(forCommand)) throw new RcError(`${ctx.rcFile}: commands.${ctx.command} must be an object`);

  for (const [cmd, settings] of Object.entries(commands)) {
    if (!isJsonObject(settings)) continue;
    for (const g of GLOBAL_ONLY) {
      if (settings[g] !== undefined && !sameJson(settings[g], flags[g])) {
        throw new RcError(`${ctx.rcFile}: ${g} can only be set under flags, not under commands.${cmd}`);
      }
    }
  }

  const result: RcResult = { defaults: {} };
  if (flags.features !== undefined) result.features = featureItems(flags.features, ctx.rcFile);
  if (flags.alpha !== undefined) {
    if (typeof flags.alpha !== 'boolean') throw new RcError(`${ctx.rcFile}: flags.alpha must be a boolean`);
    result.alpha = flags.alpha;
  }

  const specs = new Map(ctx.specs.map((s) => [s.name, s]));
  const where = commands[ctx.command] === undefined ? 'flags' : `commands.${ctx.command}`;
  for (const [name, raw] of Object.entries(forCommand)) {
    if (GLOBAL_ONLY.includes(name)) continue;
    const spec = specs.get(name);
    if (!spec) {
      if (ctx.allFlagNames.has(name)) continue; // a flag of another command, set under `flags`
      throw new RcError(`${ctx.rcFile}: unknown flag "${name}" in ${where}`);
    }
    if (name === 'kubeconfig' && ctx.kubeconfigEnvSet) continue;
    const v = convert(raw, spec, `${ctx.rcFile}: ${where}.${name}`);
    result.defaults[name] = spec.path ? resolvePaths(v, spec.path, ctx) : v;
  }
  return result;
}

function objectField(obj: JsonObject, key: string, rcFile: string): JsonObject {
  const v = obj[key];
  if (v === undefined || v === null) return {};
  if (!isJsonObject(v)) throw new RcError(`${rcFile}: ${key} must be an object`);
  return v;
}

function convert(raw: JsonValue, spec: FlagSpec, where: string): FlagValue {
  switch (spec.kind) {
    case 'string':
      if (typeof raw === 'string') return raw;
      throw new RcError(`${where}: expected a string, got ${typeName(raw)}`);
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      throw new RcError(`${where}: expected a boolean, got ${typeName(raw)}`);
    case 'int':
      if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
      throw new RcError(`${where}: expected an integer, got ${typeName(raw)}`);
    case 'float':
      if (typeof raw === 'number') return raw;
      throw new RcError(`${where}: expected a number, got ${typeName(raw)}`);
    case 'stringArray':
      if (typeof raw === 'string') return [raw];
      if (Array.isArray(raw) && raw.every((x) => typeof x === 'string')) return raw;
      throw new RcError(`${where}: expected a list of strings, got ${typeName(raw)}`);
  }
}

function resolvePaths(v: FlagValue, how: 'path' | 'name=path', ctx: RcContext): FlagValue {
  const one = (s: string): string => {
    if (how === 'path') return ctx.resolvePath(ctx.rcDir, s);
    const eq = s.indexOf('=');
    return eq < 0 ? s : `${s.slice(0, eq + 1)}${ctx.resolvePath(ctx.rcDir, s.slice(eq + 1))}`;
  };
  if (typeof v === 'string') return one(v);
  if (Array.isArray(v)) return v.map(one);
  return v;
}

/** `features` in object form `{yakl: true}` or array form `['yakl']`. */
function featureItems(v: JsonValue, rcFile: string): string[] {
  if (Array.isArray(v)) {
    return v.map((x) => {
      if (typeof x !== 'string') throw new RcError(`${rcFile}: flags.features entries must be strings`);
      return x;
    });
  }
  if (isJsonObject(v)) {
    return Object.keys(v)
      .sort()
      .map((k) => {
        const on = v[k];
        if (typeof on !== 'boolean') throw new RcError(`${rcFile}: flags.features.${k} must be a boolean`);
        return `${k}=${on}`;
      });
  }
  if (typeof v === 'string') return v.split(',').filter((s) => s !== '');
  throw new RcError(`${rcFile}: flags.features must be an object or a list`);
}

function typeName(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

function sameJson(a: JsonValue, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** RFC02's error when the inputs of one command find different rc files (Go's %q of a []string). */
export function sameRcFileError(found: readonly string[]): RcError {
  const list = found.map((f) => JSON.stringify(f)).join(' ');
  return new RcError(`all evaluated files should resolve to the same .kubecfgrc.jsonnet, found [${list}] instead`);
}
