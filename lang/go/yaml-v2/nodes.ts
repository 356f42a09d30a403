/**
 * go-yaml v2's parser half (decode.go's node tree): the YAML syntax is read
 * by the `yaml` package, then turned into nodes that carry what go-yaml's
 * decoder looks at: kind, tag, text, whether the scalar was plain and
 * untagged (libyaml's "implicit"), and for an alias the node its anchor
 * named when the alias was read (a later `&a` does not change an earlier
 * `*a`; an unknown one is "unknown anchor 'a' referenced").
 * Invariants: nesting deeper than MAX_DEPTH is refused before the `yaml`
 * package sees the text (it recurses per level and would overflow the stack),
 * syntax errors carry Go's "yaml: line N:" prefix and the offset.
 */

import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments } from 'yaml';
import type { Document } from 'yaml';
import { GoYamlError } from './errors.js';

/**
 * One depth limit for the document's nesting and for aliases expanded inside
 * each other. go-yaml's is 10000 (flow levels and block indents each); ours is
 * lower because the JS stack, not a counter, would otherwise stop us first.
 */
export const MAX_DEPTH = 500;

export interface YamlNode {
  kind: 'scalar' | 'map' | 'seq' | 'alias';
  /** The explicit tag in long form (`tag:yaml.org,2002:int`, `!foo`), '' when none. */
  tag: string;
  /** A scalar's text, an alias's anchor name. */
  value: string;
  /** Plain and untagged: the only scalars resolved by YAML 1.1's implicit rules. */
  implicit: boolean;
  /** Offset in the document text, for a line number in messages. */
  offset: number;
  /** Sequence items; for a mapping key, value, key, value... */
  children: YamlNode[];
  alias?: YamlNode;
}

export function depthError(): GoYamlError {
  return new GoYamlError(`yaml: exceeded max depth of ${MAX_DEPTH}`, 'depth');
}

/**
 * Refuses text nested deeper than MAX_DEPTH: block levels (a stack of
 * indentations, plus `- `/`? ` written on one line) and flow brackets. Quotes
 * and comments are skipped roughly; a miscount only moves the limit, and the
 * parser's own stack overflow is still reported as the same error.
 */
