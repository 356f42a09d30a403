/**
 * One legacy data-values file as the converter sees it: the values it states
 * (with their comments), the paths it computes, and how it was read. A file
 * that reads nothing outside itself is resolved by lang/ytt standalone (so a
 * schema document's defaults carry ytt's schema semantics); a file that needs
 * the render context (`@ytt:data`, `@myks:...`) is split: its plain values are
 * kept, its computed ones left out to be frozen at the leaves; a file whose
 * code rewrites values (loops, overlays that replace/remove/append/insert,
 * text templates) is skipped whole and frozen.
 */
import { parseTemplate, resolveDataValues, YttError, type TemplateFile, type TemplateNode } from '../ytt/index.js';
import { commentLines, fromYtt, type Entry, type Item, type Value } from './kcl-write.js';
import { translate } from './translate.js';
import type { Lambda } from './translate-library.js';
import { nodePath } from './node-path.js';

export type SourceKind = 'plain' | 'resolved' | 'split' | 'skipped';

export interface SourceValues {
  path: string;
  kind: SourceKind;
  /** the values the file states (a map), undefined when nothing is left */
  value?: { map: Entry[] };
  /** dotted paths of the values left out (computed), to freeze at the leaves */
  computed: string[];
  /** the comment block the file ends with */
  trailing: string[];
  /** comment lines carried (for the Renovate and stale-name reports) */
  comments: string[];
  /** #@schema/validation annotations: dotted path and text */
  validations: { path: string; text: string }[];
  template?: TemplateFile;
  reason?: string;
  /** the file holds a `#@data/values-schema` document (its arrays' items are element schemas) */
  isSchema: boolean;
  /** translated derivations: module-level `_name = expr` lines the file's values read (docs/myks.md) */
  prelude: string[];
  /** `key: #@ expr` values kept as the literal ytt resolved */
  untranslated?: number;
  /** the prelude names (without `_`), to keep a level's files from binding one name twice */
  preludeNames: string[];
  /** the KCL expression of each prelude name, to tell one binding from another */
  preludeTexts?: string[];
  /** the imports the translated derivations need (`import lib`) */
  imports: string[];
  /** the ytt library lambdas the translated derivations call, to write in `<lib>/<file>.k` */
  lambdas: Lambda[];
  /** the dotted paths of the map-valued derivations (written as overrides, dropped where a leaf shows ytt merged them) */
  mapDerived?: string[];
  /** the template node of each value path (`a.b`, `a.[0].c`) */
  byPath: Map<string, TemplateNode>;
}

const REWRITES = /^overlay\/(remove|replace|append|insert)$/;
const TEMPLATED = 'yaml/text-templated-strings';

/** A node whose key or value is a text template: computed like `key: #@ expr`. */
export function isTemplated(t: TemplateFile, n: TemplateNode): boolean {
  const text = (v: unknown): boolean => typeof v === 'string' && v.includes('(@');
  if (!text(n.scalar) && !text(n.key)) return false;
  for (let c: TemplateNode | undefined = n; c; c = t.nodes[c.parent])
    if (c.anns.some((a) => a.name === TEMPLATED)) return true;
  return false;
}

export interface SourceContext {
  read(path: string): string | undefined;
  library: Record<string, string>;
  /** `file\0dotted.path` of map-valued derivations kept as literals */
  dropMaps?: ReadonlySet<string>;
}

export function readSource(ctx: SourceContext, path: string): SourceValues {
  const text = ctx.read(path) ?? '';
  const t = parseTemplate(path, text);
  const out: SourceValues = {
    path,
    kind: 'plain',
    computed: [],
    trailing: commentLines(t.trailingComments),
    comments: t.nodes.flatMap((n) => commentLines(n.comments)),
    validations: t.nodes
      .filter((n) => n.anns.some((a) => a.name === 'schema/validation'))
      .map((n) => ({ path: nodePath(t, n), text: n.anns.find((a) => a.name === 'schema/validation')!.text })),
    template: t,
    prelude: [],
    preludeNames: [],
    imports: [],
    lambdas: [],
    isSchema: t.nodes.some((n) => n.kind === 'doc' && n.anns.some((a) => a.name === 'data/values-schema')),
    byPath: new Map(t.nodes.filter((n) => n.kind !== 'doc').map((n) => [nodePath(t, n), n])),
  };
  const codeLines = t.program.filter((l) => l.node === undefined && l.text.trim() !== '');
  const blocks = codeLines.some((l) => /^(for|if|def|while)\b/.test(l.text.trim()));
  const needsContext = t.loads.some((m) => m === '@ytt:data' || m.startsWith('@myks:'));
  const rewrites = t.nodes.some((n) => n.anns.some((a) => REWRITES.test(a.name)));
  if (rewrites || (needsContext && blocks)) {
    out.kind = 'skipped';
    out.reason = rewrites ? 'an annotation rewrites values' : 'a loop or definition computes values';
    out.computed = t.nodes
      .filter((n) => n.kind === 'mapitem' && n.parent >= 0 && t.nodes[n.parent]!.kind === 'doc')
      .map((n) => String(n.key));
    return out;
  }
  if (!needsContext) {
    try {
      const r = resolveDataValues({ files: [path], reader: { read: ctx.read }, library: ctx.library });
      const v = r.values === null ? undefined : fromYtt(r.values);
      const templated = t.nodes.some((n) => n.anns.some((a) => a.name === TEMPLATED));
      out.kind = codeLines.length > 0 || templated || t.nodes.some((n) => n.code) ? 'resolved' : 'plain';
      if (v && typeof v === 'object' && 'map' in v) out.value = withNotes(t, v);
      // derivations are written where the file's values are (env.k, proto.k, app-<name>.k)
      if (out.kind === 'resolved' && out.value) translate(t, out, ctx);
      return out;
    } catch (err) {
      if (!(err instanceof YttError)) throw err;
      out.reason = err.message.split('\n')[0];
    }
  }
  return split(t, out);
}

