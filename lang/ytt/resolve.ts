/**
 * What `ytt -f FILE... --data-values-inspect` resolves: every file is run as
 * a template; the `#@data/values-schema` documents are overlaid into one
 * schema first, then the schema's defaults and every `#@data/values`
 * document, in file order, are overlaid one after the other, each result
 * type-checked (which fills defaults); finally the validations run.
 * Pure: files come through the injected reader, loads through the library map.
 */
import { YttError, nestedText, whereText, type Where } from './errors.js';
import { SFloat, YArray, YDoc, YMap, emptyMeta, type NodeMeta, type YValue } from './nodes.js';
import { encodeStruct, builtinModule, fromPlain } from './modules.js';
import { OverlayError, overlayDocument, setToYaml, stripOverlayAnns } from './overlay.js';
import { YamlSyntaxError, parseTemplate, type TemplateFile } from './parse.js';
import {
  SchemaError,
  defaultOf,
  schemaFromDoc,
  typeCheck,
  validate,
  type Invalidation,
  type SchemaType,
} from './schema.js';
import { Interp, Scope } from './starlark/interp.js';
import { tokenize } from './starlark/lexer.js';
import { Parser } from './starlark/parser.js';
import { SStruct } from './starlark/values.js';
import { runTemplate, toYaml, type ModuleLoader } from './template.js';

export interface YttReader {
  /** the text of a file, undefined when it does not exist */
  read(path: string): string | undefined;
}

export interface ResolveInput {
  /** the data-values files, in the order ytt is given them */
  files: string[];
  reader: YttReader;
  /**
   * Files `load()` can reach: library name → path. A name is what a load
   * spells relative to the root library (`global.star`, `helpers/x.star`) or
   * a private library file (`@myks:data.lib.yaml`).
   */
  library?: Record<string, string>;
  /** Modules given as values instead of files: load spec → exported names (plain JSON; objects become structs). */
  modules?: Record<string, Record<string, unknown>>;
  /** How a file is named in messages (ytt names a file given with -f by its base name). */
  displayName?: (path: string) => string;
  /**
   * Parsed files to reuse across resolutions (keyed by name and text, so an
   * edited file is parsed again): a caller resolving many applications of one
   * repository parses each shared file once.
   */
  templateCache?: Map<string, TemplateFile>;
}

function parseCached(input: ResolveInput, name: string, text: string): TemplateFile {
  const key = `${name}\u0000${text}`;
  const hit = input.templateCache?.get(key);
  if (hit) return hit;
  const t = parseTemplate(name, text);
  input.templateCache?.set(key, t);
  return t;
}

export interface DataValuesDoc {
  file: string;
  doc: YDoc;
}

export interface Resolved {
  /** the final data values (a map, or null when no file states any) */
  values: YValue;
  /** the merged schema, when any file has a schema document */
  schema?: SchemaType;
  /** every document in order, after its file's code ran (annotations evaluated) */
  schemaDocs: DataValuesDoc[];
  valueDocs: DataValuesDoc[];
  /** templates, parsed (comments, spans, annotations as written) */
  templates: TemplateFile[];
  /** validation failures of the final values (ytt fails the render on any) */
  invalidations: Invalidation[];
}

/** A resolution failure: ytt's message, several lines. */
export class DataValuesError extends YttError {
  constructor(where: Where | undefined, text: string) {
    super(where, text);
    // the text is ytt's whole message, positions included
    this.message = text;
  }
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
function dirName(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}
function joinPath(dir: string, rel: string): string {
  const parts = (dir ? dir + '/' + rel : rel).split('/');
  const out: string[] = [];
  for (const x of parts) {
    if (x === '.' || x === '') continue;
    if (x === '..') out.pop();
    else out.push(x);
  }
  return out.join('/');
}

class Loader implements ModuleLoader {
  private cache = new Map<string, Map<string, unknown>>();
  private loading = new Set<string>();
  /** library name of each loaded file path */
  private nameOf = new Map<string, string>();
  readonly templates: TemplateFile[] = [];
  constructor(
    private input: ResolveInput,
    private dataValues: () => unknown,
  ) {
    for (const [name, path] of Object.entries(input.library ?? {})) this.nameOf.set(path, name);
  }

