/**
 * Public API of the Jsonnet engine (what the daemon calls): parse once with
 * parseModule, evaluate many times with evaluate / evaluateToString. Pure: no
 * I/O (imports go through options.importer). Every failure surfaces as a
 * JsonnetError (static or runtime, formatted like go-jsonnet); no other
 * exception escapes for bad input, including JS stack overflow.
 */
import { SourceFile } from '../common/source.js';
import type { JsonValue } from '../common/json.js';
import { isJsonObject } from '../common/json.js';
import { ImportError, JsonnetError } from './errors.js';
import { Evaluator } from './evaluator.js';
import { serializeJson } from './manifest.js';
import { type Module, type RuntimeOptions, parseModule, parseSnippet } from './module.js';
import { buildStd } from './std/registry.js';
import { pureStdTable } from './std/pure-link.js';
import { applyTopLevelArgs } from './top-level-args.js';
import { FuncValue, type Value, typeName } from './value.js';

export { JsonnetError, ImportError, parseModule };
export type { FormatOptions, TraceFrame } from './errors.js';
export type { Importer, ImportRef, Module, ParseCache } from './module.js';
export { ModuleReuse, type ModuleReuseOptions, type ModuleReuseStats } from './module-cache.js';
export { parse as parseAst } from './parser.js';
export { freeVariablesOf } from './static-analyzer.js';

export type EvalOptions = RuntimeOptions;
export type OutputMode = 'json' | 'string' | 'multi' | 'yamlStream';

function newEvaluator(options: EvalOptions): Evaluator {
  return new Evaluator(options, (ev) => buildStd(ev, pureStdTable));
}

/**
 * Runs `fn` on the worker's long-lived evaluator when options.reuse is set and it is free
 * (module-cache.ts), else on a fresh one.
 */
function withEvaluator<T>(options: EvalOptions, fn: (ev: Evaluator) => T): T {
  const reuse = options.reuse;
  const shared = reuse?.acquire(options, (o, config) => new Evaluator(o, (ev) => buildStd(ev, pureStdTable), config));
  if (!shared) return fn(newEvaluator(options));
  try {
    return fn(shared);
  } finally {
    reuse!.release(shared, options);
  }
}

/** Runs `fn`, turning any non-Jsonnet exception into a located JsonnetError. */
function guarded<T>(ev: Evaluator, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof JsonnetError) throw e;
    if (e instanceof RangeError && /call stack/i.test(e.message)) throw ev.error('max stack frames exceeded.');
    // e.g. "Invalid string length" / "Invalid array length" from a huge std.repeat or range.
    if (e instanceof RangeError) throw ev.error(`value too large: ${e.message}`);
    if (e instanceof ImportError) throw ev.error(e.message);
    const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    throw ev.error(`internal error: ${msg}`);
  }
}

/** Evaluates the module and applies TLAs; returns the value (not yet manifested). */
function evaluateValue(ev: Evaluator, module: Module, options: EvalOptions): Value {
  ev.cur = 'During evaluation';
  const v = applyTopLevelArgs(ev, ev.evaluateModule(module), options.tlas);
  ev.cur = 'During manifestation';
  return v;
}

/** Evaluates and manifests to plain JSON (TLAs applied). */
export function evaluate(module: Module, options: EvalOptions = {}): JsonValue {
  return withEvaluator(options, (ev) => guarded(ev, () => ev.manifest(evaluateValue(ev, module, options))));
}

/**
 * The text the `jsonnet` command prints: 'json' (default), 'string' (-S),
 * 'multi' (-m: file name -> text), 'yamlStream' (-y: `---` separated JSON
 * documents, ending in `...`).
 */
export function evaluateToString(
  module: Module,
  options: EvalOptions & {
    mode?: OutputMode;
    /** With 'multi': files hold strings (-m -S). */ stringOutput?: boolean;
  } = {},
): string | Record<string, string> {
  const mode = options.mode ?? 'json';
  return withEvaluator(options, (ev) =>
    guarded(ev, () => {
      const v = evaluateValue(ev, module, options);
      switch (mode) {
        case 'string':
          if (typeof v !== 'string') throw ev.error(`expected string result, got: ${typeName(v)}`);
          return v + '\n';
        case 'multi': {
          const j = ev.manifest(v);
          if (!isJsonObject(j)) {
            throw ev.error(
              `multi mode: top-level object was a ${typeName(v)}, should be an object whose keys are filenames and values hold the JSON for that file.`,
            );
          }
          const out: Record<string, string> = {};
          for (const k of Object.keys(j)) {
            const fv = j[k]!;
            let text: string;
            if (options.stringOutput) {
              if (typeof fv !== 'string') {
                throw ev.error(
                  `multi mode: top-level object's key ${k} has a value of type ${goJsonTypeName(fv)}, should be a string`,
                );
              }
              text = fv;
            } else text = serializeJson(fv) + '\n';
            Object.defineProperty(out, k, { value: text, enumerable: true, writable: true, configurable: true });
          }
          return out;
        }
        case 'yamlStream': {
          const j = ev.manifest(v);
          if (!Array.isArray(j)) {
            throw ev.error(
              `stream mode: top-level object was a ${typeName(v)}, should be an array whose elements hold the JSON for each document in the stream.`,
            );
          }
          if (j.length === 0) return '';
          return j.map((d) => `---\n${serializeJson(d)}\n`).join('') + '...\n';
        }
        default:
          return ev.manifestText(v, true, '', '\n');
      }
    }),
  );
}

/**
 * The default ('json') mode's text of evaluateToString as UTF-8 bytes, newline included: what
 * `jsonnet FILE` prints, for a caller that writes bytes (a large output is then never one string).
 */
export function evaluateToBytes(module: Module, options: EvalOptions = {}): Uint8Array {
  return withEvaluator(options, (ev) =>
    guarded(ev, () => ev.manifestBytes(evaluateValue(ev, module, options), true, '', '\n')),
  );
}

/** Go's %T of a decoded JSON value, as go-jsonnet prints it in multi string mode. */
function goJsonTypeName(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'number':
      return 'float64';
    case 'string':
      return 'string';
  }
  return 'map[string]interface {}';
}

/**
 * What the module's top-level value is, without calling it or evaluating
 * anything else: a function (with its parameter names) or another type
 * (kubecfg httpd checks its hooks with this at start-up).
 */
export function topLevelShape(
  module: Module,
  options: EvalOptions = {},
): { kind: 'function'; params: string[] } | { kind: 'value'; type: string } {
  const ev = newEvaluator(options);
  return guarded(ev, () => {
    const v = ev.evaluateModule(module);
    return v instanceof FuncValue
      ? { kind: 'function', params: v.params.map((p) => p.name) }
      : { kind: 'value', type: typeName(v) };
  });
}

/** Parses and evaluates a snippet named `name` (e.g. `<cmdline>`). */
export function evaluateSnippet(name: string, code: string, options: EvalOptions = {}): JsonValue {
  return evaluate(parseSnippet(name, code), options);
}

export { SourceFile, parseSnippet };
