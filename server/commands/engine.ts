/**
 * One request's Jsonnet setup: importer over the recorder, ext vars and TLAs
 * from the flags, kubecfg's natives, the worker's parse cache (keyed by path +
 * content digest, so an edited file simply misses: hazard 33), the worker's
 * store of evaluated imports (lang/jsonnet/module-cache.ts: a module whose
 * content, imports and ext vars are unchanged is handed over from the last
 * request, and its file reads still go through this request's recorder), and
 * the request's cancel poll. Inline code (-e, --exec, --overlay-code) sees
 * `kubecfg` predefined as the built-in kubecfg.libsonnet (RFC06); a name the
 * code defines itself shadows it, as a Jsonnet local does. A .yakl input is
 * compiled (worker cache, yakl-compile.ts) and evaluated under its own name;
 * the caller checks the `yakl` gate for inputs, the importer for `yakl:`.
 */
import { resolve } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import {
  ByteBoundedCache,
  FileContentCache,
  digestOf,
  stopHashingReads,
  useSharedContentCache,
  type DependencyRecorder,
} from '../../cache/index.js';
import { SourceFile } from '../../lang/common/source.js';
import type { JsonValue } from '../../lang/common/json.js';
import {
  ModuleReuse,
  evaluate,
  evaluateSnippet,
  evaluateToBytes,
  evaluateToString,
  parseModule,
  type EvalOptions,
  type Module,
} from '../../lang/jsonnet/index.js';
import { Gates, splitFeatureFlag } from '../../render/features/gates.js';
import { predefineKubecfg } from '../../render/predefine.js';
import type { Flags } from './flags.js';
import { createImporter } from './importer.js';
import { isRemoteLocation } from '../remote-inputs/remote-location.js';
import { nativesFor } from '../remote-inputs/request-natives.js';
import { compiledYakl, type CompiledYaklModule } from './yakl-compile.js';
import { renderMemoryLimit } from './memory-limit.js';
import { KubecfgError } from '../../lang/common/errors.js';

/** Parsed modules shared by every request this worker runs (safe: keyed by content). */
const parseCacheStore = new ByteBoundedCache<Module>({ name: 'parsed-modules', maxBytes: 256 * 1024 * 1024 });
const parseCache = {
  get: (key: string) => parseCacheStore.get(key),
  set: (key: string, m: Module) => parseCacheStore.set(key, m, key.length + m.file.text.length * 8),
};

export function parseCacheStats(): ReturnType<typeof parseCacheStore.stats> {
  return parseCacheStore.stats();
}

/**
 * File bytes kept by this worker: a request's recorder only stats an unchanged, settled file
 * instead of reading and hashing it again (cache/file-content-cache.ts; same rule as results).
 */
const fileContents = new FileContentCache({ maxBytes: 64 * 1024 * 1024 });
useSharedContentCache(fileContents);

export function fileContentCacheStats(): ReturnType<typeof fileContents.stats> {
  return fileContents.stats();
}

/** Evaluated imports kept by this worker for the next request (count-bounded LRU). */
const moduleReuse = new ModuleReuse({ maxModules: 8192 });

export function moduleReuseStats(): ReturnType<typeof moduleReuse.stats> {
  return moduleReuse.stats();
}

/**
 * A process that renders one command and exits (server/oneshot-run.ts, neither `--watch` nor a
 * serving stage) has no next request: the caches above would only cost it a sha256 of every
 * file and imported module, the reuse graph's bookkeeping, and their memory; nor does it keep
 * its deps, so its recorders stop hashing what they read. Set before the render.
 */
let renderingOnce = false;

export function renderOnlyOnce(): void {
  renderingOnce = true;
  useSharedContentCache(undefined);
  stopHashingReads();
}

/**
 * Cached module values count against the worker's heap limit (1 GiB by default): past half of
 * it they are dropped before the next request, so a cache never makes a render run out of memory.
 */
function relieveMemoryPressure(): void {
  const heap = getHeapStatistics();
  if (heap.used_heap_size > heap.heap_size_limit / 2) moduleReuse.clear();
}

class VarsError extends KubecfgError {
  readonly code = 'CMD_VARS';
}

function splitVar(flag: string, entry: string): [string, string] {
  const eq = entry.indexOf('=');
  if (eq < 0) throw new VarsError(`Failed to parse ${flag}: missing '=' in ${entry}`);
  return [entry.slice(0, eq), entry.slice(eq + 1)];
}

function quoteVerbatim(path: string): string {
  return `@'${path.replace(/'/g, "''")}'`;
}

type VarMap = NonNullable<EvalOptions['extVars']>;