  load(spec: string, from: string, where: Where): Map<string, unknown> {
    const builtin = builtinModule(spec, this.dataValues);
    if (builtin) return builtin;
    const given = this.input.modules?.[spec];
    if (given) return new Map(Object.entries(given).map(([k, v]) => [k, encodeStruct(fromPlain(v))]));
    let path: string | undefined;
    const lib = this.input.library ?? {};
    if (spec.startsWith('@')) path = lib[spec];
    else {
      const fromName = this.nameOf.get(from) ?? baseName(from);
      const name = joinPath(dirName(fromName), spec);
      path = lib[name] ?? lib[spec];
      if (path === undefined && this.input.reader.read(joinPath(dirName(from), spec)) !== undefined)
        path = joinPath(dirName(from), spec);
    }
    if (path === undefined)
      throw new YttError(
        where,
        `cannot load ${spec}: Expected to find file '${spec}' (hint: only files with .star, .lib.yaml extensions can be loaded; is it in the library?)`,
      );
    const cached = this.cache.get(path);
    if (cached) return cached;
    if (this.loading.has(path)) throw new YttError(where, `cannot load ${spec}: cycle in load graph`);
    const text = this.input.reader.read(path);
    if (text === undefined) throw new YttError(where, `cannot load ${spec}: file ${path} not found`);
    this.loading.add(path);
    try {
      let globals: Map<string, unknown>;
      if (path.endsWith('.star')) globals = this.runStar(path, text);
      else if (path.endsWith('.lib.yaml') || path.endsWith('.lib.yml')) {
        const t = parseCached(this.input, this.display(path), text);
        globals = runTemplate(t, { load: (s, _f, w) => this.load(s, path, w) }).globals;
      } else throw new YttError(where, `cannot load ${spec}: Expected file '${spec}' to be a .star or .lib.yaml file`);
      const exported = new Map([...globals].filter(([k]) => !k.startsWith('_')));
      this.cache.set(path, exported);
      return exported;
    } finally {
      this.loading.delete(path);
    }
  }

  private runStar(path: string, text: string): Map<string, unknown> {
    const file = this.display(path);
    const lines = text.split('\n').map((t, i) => ({ text: t, file, line: i + 1, column: 1 }));
    // ytt's Starlark closes blocks with `end`, in .star files too
    const stmts = new Parser(tokenize(lines, false), true).parseFile();
    const globals = new Map<string, unknown>();
    const interp = new Interp({ load: (s, w) => this.load(s, path, w), node: () => undefined });
    interp.exec(stmts, new Scope(globals, undefined, true));
    return globals;
  }