function checkDepth(text: string): void {
  const indents: number[] = [];
  let flow = 0;
  let quote = '';
  let i = 0;
  while (i < text.length) {
    let lineEnd = text.indexOf('\n', i);
    if (lineEnd < 0) lineEnd = text.length;
    let p = i;
    if (flow === 0 && quote === '') {
      while (p < lineEnd && text[p] === ' ') p++;
      const indent = p - i;
      if (p < lineEnd && text[p] !== '#' && text[p] !== '\r') {
        while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
        let compact = 0;
        while ((text[p] === '-' || text[p] === '?') && (text[p + 1] === ' ' || text[p + 1] === '\t')) {
          compact++;
          p += 2;
          while (text[p] === ' ') p++;
        }
        if (indents.length + compact > MAX_DEPTH) throw depthError();
      }
    }
    for (; p < lineEnd; p++) {
      const c = text[p]!;
      if (quote !== '') {
        if (c === quote) quote = '';
        else if (c === '\\' && quote === '"') p++;
        continue;
      }
      const prev = p === 0 ? ' ' : text[p - 1]!;
      if ((c === '"' || c === "'") && ' \t[{,:'.includes(prev)) quote = c;
      else if (c === '#' && (prev === ' ' || prev === '\t')) break;
      else if (c === '[' || c === '{') {
        if (++flow + indents.length > MAX_DEPTH) throw depthError();
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
    i = lineEnd + 1;
  }
}

/** 1-based line of an offset; an error at the very end is on the last line, as go-yaml reports it. */
export function lineAt(text: string, offset: number): number {
  const end = text.endsWith('\n') ? text.length - 1 : text.length;
  let line = 1;
  for (let i = 0; i < offset && i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

class NodeBuilder {
  private readonly anchors = new Map<string, YamlNode>();

  node(n: unknown, depth: number, at: number): YamlNode {
    if (depth > MAX_DEPTH) throw depthError();
    if (n === null || n === undefined)
      return { kind: 'scalar', tag: '', value: '', implicit: true, offset: at, children: [] };
    const offset = (n as { range?: [number] }).range?.[0] ?? at;
    if (isAlias(n)) {
      const target = this.anchors.get(n.source);
      if (target === undefined) throw new GoYamlError(`yaml: unknown anchor '${n.source}' referenced`, 'decode');
      return { kind: 'alias', tag: '', value: n.source, implicit: false, offset, children: [], alias: target };
    }
    const tag = (n as { tag?: string }).tag ?? '';
    if (isScalar(n)) {
      const out: YamlNode = {
        kind: 'scalar',
        tag: tag === '!' ? '' : tag,
        value: typeof n.value === 'string' ? n.value : String(n.value ?? ''),
        implicit: n.type === 'PLAIN' && tag === '',
        offset,
        children: [],
      };
      this.anchor(n.anchor, out);
      return out;
    }
    if (isSeq(n) || isMap(n)) {
      const out: YamlNode = { kind: isSeq(n) ? 'seq' : 'map', tag, value: '', implicit: false, offset, children: [] };
      this.anchor(n.anchor, out);
      for (const item of n.items as unknown[]) {
        if (isMap(n)) this.pair(item, out.children, depth, offset);
        else if (isPair(item)) {
          // `[a: b]`: a single-pair mapping inside a flow sequence
          const m: YamlNode = { kind: 'map', tag: '', value: '', implicit: false, offset, children: [] };
          this.pair(item, m.children, depth + 1, offset);
          out.children.push(m);
        } else out.children.push(this.node(item, depth + 1, offset));
      }
      return out;
    }
    throw new GoYamlError('yaml: unsupported node', 'decode');
  }

  private pair(item: unknown, into: YamlNode[], depth: number, at: number): void {
    const p = item as { key?: unknown; value?: unknown };
    const key = this.node(p.key, depth + 1, at);
    into.push(key, this.node(p.value, depth + 1, key.offset));
  }

  private anchor(name: string | undefined, n: YamlNode): void {
    if (name !== undefined && name !== '') this.anchors.set(name, n);
  }
}

const OPTIONS = { version: '1.1', schema: 'failsafe', uniqueKeys: false, strict: false, prettyErrors: false } as const;

function syntaxError(text: string, doc: Document.Parsed): GoYamlError | undefined {
  const err = doc.errors[0];
  if (err === undefined) return undefined;
  const offset = err.pos[0];
  const line = lineAt(text, offset);
  return new GoYamlError(`yaml: line ${line}: ${err.message.split('\n')[0]}`, 'syntax', offset, line);
}

/** One document of a stream: its node (null when it holds none) and where it starts and ends in the text. */
export interface NodeDocument {
  node: YamlNode | null;
  start: number;
  end: number;
}

/**
 * The documents of a YAML stream as go-yaml's Decoder meets them. `first`
 * stops after the first document, as yaml.Unmarshal does (later documents
 * are not even checked).
 */
export function parseNodeDocuments(text: string, first: boolean): NodeDocument[] {
  checkDepth(text);
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, OPTIONS) as Document.Parsed[];
    if (!Array.isArray(docs)) return [];
  } catch (e) {
    if (e instanceof RangeError) throw depthError();
    throw e;
  }
  const out: NodeDocument[] = [];
  for (const doc of first ? docs.slice(0, 1) : docs) {
    const err = syntaxError(text, doc);
    if (err) throw err;
    try {
      const node = doc.contents === null ? null : new NodeBuilder().node(doc.contents, 0, 0);
      out.push({ node, start: doc.range[0], end: doc.range[2] });
    } catch (e) {
      if (e instanceof RangeError) throw depthError();
      throw e;
    }
  }
  return out;
}

/** Each document's node (see parseNodeDocuments). */
export function parseNodes(text: string, first: boolean): (YamlNode | null)[] {
  return parseNodeDocuments(text, first).map((d) => d.node);
}
