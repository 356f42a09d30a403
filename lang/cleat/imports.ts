/**
 * Loading a program's modules (spec §4.1): resolves every import against the
 * importing file and the project root, reads through the injected loader,
 * and binds what each import form gives: a schema namespace, a Cleat module
 * (checked on its own, its errors reported at the importer's import line with
 * the module's position), named types/functions/values, or a data value
 * (`with { type: "yaml" | "json" | "text" }`). Import cycles are errors.
 * Each importer gets fresh schema cells, so its refines stay its own.
 */
import type { Diagnostic } from '../common/source.js';
import { formatLocation, SourceFile } from '../common/source.js';
import type * as A from './ast.js';
import { checkModule } from './checker.js';
import { newModuleCtx, type CleatLoader, type ModuleCtx, type Namespace } from './context.js';
import { decodeDocuments, decodeValue, DecodeError } from './decode.js';
import { CleatCodes, didYouMean } from './diagnostics.js';
import { lookupSchemaType, schemaNamespace } from './openapi.js';
import { parseProgram } from './parser.js';
import { displayPath, resolveImportPath } from './paths.js';
import { T, union, type Field, type Ty } from './types.js';
import { isObject, toJsonValue, type Value } from './value.js';

export class ModuleLoader {
  private readonly modules = new Map<string, ModuleCtx>();
  private readonly texts = new Map<string, string | { error: string }>();
  private readonly schemaDocs = new Map<string, unknown[] | string>();
  private readonly stack: string[] = [];

  constructor(private readonly loader: CleatLoader) {}

  private read(path: string): string | { error: string } {
    let t = this.texts.get(path);
    if (t === undefined) {
      t = this.loader.read(path);
      this.texts.set(path, t);
    }
    return t;
  }

  /** Parses, binds imports and checks one module (the entry when `isEntry`). */
  load(path: string, text: string, isEntry: boolean): ModuleCtx {
    const cached = this.modules.get(path);
    if (cached) return cached;
    const file = new SourceFile(
      isEntry ? displayName(this.loader.root, path) : displayName(this.loader.root, path),
      text,
    );
    const parsed = parseProgram(file);
    const ctx = newModuleCtx(path, file, parsed.program, isEntry);
    ctx.diagnostics.push(...parsed.diagnostics);
    this.modules.set(path, ctx);
    this.stack.push(path);
    try {
      for (const it of parsed.program.items) if (it.kind === 'Import') this.bindImport(ctx, it);
    } finally {
      this.stack.pop();
    }
    checkModule(ctx);
    return ctx;
  }