  display(path: string): string {
    return this.input.displayName ? this.input.displayName(path) : baseName(path);
  }
}

/** ytt's Document.IsEmpty: no value, or a map or array without items (what a template function's body leaves) */
function isEmptyDoc(d: YDoc): boolean {
  return d.value === null || ((d.value instanceof YMap || d.value instanceof YArray) && d.value.items.length === 0);
}

function hasAnn(meta: NodeMeta, name: string): boolean {
  return meta.anns.some((a) => a.name === name);
}

setToYaml((v, meta) => toYaml(v, meta.where));

interface Loaded {
  loader: Loader;
  schemaDocs: DataValuesDoc[];
  valueDocs: DataValuesDoc[];
  templates: TemplateFile[];
  valuesOrder: string;
}

/** Runs every file as a template and sorts its documents into schema and values documents. */
function loadDocuments(input: ResolveInput): Loaded {
  const loader = new Loader(input, () => new SStruct(new Map()));
  const schemaDocs: DataValuesDoc[] = [];
  const valueDocs: DataValuesDoc[] = [];
  const templates: TemplateFile[] = [];
  const texts = input.files.map((path) => input.reader.read(path));
  // ytt names the data-values files (those stating `#@data/values`) in its messages
  const valuesOrder = input.files
    .filter((_, i) => /#@data\/values(?!-schema)/.test(texts[i] ?? ''))
    .map((p) => loader.display(p))
    .join(', ');
  input.files.forEach((path, i) => {
    const text = texts[i];
    const name = loader.display(path);
    try {
      if (text === undefined) throw new YttError(undefined, `file not found: ${path}`);
      const t = parseCached(input, name, text);
      templates.push(t);
      const docs = runTemplate(t, { load: (sp, _f, w) => loader.load(sp, path, w) }).docs;
      let values = 0;
      let others = 0;
      for (const d of docs) {
        const isSchema = hasAnn(d.meta, 'data/values-schema');
        const isValues = hasAnn(d.meta, 'data/values');
        if (isSchema && isValues)
          throw new YttError(
            d.meta.where,
            "Expected a document to have only one of '@data/values' and '@data/values-schema'",
          );
        if (isSchema) schemaDocs.push({ file: name, doc: d });
        else if (isValues) {
          valueDocs.push({ file: name, doc: d });
          values++;
        } else if (!isEmptyDoc(d)) others++;
      }
      if (values && others)
        throw new YttError(undefined, `Expected data values file '${name}' to only have data values documents`);
    } catch (e) {
      if (!(e instanceof YttError)) throw e;
      if (e instanceof YamlSyntaxError)
        throw new DataValuesError(
          e.where,
          `Unmarshaling YAML template '${name}': yaml: line ${e.where!.line}: ${e.reason.slice(6)}`,
        );
      const reason = e.context.length || !e.where ? e.reason : `${whereText(e.where)}: ${e.reason}`;
      throw new DataValuesError(
        e.where,
        nestedText([
          `Overlaying data values (in following order: ${valuesOrder}):`,
          `Templating file '${name}':`,
          ...e.context,
          reason,
        ]),
      );
    }
  });
  return { loader, schemaDocs, valueDocs, templates, valuesOrder };
}

function mergeSchema(l: Loaded): SchemaType | undefined {
  if (!l.schemaDocs.length) return undefined;
  const order = [...new Set(l.schemaDocs.map((d) => d.file))].join(', ');
  try {
    let merged: YDoc | undefined;
    for (const { doc } of l.schemaDocs) {
      merged = merged ? overlayDocument(merged, doc) : new YDoc(doc.value, doc.meta);
      stripOverlayAnns(merged.value);
    }
    return schemaFromDoc(merged!, (v) => toYaml(v, merged!.meta.where));
  } catch (e) {
    throw wrapError(e, `Overlaying data values schema (in following order: ${order}): `, l.templates);
  }
}

/** The schema the files declare, as `ytt --data-values-schema-inspect` sees it (undefined: no schema document). */
export function resolveSchema(input: ResolveInput): SchemaType | undefined {
  return mergeSchema(loadDocuments(input));
}

/** Resolves the data values of the files, as `ytt --data-values-inspect` does. */
export function resolveDataValues(input: ResolveInput): Resolved {
  const l = loadDocuments(input);
  const schema = mergeSchema(l);
  let current: YDoc | undefined = schema
    ? new YDoc(defaultOf(schema), emptyMeta({ file: '', line: 0, column: 0 }))
    : undefined;
  try {
    if (current && schema) typeCheck(current, schema);
    for (const { doc } of l.valueDocs) {
      current = current ? overlayDocument(current, doc) : new YDoc(doc.value, doc.meta);
      stripOverlayAnns(current.value);
      if (schema) typeCheck(current, schema);
    }
  } catch (e) {
    throw wrapError(e, `Overlaying data values (in following order: ${l.valuesOrder}): `, l.templates);
  }
  const values = current ? current.value : null;
  const invalidations = validate(values, schema, (v) => v);
  return {
    values: values ?? new YMap(),
    schema,
    schemaDocs: l.schemaDocs,
    valueDocs: l.valueDocs,
    templates: l.templates,
    invalidations,
  };
}

function excerpt(templates: TemplateFile[], w: Where): string {
  const t = templates.find((x) => x.path === w.file);
  const line = t ? (t.text.split('\n')[w.line - 1] ?? '') : '';
  const n = String(w.line).padStart(3);
  const pad = ' '.repeat(n.length + 1);
  return `${w.file}:\n${pad}|\n${n} | ${line}\n${pad}|\n`;
}

function wrapError(e: unknown, prefix: string, templates: TemplateFile[]): unknown {
  if (e instanceof OverlayError) return new DataValuesError(undefined, prefix.trimEnd() + '\n' + e.render(2));
  if (e instanceof SchemaError) {
    const title = (e.violations[0] as { title?: string }).title;
    let msg = `${prefix}\n${e.title}\n${'='.repeat(e.title.length)}\n\n`;
    for (const v of e.violations) {
      if (title) msg += `${title}\n`;
      msg += excerpt(templates, v.where) + '\n';
      msg += `    = found: ${v.found}\n    = expected: ${v.expected}\n`;
      for (const h of v.hints) msg += `    = hint: ${h}\n`;
      msg += '\n';
    }
    return new DataValuesError(undefined, msg.trimEnd());
  }
  if (e instanceof YttError) return new DataValuesError(e.where, prefix + e.reason);
  return e;
}

/** ytt's `Validating final data values:` message for invalidations (empty when none). */
export function invalidationsText(inv: Invalidation[]): string {
  if (!inv.length) return '';
  let msg = 'Validating final data values:\n';
  for (const i of inv) {
    msg += `  ${i.path}\n    from: ${i.from.file}:${i.from.line}\n`;
    for (const v of i.violations) {
      msg += `    - must be: ${v.mustBe} (by: ${v.by.file}:${v.by.line})\n`;
      if (v.found) msg += `      found: ${v.found}\n`;
    }
    msg += '\n';
  }
  return msg;
}

export { SFloat, YArray, YMap };
