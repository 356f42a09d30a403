/**
 * Parsed modules (parse once, evaluate many) and the options an evaluation
 * takes. A Module is immutable after parseModule: its AST is analyzed (slots,
 * contexts) and may be shared between evaluations and cached by the daemon
 * under (foundAt, content hash).
 */
import { createHash } from 'node:crypto';
import { SourceFile, type Span } from '../common/source.js';
import type { JsonValue } from '../common/json.js';
import type { Import, Node } from './ast.js';
import { staticError } from './errors.js';
import { parse } from './parser.js';
import { analyze } from './static-analyzer.js';
import type { ModuleReuse } from './module-cache.js';

export interface ImportRef {
  kind: 'import' | 'importstr' | 'importbin';
  path: string;
  span: Span;
}

export interface Module {
  readonly file: SourceFile;
  readonly imports: readonly ImportRef[];
}

export interface Importer {
  /** Resolve `path` imported from the file named `importedFrom` (a display/real path, or '' for
   *  snippets). Synchronous: the caller pre-loads or reads synchronously. Must be deterministic for
   *  one evaluation (same inputs -> same contents). Throws ImportError(message) when not found/allowed. */
  load(
    importedFrom: string,
    path: string,
    kind: 'import' | 'importstr' | 'importbin',
  ): {
    foundAt: string;
    contents: Uint8Array;
    module?: Module;
  };
}

export interface ParseCache {
  get(key: string): Module | undefined;
  set(key: string, m: Module): void;
}

export interface RuntimeOptions {
  importer?: Importer;
  extVars?: Record<string, { kind: 'string' | 'code'; value: string }>;
  tlas?: Record<string, { kind: 'string' | 'code'; value: string }>;
  natives?: Record<string, { params: string[]; fn: (args: JsonValue[]) => JsonValue }>;
  /** Max call/thunk frames (default 500, as go-jsonnet). */
  maxStack?: number;
  /** Polled periodically; when it returns true evaluation stops with 'evaluation cancelled'. */
  shouldStop?: () => boolean;
  /** std.trace sink. */
  trace?: (message: string) => void;
  /** Key = foundAt + '\0' + sha256(content); lets the daemon share parsed modules. */
  parseCache?: ParseCache;
  /**
   * The daemon worker's store of evaluated imports (module-cache.ts): imported modules whose
   * content, imports and ext vars are unchanged are handed over from earlier evaluations.
   */
  reuse?: ModuleReuse;
  /**
   * The memory the evaluation may use, and its name in errors (`the worker heap limit (64 MiB)`):
   * a builtin whose allocation size is known before it starts (std.range, std.makeArray,
   * std.repeat, std.join) and cannot fit is refused at once instead of growing until the limit
   * kills the process. Absent: no check.
   */
  memoryLimit?: {
    bytes: number;
    name: string;
    /** Hears each refusal's message, and the stack-depth limit's (the daemon logs one line for each). */
    onRefused?: (message: string) => void;
  };
}

const ASTS = new WeakMap<Module, Node>();

class ParsedModule implements Module {
  constructor(
    readonly file: SourceFile,
    readonly imports: readonly ImportRef[],
  ) {}
}

/** Parses and analyzes one file. Throws a static JsonnetError on bad input. */
export function parseModule(file: SourceFile): Module {
  let ast: Node;
  let imports: Import[];
  try {
    ast = parse(file);
    imports = analyze(ast, file).imports;
  } catch (e) {
    // Very long operator chains are not nested for the parser's limit but still
    // recurse in later passes; report them instead of crashing.
    if (e instanceof RangeError)
      throw staticError('Input too deeply nested (expression too long or complex)', file, 0, 0);
    throw e;
  }
  const m = new ParsedModule(
    file,
    imports.map((i) => ({ kind: i.kind, path: i.path, span: i.span })),
  );
  ASTS.set(m, ast);
  return m;
}

export function parseSnippet(name: string, code: string): Module {
  return parseModule(new SourceFile(name, code));
}

/** Parses via the cache when one is given (keyed by name and content digest). */
export function parseSourceFile(file: SourceFile, cache: ParseCache | undefined, contents: Uint8Array): Module {
  if (!cache) return parseModule(file);
  const key = file.name + '\0' + createHash('sha256').update(contents).digest('hex');
  const hit = cache.get(key);
  if (hit) return hit;
  const m = parseModule(file);
  cache.set(key, m);
  return m;
}

export function moduleAst(m: Module): Node {
  const ast = ASTS.get(m);
  if (!ast) throw new TypeError('Module was not created by parseModule');
  return ast;
}
