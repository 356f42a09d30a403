/**
 * KCL, the subset the myks converter writes (docs/kcl.md). Pure: files come
 * through a KclHost. `runKcl` is `kcl run`; the pieces (parse, evaluate a
 * package tree, print) are exported for the converter.
 */
import { dirname } from 'node:path/posix';
import { KclError } from './errors.js';
import { Evaluator } from './evaluator.js';
import { PackageLoader, type KclHost } from './loader.js';
import { encodeJson, encodeYaml, type PrintOptions } from './printer.js';
import { parseExpression } from './parser.js';
import { KDict, KFloat, type Value } from './value.js';

export { KclError } from './errors.js';
export type { KclErrorKind, KclPos } from './errors.js';
export { parseModule, parseExpression } from './parser.js';
export type { Module } from './ast.js';
export type { KclHost } from './loader.js';
export { memoryHost } from './memory-host.js';
export { encodeJson, encodeYaml, toPlain, type PrintOptions } from './printer.js';
export { KDict, KFloat, UNDEFINED, type Value } from './value.js';

export interface KclRunOptions {
  /** Files, or one directory (every `.k` file in it), as `kcl run` takes them; absolute or normalised. */
  readonly paths: readonly string[];
  /** `-D name=value`: values read by option("name"). */
  readonly defines?: readonly string[];
  readonly format?: 'yaml' | 'json';
  readonly sortKeys?: boolean;
  /** --disable-none */
  readonly ignoreNone?: boolean;
}

export interface KclEvaluation {
  /** The top-level public values, in the order the program binds them. */
  readonly value: KDict;
  /** What print() wrote, in order. */
  readonly printed: string;
}

/** Evaluates a package tree: the entry package and everything it imports. */
export function evaluateKcl(host: KclHost, opts: Pick<KclRunOptions, 'paths' | 'defines'>): KclEvaluation {
  if (opts.paths.length === 0) throw new KclError('CompileError', 'no input file');
  try {
    const first = opts.paths[0]!;
    const asDir = opts.paths.length === 1 && host.listDir(first) !== undefined;
    const entryDir = asDir ? first : dirname(first);
    const loader = new PackageLoader(host, entryDir);
    const files = asDir ? (loader.kFiles(first) ?? []) : [...opts.paths];
    if (files.length === 0) throw new KclError('CompileError', `no KCL file in ${first}`);
    const pkg = loader.entry(files);
    const ev = new Evaluator((path, from) => loader.resolve(path, from), parseDefines(opts.defines ?? []));
    const value = ev.run(pkg);
    return { value, printed: ev.printed.join('') };
  } catch (err) {
    // A program nesting deeper than the JS stack allows is the program's error, not a crash.
    if (err instanceof RangeError && /call stack/.test(err.message))
      throw new KclError('RecursionError', 'maximum recursion depth exceeded');
    throw err;
  }
}

/** `kcl run`: what it prints on stdout. Throws KclError (print it with its render()). */
export function runKcl(host: KclHost, opts: KclRunOptions): string {
  const { value, printed } = evaluateKcl(host, opts);
  const p: PrintOptions = { sortKeys: opts.sortKeys === true, ignoreNone: opts.ignoreNone === true };
  if (value.map.size === 0) return printed;
  return printed + (opts.format === 'json' ? encodeJson(value, p) + '\n' : encodeYaml(value, p));
}

/** `-D name=value`: the value is a KCL literal (number, bool, None, string, list, dict) or else a plain string. */
export function parseDefines(defines: readonly string[]): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const d of defines) {
    const eq = d.indexOf('=');
    if (eq <= 0) throw new KclError('CompileError', `invalid -D argument '${d}': expected name=value`);
    out.set(d.slice(0, eq), literalValue(d.slice(eq + 1)));
  }
  return out;
}

function literalValue(text: string): Value {
  if (text === 'true' || text === 'True') return true;
  if (text === 'false' || text === 'False') return false;
  if (text === 'null' || text === 'None') return null;
  if (/^[-+]?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(text)) return new KFloat(Number(text));
  if (/^[[{]/.test(text)) {
    try {
      return fromJson(JSON.parse(text));
    } catch {
      try {
        parseExpression('<-D>', text);
      } catch {
        /* not KCL either: a string */
      }
    }
  }
  return text;
}

/** Plain JSON data as a KCL value (ints stay ints, other numbers become floats). */
export function fromJson(j: unknown): Value {
  if (j === null || typeof j === 'boolean' || typeof j === 'string') return j;
  if (typeof j === 'number') return Number.isInteger(j) ? j : new KFloat(j);
  if (Array.isArray(j)) return j.map(fromJson);
  const d = new KDict();
  for (const [k, v] of Object.entries(j as Record<string, unknown>)) d.map.set(k, fromJson(v));
  return d;
}