  private bindImport(ctx: ModuleCtx, it: A.Item & { kind: 'Import' }): void {
    const err = (code: string, message: string, span = it.pathSpan): void => {
      ctx.diagnostics.push({ code, message, span });
    };
    const form = it.form;
    if (form.kind === 'default' && it.attrType === undefined) {
      return err(CleatCodes.IMPORT, 'a default import needs `with { type: "yaml" | "json" | "text" }`', it.span);
    }
    if (form.kind !== 'default' && it.attrType !== undefined) {
      return err(
        CleatCodes.IMPORT,
        'a `type` attribute is only allowed on a default import (`import x from "f" with { type: ... }`)',
        it.attrSpan ?? it.span,
      );
    }
    if (it.attrType !== undefined && !['yaml', 'json', 'text'].includes(it.attrType)) {
      return err(
        CleatCodes.IMPORT,
        `unknown import type ${JSON.stringify(it.attrType)}: use "yaml", "json" or "text"`,
        it.attrSpan ?? it.span,
      );
    }
    const resolved = resolveImportPath(this.loader.root, ctx.path, it.path);
    if ('error' in resolved) {
      return err(resolved.error.includes('root') ? CleatCodes.IMPORT_OUTSIDE_ROOT : CleatCodes.IMPORT, resolved.error);
    }
    const path = resolved.path;
    if (this.stack.includes(path)) {
      const cycle = [...this.stack.slice(this.stack.indexOf(path)), path]
        .map((p) => displayPath(this.loader.root, p))
        .join(' -> ');
      return err(CleatCodes.IMPORT_CYCLE, `import cycle: ${cycle}`);
    }
    const text = this.read(path);
    if (typeof text !== 'string')
      return err(CleatCodes.IMPORT, `cannot import ${JSON.stringify(it.path)}: ${text.error}`);

    if (form.kind === 'default') {
      const value = this.decodeData(text, it.attrType!, it.path, (m) => err(CleatCodes.IMPORT, m));
      if (value === undefined) return;
      ctx.globals.set(form.alias, { kind: 'data', value, type: typeOfData(value) });
      return;
    }
    let ns: Namespace;
    if (path.endsWith('.cleat')) {
      const mod = this.load(path, text, false);
      const errors = mod.diagnostics;
      for (const d of errors.slice(0, 20)) {
        const where = d.span ? formatLocation(d.span) : displayPath(this.loader.root, path);
        const md: Diagnostic = {
          code: d.code,
          message: `in imported module: ${where}: ${d.message}`,
          span: it.pathSpan,
        };
        if (d.path) md.path = d.path;
        ctx.diagnostics.push(md);
      }
      ns = { kind: 'module', ctx: mod };
    } else {
      const docs = this.schemaDocuments(path, text);
      if (typeof docs === 'string')
        return err(CleatCodes.IMPORT, `cannot read schema ${JSON.stringify(it.path)}: ${docs}`);
      const schema = schemaNamespace(docs);
      if (typeof schema === 'string')
        return err(CleatCodes.IMPORT, `cannot read schema ${JSON.stringify(it.path)}: ${schema}`);
      ns = { kind: 'schema', schema };
    }
    if (form.kind === 'namespace') {
      ctx.namespaces.set(form.alias, ns);
      return;
    }
    for (const n of form.names) {
      if (ns.kind === 'schema') {
        const r = lookupSchemaType(ns.schema, n.path);
        if (typeof r === 'string')
          err(r.includes('ambiguous') ? CleatCodes.AMBIGUOUS_NAME : CleatCodes.UNKNOWN_NAME, r, n.span);
        else ctx.types.set(n.alias, { k: 'named', cell: r });
        continue;
      }
      const m = ns.ctx;
      const name = n.path.join('.');
      const fn = m.fns.get(name);
      const g = m.globals.get(name);
      const t = m.types.get(name);
      if (fn) ctx.fns.set(n.alias, fn);
      else if (g) ctx.globals.set(n.alias, g);
      else if (t) ctx.types.set(n.alias, t);
      else
        err(
          CleatCodes.UNKNOWN_NAME,
          `module ${JSON.stringify(it.path)} has no \`${name}\`${didYouMean(name, [...m.fns.keys(), ...m.globals.keys(), ...m.types.keys()])}`,
          n.span,
        );
    }
  }

  private decodeData(text: string, type: string, spec: string, fail: (m: string) => void): Value | undefined {
    if (type === 'text') return text;
    try {
      return decodeValue(text, type as 'json' | 'yaml');
    } catch (e) {
      if (e instanceof DecodeError) {
        const at = e.line !== undefined ? ` at line ${e.line}, column ${e.column}` : '';
        fail(`cannot read ${JSON.stringify(spec)}: ${e.message}${at}${e.path ? ` (at ${e.path})` : ''}`);
        return undefined;
      }
      throw e;
    }
  }

  private schemaDocuments(path: string, text: string): unknown[] | string {
    const hit = this.schemaDocs.get(path);
    if (hit !== undefined) return hit;
    let out: unknown[] | string;
    try {
      const isJson = path.endsWith('.json');
      out = isJson ? [JSON.parse(text) as unknown] : decodeDocuments(text, 'yaml').map(toJsonValue);
    } catch (e) {
      out = e instanceof DecodeError || e instanceof SyntaxError ? e.message : 'unreadable document';
    }
    this.schemaDocs.set(path, out);
    return out;
  }
}

function displayName(root: string, path: string): string {
  return path.startsWith('/') ? displayPath(root, path) : path;
}

/** The type of imported data: exact records, scalars widened, list elements joined. */
function typeOfData(v: Value): Ty {
  if (v === null) return T.null;
  if (typeof v === 'boolean') return T.bool;
  if (typeof v === 'bigint') return T.int;
  if (typeof v === 'number') return T.float;
  if (typeof v === 'string') return T.str;
  if (Array.isArray(v)) return T.list(v.length ? union(v.map(typeOfData)) : T.json);
  if (isObject(v)) {
    const fields: Field[] = [...v.fields].map(([k, x]) => ({ name: k, type: typeOfData(x), optional: false }));
    return T.record(fields);
  }
  return T.json;
}
