/**
 * Reads one ytt YAML file into a template: the YAML nodes (documents, map
 * items, array items) in source order, each with the annotations (`#@name
 * args`), code (`key: #@ expr`) and comments (`#!`) ytt attaches to it, and
 * the file's code lines (`#@ x = 1`, `#@ for ...`, `#@ end`). Attachment
 * follows ytt: a comment line belongs to the next node below it, a comment
 * after content on a line to the innermost node of that line.
 */
import {
  LineCounter,
  Parser,
  parseAllDocuments,
  isMap,
  isSeq,
  isScalar,
  isPair,
  type Node as YNode,
  type Document,
  type ParseOptions,
  type DocumentOptions,
  type SchemaOptions,
} from 'yaml';
import { YttError, type Where } from './errors.js';
import { SFloat, type Comment, type YScalar } from './nodes.js';
import type { SourceLine } from './starlark/lexer.js';

/** The file is not YAML (ytt reports it before any data values are looked at). */
export class YamlSyntaxError extends YttError {
  constructor(where: Where, reason: string) {
    super(where, `yaml: ${reason}`);
  }
}

export interface RawAnnotation {
  name: string;
  /** the text after the name: keyword and positional arguments as Starlark */
  text: string;
  where: Where;
}

export interface TemplateNode {
  id: number;
  kind: 'doc' | 'mapitem' | 'arrayitem';
  /** id of the enclosing node, -1 for documents */
  parent: number;
  key?: YScalar;
  /** the node's own value when it is a scalar */
  scalar?: YScalar;
  /** the node's value is a map or array whose items are child nodes */
  container?: 'map' | 'array';
  anns: RawAnnotation[];
  /** `key: #@ expr` */
  code?: { text: string; where: Where };
  comments: Comment[];
  blankBefore: boolean;
  where: Where;
  /** [start, end) offsets of the node in the file (for the converter) */
  span: [number, number];
}

export interface TemplateFile {
  path: string;
  text: string;
  nodes: TemplateNode[];
  /** the program: code lines and node placeholders in source order */
  program: SourceLine[];
  /** comments after the last node (the block a file ends with) */
  trailingComments: Comment[];
  /** true when the file has any `#@` line (ytt would evaluate it as code) */
  hasCode: boolean;
  /** the modules the file's code lines load (`@ytt:data`, `helpers.star`, `@myks:data.lib.yaml`), in order */
  loads: string[];
}

interface CommentTok {
  offset: number;
  source: string;
}

const YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  uniqueKeys: true,
  // go-yaml v2 (ytt's parser) leaves timestamps as strings
  customTags: (tags) => tags.filter((t) => (t as { tag?: string }).tag !== 'tag:yaml.org,2002:timestamp'),
};

