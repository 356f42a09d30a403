/**
 * Flags from files (RFC02): finds `.kubecfgrc.jsonnet`, evaluates it and
 * folds its values into a request's flags as defaults.
 *
 * Invariants:
 * - The search starts at each input file's directory (and at the cwd for
 *   `-e`/no files); every start must find the same rc file, else RFC02's
 *   "same .kubecfgrc.jsonnet" error. Every probe and read goes through the
 *   request's DependencyRecorder, so creating, editing or deleting an rc file
 *   invalidates cached results (misses are negative dependencies).
 * - The rc file sees no flags of the request (no -J, no ext vars) and may only
 *   import files inside its own directory tree (and the built-in
 *   kubecfg.libsonnet): a checked-in rc file cannot read the rest of the disk.
 * - Flags the client sent (CLI or KUBECFG_* env) win; rc values only fill the
 *   flags the client did not send. `features`/`alpha` are returned apart:
 *   they are merged per feature by the gates (RFC05 precedence).
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { DependencyRecorder } from '../../cache/index.js';
import { isJsonObject, jsonObject, type JsonValue } from '../../lang/common/json.js';
import { evaluateSnippet, ImportError, type Importer } from '../../lang/jsonnet/index.js';
import {
  COMMANDS,
  daemonCommandNames,
  findCommand,
  flagsOf,
  type CommandParams,
  type CommandSpec,
  type FlagSpec as CatalogFlagSpec,
  type FlagValue,
} from '../../protocol/index.js';
import { kubecfgNatives } from '../../render/index.js';
import { flagsFromRc, RcError, rcOverlaySnippet, sameRcFileError, type FlagSpec } from '../../render/rc/rc-flags.js';
import { BUILTIN_LIB_URL, createImporter } from './importer.js';

export { RcError };

const RC_FILE_NAME = '.kubecfgrc.jsonnet';
/** The SOURCE name `kubecfg features` shows for settings from the rc file. */
export const RC_SOURCE = RC_FILE_NAME;

export interface RcSettings {
  /** The rc file found (absolute), if any. */
  file?: string;
  /** The request's params with the rc defaults filled in. */
  params: CommandParams;
  /** `flags.features` items of the rc file. */
  features: string[];
  /** `flags.alpha` of the rc file. */
  alpha?: boolean;
}

/** Variable flags whose value is NAME=PATH. */
const NAME_PATH_FLAGS = new Set(['ext-str-file', 'ext-code-file', 'tla-str-file', 'tla-code-file']);

/** Every command of the catalog, groups and subcommands at any depth (`cleat argocd generate`). */
function allCommands(cs: readonly CommandSpec[] = COMMANDS): CommandSpec[] {
  return cs.flatMap((c) => [c, ...allCommands(c.subcommands ?? [])]);
}

function rcSpecOf(f: CatalogFlagSpec): FlagSpec {
  const kind = f.kind === 'count' ? 'int' : f.kind;
  if (!f.filename) return { name: f.name, kind };
  return { name: f.name, kind, path: NAME_PATH_FLAGS.has(f.name) ? 'name=path' : 'path' };
}

/**
 * The nearest rc file at or above `dir`, probing through the recorder. The
 * filesystem root itself is not searched: a negative dependency there makes
 * the file watcher watch `/`, whose events would invalidate every cached result.
 */
export function findRcFile(dir: string, recorder: DependencyRecorder): string | undefined {
  for (let d = dir; dirname(d) !== d; d = dirname(d)) {
    const candidate = join(d, RC_FILE_NAME);
    if (recorder.probe(candidate)) return candidate;
  }
  return undefined;
}

