/**
 * What the phases share about one module: its parsed items, the types,
 * namespaces, globals and functions it declares or imports, and its
 * diagnostics. Built by program.ts and the checker; read by the evaluator.
 * Invariant: a module's functions and lets always evaluate in their own
 * ModuleCtx, whoever calls them.
 */
import type { Diagnostic, SourceFile } from '../common/source.js';
import type * as A from './ast.js';
import type { SchemaNamespace } from './openapi.js';
import type { Ty } from './types.js';
import type { Value } from './value.js';

/**
 * How Cleat reads files. Paths are absolute POSIX paths, already resolved
 * lexically and checked against `root` by Cleat. The loader must refuse a path
 * whose real path (after symlinks, checked at every step) leaves `root`, and
 * must return the same text for the same path during one check or export.
 */
export interface CleatLoader {
  /** Absolute POSIX path of the project root (§4.1). */
  readonly root: string;
  /** The file's text, or why it cannot be read (say it generically: no absolute paths in the reason). */
  read(path: string): string | { error: string };
}

export type Namespace = { kind: 'schema'; schema: SchemaNamespace } | { kind: 'module'; ctx: ModuleCtx };

export interface ParamInfo {
  name: string;
  type: Ty;
  default?: A.Expr;
  span: A.Param['span'];
}

export interface FnInfo {
  name: string;
  decl: A.Item & { kind: 'FnDecl' };
  params: ParamInfo[];
  result?: Ty;
  /** The body's inferred type (the result type when declared). */
  type: Ty;
  ctx: ModuleCtx;
}

export type GlobalInfo =
  | { kind: 'input'; decl: A.Item & { kind: 'Input' }; type: Ty; ctx: ModuleCtx }
  | { kind: 'let'; decl: A.Item & { kind: 'LetDecl' }; type: Ty; declared?: Ty; ctx: ModuleCtx }
  | { kind: 'data'; value: Value; type: Ty };

export interface ExportInfo {
  decl: A.Item & { kind: 'Export' };
  type: Ty;
}

export interface ModuleCtx {
  /** Absolute path (or a synthetic name for in-memory sources). */
  path: string;
  file: SourceFile;
  program: A.Program;
  isEntry: boolean;
  diagnostics: Diagnostic[];
  types: Map<string, Ty>;
  namespaces: Map<string, Namespace>;
  globals: Map<string, GlobalInfo>;
  fns: Map<string, FnInfo>;
  exports: ExportInfo[];
  /** Type expressions resolved by the checker, for the evaluator's boundary checks. */
  typeOf: WeakMap<A.TypeExpr, Ty>;
}

export function newModuleCtx(path: string, file: SourceFile, program: A.Program, isEntry: boolean): ModuleCtx {
  return {
    path,
    file,
    program,
    isEntry,
    diagnostics: [],
    types: new Map(),
    namespaces: new Map(),
    globals: new Map(),
    fns: new Map(),
    exports: [],
    typeOf: new WeakMap(),
  };
}