export function parseTemplate(path: string, text: string): TemplateFile {
  const lc = new LineCounter();
  const cst = [...new Parser(lc.addNewLine).parse(text)];
  const comments: CommentTok[] = [];
  const dashes: number[] = [];
  const docStarts: number[] = [];
  const walk = (t: unknown): void => {
    if (Array.isArray(t)) {
      for (const x of t) walk(x);
      return;
    }
    if (!t || typeof t !== 'object') return;
    const o = t as Record<string, unknown>;
    if (o.type === 'comment') comments.push({ offset: o.offset as number, source: o.source as string });
    if (o.type === 'seq-item-ind') dashes.push(o.offset as number);
    if (o.type === 'doc-start') docStarts.push(o.offset as number);
    for (const v of Object.values(o)) if (v && typeof v === 'object') walk(v);
  };
  walk(cst);
  comments.sort((a, b) => a.offset - b.offset);
  dashes.sort((a, b) => a - b);

  const pos = (offset: number): Where => {
    const p = lc.linePos(offset);
    return { file: path, line: p.line, column: p.col };
  };
  const docs = parseAllDocuments(text, YAML_OPTIONS) as Document[] | { errors: unknown[] };
  if (!Array.isArray(docs)) throw new YttError({ file: path, line: 1, column: 1 }, 'not a YAML stream');
  for (const d of docs) {
    const err = d.errors[0];
    if (err)
      throw new YamlSyntaxError(pos(err.pos[0]), firstLine(err.message).replace(/ at line \d+, column \d+:?$/, ''));
  }

  const nodes: TemplateNode[] = [];
  const mk = (n: Omit<TemplateNode, 'id' | 'anns' | 'comments' | 'blankBefore'>): TemplateNode => {
    const node: TemplateNode = { ...n, id: nodes.length, anns: [], comments: [], blankBefore: false };
    nodes.push(node);
    return node;
  };
  const scalarOf = (n: YNode | null | undefined): YScalar => {
    if (!n) return null;
    if (!isScalar(n)) return null;
    const v = n.value;
    if (typeof v === 'number') {
      const src = text.slice(n.range![0], n.range![1]).trim();
      const isInt = /^[-+]?(0|[1-9][0-9_]*|0[0-7_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|0b[01_]+)$/.test(src);
      return isInt && Number.isFinite(v) ? v : new SFloat(v);
    }
    if (typeof v === 'bigint') return Number(v);
    if (v === undefined) return null;
    return v as YScalar;
  };
  const fill = (owner: TemplateNode, value: YNode | null | undefined): void => {
    if (value && isMap(value)) {
      owner.container = 'map';
      for (const pair of value.items) {
        if (!isPair(pair)) continue;
        const keyNode = pair.key as YNode | null;
        const start = keyNode?.range?.[0] ?? 0;
        const valNode = pair.value as YNode | null;
        const end = valNode?.range?.[1] ?? keyNode?.range?.[1] ?? start;
        const item = mk({
          kind: 'mapitem',
          parent: owner.id,
          key: scalarOf(keyNode),
          where: pos(start),
          span: [start, end],
        });
        if (keyNode && !isScalar(keyNode)) throw new YttError(item.where, 'Expected map key to be a scalar');
        fill(item, valNode);
      }
    } else if (value && isSeq(value)) {
      owner.container = 'array';
      for (const it of value.items) {
        const n = it as YNode | null;
        const vstart = n?.range?.[0] ?? value.range![0];
        // the `-` of this item: the last one at or before its value
        let lo = 0;
        let hi = dashes.length - 1;
        let dash = vstart;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          const d = dashes[mid]!;
          if (d <= vstart) {
            if (d >= value.range![0]) dash = d;
            lo = mid + 1;
          } else hi = mid - 1;
        }
        const item = mk({
          kind: 'arrayitem',
          parent: owner.id,
          where: pos(dash),
          span: [dash, n?.range?.[1] ?? dash + 1],
        });
        fill(item, n);
      }
    } else {
      owner.scalar = scalarOf(value);
    }
  };
  let di = 0;
  // a document without `---` begins where the file begins: before any code line
  const implicitDocs = new Set<number>();
  for (const d of docs) {
    const contentStart = d.contents?.range?.[0];
    // the `---` of this document, when it has one
    const range = d.range ?? [0, text.length, text.length];
    let start = range[0];
    while (di < docStarts.length && docStarts[di]! <= (contentStart ?? range[1])) start = docStarts[di++]!;
    const doc = mk({ kind: 'doc', parent: -1, where: pos(start), span: [start, range[2]] });
    if (!docStarts.includes(start)) implicitDocs.add(doc.id);
    fill(doc, d.contents);
  }

  // Attach comments: a full-line comment to the next node below it, an inline one to the innermost node of its line.
  const lineOf = (n: TemplateNode): number => n.where.line;
  const byLine = new Map<number, TemplateNode[]>();
  for (const n of nodes) {
    const l = lineOf(n);
    if (!byLine.has(l)) byLine.set(l, []);
    byLine.get(l)!.push(n);
  }
  const sortedNodes = [...nodes].sort((a, b) => a.where.line - b.where.line || a.id - b.id);
  const program: SourceLine[] = [];
  type Ev = { line: number; order: number; run: () => void };
  const events: Ev[] = [];
  let pendingComments: Comment[] = [];
  const trailing: Comment[] = [];
  let hasCode = false;
  const lines = text.split('\n');
  for (const c of comments) {
    const w = pos(c.offset);
    const lineText = lines[w.line - 1] ?? '';
    const fullLine = lineText.slice(0, w.column - 1).trim() === '' || lineText.slice(0, w.column - 1).trim() === '-';
    const src = c.source;
    const where = w;
    if (src.startsWith('#@')) hasCode = true;
    if (!src.startsWith('#@') && !src.startsWith('#!')) {
      throw new YttError(where, "Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments)", [
        `Compiling YAML template '${path}':`,
        `Failed to parse line ${w.line}: '${src}':`,
      ]);
    }
    const inlineOwner = !fullLine || lineText.trim().startsWith('- ') ? (byLine.get(w.line) ?? []).at(-1) : undefined;
    events.push({
      line: w.line,
      order: fullLine && !inlineOwner ? 0 : 2,
      run: () => {
        if (src.startsWith('#!')) {
          const cm: Comment = { text: src.slice(2), marker: '#!', where };
          if (inlineOwner) return; // a comment after a value, on its line: left behind
          pendingComments.push(cm);
          return;
        }
        const body = src.slice(2);
        if (body === '' || body.startsWith(' ')) {
          // code
          if (inlineOwner) {
            if (inlineOwner.code) throw new YttError(where, 'Expected only one code annotation per node');
            inlineOwner.code = { text: body.trim(), where: { ...where, column: where.column + 3 } };
          } else if (body.trim() !== '') program.push({ text: body, file: path, line: w.line, column: w.column + 2 });
          return;
        }
        const m = /^([A-Za-z0-9_./-]+)(.*)$/.exec(body);
        if (!m) throw new YttError(where, `Expected annotation name after '#@', got '${body}'`);
        const ann: RawAnnotation = { name: m[1]!, text: m[2]!.trim(), where };
        if (inlineOwner) inlineOwner.anns.push(ann);
        else pendingAnns.push(ann);
      },
    });
  }
  let pendingAnns: RawAnnotation[] = [];
  let lastContentLine = 0;
  for (const n of sortedNodes) {
    events.push({
      line: implicitDocs.has(n.id) ? 0 : n.where.line,
      order: 1,
      run: () => {
        n.anns.push(...pendingAnns);
        n.comments.push(...pendingComments);
        const firstLine = pendingComments[0]?.where.line ?? pendingAnns[0]?.where.line ?? n.where.line;
        n.blankBefore =
          lastContentLine > 0 &&
          firstLine - lastContentLine > 1 &&
          lines.slice(lastContentLine, firstLine - 1).some((l) => l.trim() === '');
        pendingAnns = [];
        pendingComments = [];
        lastContentLine = n.where.line;
        program.push({ text: '', file: path, line: n.where.line, column: n.where.column, node: n.id });
      },
    });
  }
  events.sort((a, b) => a.line - b.line || a.order - b.order);
  for (const e of events) e.run();
  trailing.push(...pendingComments);
  const a = pendingAnns[0];
  if (a) {
    throw new YttError(a.where, `Expected YAML node after annotation '${a.name}'`);
  }
  // an annotation or code comment written inline on a node line belongs to that node; normalize inline anns order
  const loads = program.flatMap((l) => [...l.text.matchAll(/\bload\(\s*["']([^"']+)["']/g)].map((m) => m[1]!));
  return { path, text, nodes, program, trailingComments: trailing, hasCode, loads };
}

function firstLine(s: string): string {
  const nl = s.indexOf('\n');
  return nl < 0 ? s : s.slice(0, nl);
}