function shown(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

/** Where the search starts: each input's directory, plus the cwd for inline code or no inputs. */
function searchStarts(command: string, params: CommandParams): string[] {
  if (command === 'features') return [params.cwd];
  const starts = params.args.map((a) => dirname(resolve(params.cwd, a)));
  // `-e` code of show imports relative to the cwd; eval's --expr runs inside its file, which is searched.
  const inline = command !== 'eval' && typeof params.flags.exec === 'string';
  if (starts.length === 0 || inline) starts.unshift(params.cwd);
  return starts;
}

/** The one rc file for this request, or RFC02's error when the inputs find different ones. */
export function locateRcFile(command: string, params: CommandParams, recorder: DependencyRecorder): string | undefined {
  const found = searchStarts(command, params).map((d) => findRcFile(d, recorder));
  const first = found[0];
  for (const f of found) {
    if (f !== first) {
      const names = [f, first].map((x) => (x === undefined ? '' : shown(params.cwd, x)));
      throw sameRcFileError(names);
    }
  }
  return first;
}

/** Imports of the rc file: only inside its directory tree. */
function rcImporter(rcDir: string, recorder: DependencyRecorder): Importer {
  const inner = createImporter({ recorder, cwd: rcDir, jpath: [] });
  const inside = (abs: string): boolean => abs === rcDir || abs.startsWith(rcDir.endsWith(sep) ? rcDir : rcDir + sep);
  return {
    load(importedFrom, path, kind) {
      if (path !== BUILTIN_LIB_URL && path !== 'kubecfg.libsonnet') {
        const local = path.startsWith('file://') ? decodeURIComponent(path.slice('file://'.length)) : path;
        const base =
          importedFrom === '' || importedFrom.startsWith('<') ? rcDir : dirname(resolve(rcDir, importedFrom));
        const abs = resolve(base, local);
        if (!inside(abs)) {
          throw new ImportError(
            `couldn't open import ${JSON.stringify(path)}: ${RC_FILE_NAME} may only import files inside ${rcDir}`,
          );
        }
      }
      return inner.load(importedFrom, path, kind);
    },
  };
}

/**
 * The overlay makes `commands.X` default to `$.flags`; when the rc file did not
 * change it, drop it so errors name `flags`, where the setting really is.
 */
function withoutInheritedCommand(value: JsonValue, command: string): JsonValue {
  if (!isJsonObject(value)) return value;
  const commands = value.commands;
  if (!isJsonObject(commands) || commands[command] === undefined) return value;
  if (JSON.stringify(commands[command]) !== JSON.stringify(value.flags ?? {})) return value;
  const rest = jsonObject(Object.entries(commands).filter(([k]) => k !== command));
  return jsonObject([...Object.entries(value).filter(([k]) => k !== 'commands'), ['commands', rest] as const]);
}

/**
 * Reads the rc file for `command` and returns the params with its defaults
 * applied. Throws RcError, JsonnetError or ImportError (located) for a bad rc file.
 */
export function applyRcFile(
  command: string,
  params: CommandParams,
  recorder: DependencyRecorder,
  shouldStop: () => boolean,
): RcSettings {
  const file = locateRcFile(command, params, recorder);
  if (file === undefined) return { params, features: [] };
  const rcDir = dirname(file);
  const value = evaluateSnippet('<kubecfgrc>', rcOverlaySnippet(daemonCommandNames(), file), {
    importer: rcImporter(rcDir, recorder),
    natives: kubecfgNatives,
    shouldStop,
  });
  const spec = findCommand(command);
  const allFlagNames = new Set(allCommands().flatMap((c) => flagsOf(c).map((f) => f.name)));
  const result = flagsFromRc(withoutInheritedCommand(value, command), {
    rcFile: shown(params.cwd, file),
    rcDir,
    command,
    specs: spec ? flagsOf(spec).map(rcSpecOf) : [],
    allFlagNames,
    kubeconfigEnvSet: params.env.KUBECONFIG !== undefined,
    resolvePath: (dir, p) => resolve(dir, p),
  });
  // `features` only takes the features from the rc file (RFC02 "Features").
  const flags: Record<string, FlagValue> = Object.assign(
    Object.create(null) as Record<string, FlagValue>,
    params.flags,
  );
  if (command !== 'features') {
    const specs = new Map((spec ? flagsOf(spec) : []).map((f) => [f.name, f]));
    for (const [name, v] of Object.entries(result.defaults)) {
      if (flags[name] !== undefined) continue;
      // The catalog's allowed values bind rc values as they bind the command line.
      const allowed = specs.get(name)?.values;
      if (allowed && typeof v === 'string' && !allowed.includes(v))
        throw new RcError(`${shown(params.cwd, file)}: ${name}: "${v}" is not one of ${allowed.join(', ')}`);
      flags[name] = v;
    }
  }
  return {
    file,
    params: { ...params, flags },
    features: result.features ?? [],
    ...(result.alpha !== undefined ? { alpha: result.alpha } : {}),
  };
}
