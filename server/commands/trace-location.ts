/**
 * Shared by `kubecfg traceback` and `eval --trace`: the module a traced file
 * evaluates as (a .jsonnet file, or a .yakl file compiled with its lines
 * kept), and how a traced location prints: `FILE:LINE ` with the file made
 * absolute against the client's cwd, as kubecfg prints ursonnet's roots
 * (file:// stripped, and the trailing space kept: it is in kubecfg's
 * output). Locations outside files (`<cmdline>`, `internal:///`, URLs) keep
 * their names. `eval --trace` traces `-e EXPR` the way eval evaluates it
 * (a hidden field of an object extending the file's value, `kubecfg`
 * predefined), or the whole file without -e.
 */
import { resolve } from 'node:path';
import { parseSnippet, type Module } from '../../lang/jsonnet/index.js';
import { traceModuleValue, traceValuePath, type TracedLocation } from '../../lang/jsonnet/trace.js';
import type { Gates } from '../../render/features/gates.js';
import { withKubecfgPredefined, type Engine } from './engine.js';
import { importOf, isYaklFile } from './yakl-overlay.js';

/** Parses (or compiles, for .yakl) the file at absolute path `abs`; locations name it by that path. */
export function tracedModule(engine: Engine, abs: string, gates: Gates): Module {
  if (isYaklFile(abs)) {
    gates.require('yakl', abs);
    return engine.compileYaklFile(abs).module;
  }
  return engine.parseFile(abs);
}

export function locationLine(loc: TracedLocation, cwd: string): string {
  let file = loc.file;
  if (file.startsWith('file://')) file = decodeURIComponent(file.slice('file://'.length));
  else if (!file.startsWith('<') && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(file)) file = resolve(cwd, file);
  return `${file}:${loc.line} \n`;
}

/** Where the value `eval` printed was defined: of EXPR over the file at `abs`, or of the whole file. */
export function traceEvalValue(engine: Engine, abs: string, expr: string | undefined, gates: Gates): TracedLocation {
  if (expr === undefined) return traceValuePath(tracedModule(engine, abs, gates), [], engine.options);
  const field = '__kubecfg_trace_expr__';
  const code = `(${importOf(abs)} + { ${field}:: (${expr}\n) }).${field}`;
  return traceModuleValue(parseSnippet('<cmdline>', withKubecfgPredefined(code)), engine.options);
}