/** ext vars or TLAs from the four flags of one family (`ext` or `tla`), as kubecfg builds them. */
function varsFrom(flags: Flags, family: 'ext' | 'tla'): VarMap {
  const out: VarMap = Object.create(null) as VarMap;
  for (const entry of flags.list(`${family}-str`)) {
    const [k, v] = splitVar(`${family}-str`, entry);
    out[k] = { kind: 'string', value: v };
  }
  for (const entry of flags.list(`${family}-code`)) {
    const [k, v] = splitVar(`${family}-code`, entry);
    // RFC06: --ext-code and --tla-code values see `kubecfg` predefined (not the *-file flags: those are imports).
    out[k] = {
      kind: 'code',
      value: withKubecfgPredefined(v, family === 'ext' ? `<extvar:${k}>` : `<top-level-arg:${k}>`),
    };
  }
  // The *-file flags become imports of the absolute path, so a file's own imports resolve next to it.
  for (const entry of flags.list(`${family}-str-file`)) {
    const [k, p] = splitVar(`${family}-str-file`, entry);
    out[k] = { kind: 'code', value: `importstr ${quoteVerbatim(flags.path(p))}` };
  }
  for (const entry of flags.list(`${family}-code-file`)) {
    const [k, p] = splitVar(`${family}-code-file`, entry);
    out[k] = { kind: 'code', value: `import ${quoteVerbatim(flags.path(p))}` };
  }
  return out;
}

export interface Engine {
  options: EvalOptions;
  /** Evaluates a file (path as the user gave it; read through the recorder) to a JSON value. */
  evaluateFile(file: string): JsonValue;
  /** Parses a file into a module (for evaluateToString). */
  parseFile(file: string): Module;
  /** Reads (through the recorder) and compiles a .yakl file; the module carries the file's own name. */
  compileYaklFile(file: string): CompiledYaklModule;
  /** Evaluates a .yakl file (path as the user gave it) to a JSON value. */
  evaluateYaklFile(file: string): JsonValue;
  /** Evaluates inline code with `kubecfg` predefined. */
  evaluateInline(name: string, code: string): JsonValue;
  evaluateToString: typeof evaluateToString;
  evaluateToBytes: typeof evaluateToBytes;
}

/**
 * RFC06: inline code that reads `kubecfg` without declaring it gets the
 * built-in library; any other code is evaluated exactly as written, columns
 * included (render/predefine.ts decides with the engine's free-variable check).
 */
export function withKubecfgPredefined(code: string, name = '<cmdline>'): string {
  return predefineKubecfg(name, code);
}

/**
 * Gates from the command line alone, for callers that did not pass theirs
 * (they lose only the rc file's `features`); the command itself already
 * resolved these flags, so this cannot fail where it did not.
 */
function flagGates(flags: Flags): Gates {
  const items = splitFeatureFlag(flags.list('features'));
  return Gates.resolve(flags.bool('alpha'), items.length ? [{ name: '--features', items }] : []);
}

export function createEngine(
  flags: Flags,
  recorder: DependencyRecorder,
  cwd: string,
  shouldStop: () => boolean,
  maxStack?: number,
  gates?: Gates,
  /** Where std.trace lines go (`TRACE: file:line message`, no newline); go-jsonnet and so kubecfg print them on stderr. */
  trace?: (line: string) => void,
): Engine {
  relieveMemoryPressure();
  const importer = createImporter({ recorder, cwd, jpath: flags.list('jpath'), gates: gates ?? flagGates(flags) });
  const options: EvalOptions = {
    importer,
    extVars: varsFrom(flags, 'ext'),
    tlas: varsFrom(flags, 'tla'),
    natives: nativesFor(flags),
    shouldStop,
    ...(renderingOnce ? {} : { parseCache, reuse: moduleReuse }),
    memoryLimit: renderMemoryLimit(),
    ...(maxStack ? { maxStack } : {}),
    ...(trace ? { trace } : {}),
  };
  const parseFile = (file: string): Module => {
    // A URL input (https://, data:, oci://) is fetched as an import of itself, so its own imports resolve against it.
    const remote = isRemoteLocation(file) ? importer.load('', file, 'import') : undefined;
    if (remote) file = remote.foundAt;
    const bytes = remote ? remote.contents : recorder.readFile(resolve(cwd, file));
    const text = new TextDecoder('utf-8').decode(bytes);
    if (renderingOnce) return parseModule(new SourceFile(file, text));
    const key = `${file}\u0000${digestOf(bytes)}`;
    const cached = parseCache.get(key);
    if (cached) return cached;
    const m = parseModule(new SourceFile(file, text));
    parseCache.set(key, m);
    return m;
  };
  const compileYaklFile = (file: string): CompiledYaklModule =>
    compiledYakl(file, recorder.readFile(resolve(cwd, file)));
  return {
    options,
    parseFile,
    compileYaklFile,
    evaluateYaklFile: (file) => evaluate(compileYaklFile(file).module, options),
    evaluateFile: (file) => evaluate(parseFile(file), options),
    evaluateInline: (name, code) => evaluateSnippet(name, withKubecfgPredefined(code, name), options),
    evaluateToString,
    evaluateToBytes,
  };
}