/** The values a file states plainly; a node with code (`key: #@ expr`) is left out. */
function split(t: TemplateFile, out: SourceValues): SourceValues {
  out.kind = 'split';
  const build = (parent: number): Value | undefined => {
    const kids = t.nodes.filter((n) => n.parent === parent);
    const self = t.nodes[parent]!;
    if (self.container === 'array') {
      const items: Item[] = [];
      for (const k of kids) {
        // an element with a computed field cannot be stated without it: the array is computed
        if (k.code || isTemplated(t, k) || hasCodeBelow(t, k)) {
          out.computed.push(nodePath(t, self));
          return undefined;
        }
        const v = k.container ? build(k.id) : (k.scalar ?? null);
        if (v === undefined) return undefined;
        items.push({ value: v, comments: commentLines(k.comments), blankBefore: k.blankBefore });
      }
      return { list: items };
    }
    if (self.container !== 'map') return self.scalar ?? null;
    const entries: Entry[] = [];
    for (const k of kids) {
      if (k.code || isTemplated(t, k)) {
        out.computed.push(nodePath(t, k));
        continue;
      }
      const v = k.container ? build(k.id) : (k.scalar ?? null);
      if (v === undefined) continue;
      if (k.container === 'map' && v && typeof v === 'object' && 'map' in v && v.map.length === 0 && hasCodeBelow(t, k))
        continue;
      entries.push({ key: String(k.key), value: v, comments: commentLines(k.comments), blankBefore: k.blankBefore });
    }
    return { map: entries };
  };
  const entries: Entry[] = [];
  for (const d of t.nodes.filter((n) => n.kind === 'doc')) {
    const v = build(d.id);
    if (v && typeof v === 'object' && 'map' in v) entries.push(...v.map);
  }
  if (entries.length > 0) out.value = { map: entries };
  return out;
}

function hasCodeBelow(t: TemplateFile, n: TemplateNode): boolean {
  return t.nodes.some((k) => k.parent === n.id && (k.code !== undefined || isTemplated(t, k) || hasCodeBelow(t, k)));
}

/**
 * ytt's schema defaults are built fresh, without the comments the file wrote
 * above them: those are taken from the template by path.
 */
function withNotes(t: TemplateFile, v: { map: Entry[] }): { map: Entry[] } {
  const byPath = new Map<string, TemplateNode>();
  for (const n of t.nodes) if (n.kind !== 'doc') byPath.set(nodePath(t, n), n);
  const walk = (val: Value, path: string): void => {
    if (val && typeof val === 'object' && 'map' in val)
      for (const e of val.map) {
        const p = path ? `${path}.${e.key}` : e.key;
        const n = byPath.get(p);
        if (n && e.comments.length === 0) {
          e.comments = commentLines(n.comments);
          e.blankBefore = e.blankBefore || n.blankBefore;
        }
        walk(e.value, p);
      }
    if (val && typeof val === 'object' && 'list' in val)
      val.list.forEach((i, idx) => walk(i.value, `${path}.[${idx}]`));
  };
  walk(v, '');
  return v;
}

/** The value a template states under a node (its code left out): the shape of a schema array's item. */
export function templateValue(t: TemplateFile, n: TemplateNode): Value {
  if (!n.container) return n.scalar ?? null;
  const kids = t.nodes.filter((k) => k.parent === n.id && !k.code);
  const noted = (k: TemplateNode) => ({ comments: commentLines(k.comments), blankBefore: k.blankBefore });
  if (n.container === 'array') return { list: kids.map((k) => ({ value: templateValue(t, k), ...noted(k) })) };
  return { map: kids.map((k) => ({ key: String(k.key), value: templateValue(t, k), ...noted(k) })) };
}
