/**
 * `kubecfg traceback FILE.yaml:LINE`, first half: which object of a rendered
 * YAML stream holds line LINE, and the value path of the field (or sequence
 * item) written on that line, relative to that object (kubecfg's yamloc):
 * a line holding `key:` names that field; a line starting a sequence item
 * that is a mapping names the item's first key, as yamloc does; a scalar
 * item names the item. Every document of a `---` stream is searched (yamloc
 * reads only the first). Invariants: pure; positions come from the `yaml`
 * package's parse tree, so quoting, flow style and comments cannot shift
 * lines; errors are TracebackErrors naming the line and why, without quoting
 * the file's text (hazard 26).
 */
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node as YamlNode } from 'yaml';
import type { PathStep } from '../../lang/jsonnet/trace.js';
import { TracebackError } from './errors.js';

export interface LineTarget {
  /** 0-based index of the document in the stream. */
  documentIndex: number;
  /** Path of the field on the line, from the document's root. */
  steps: PathStep[];
  /** Reads a string at a path of the document (e.g. an annotation), or undefined. */
  stringAt(path: readonly string[]): string | undefined;
}

/** Yields [step, child] pairs of a collection, with the line each key or item starts on. */
function lineOf(lc: LineCounter, offset: number): number {
  return lc.linePos(offset).line;
}

function find(node: unknown, line: number, lc: LineCounter, steps: PathStep[]): PathStep[] | undefined {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key as YamlNode | null;
      const name = isScalar(key) ? String(key.value) : undefined;
      if (name === undefined || !key?.range) continue;
      if (lineOf(lc, key.range[0]) === line) return [...steps, name];
      const found = find(pair.value, line, lc, [...steps, name]);
      if (found) return found;
    }
    return undefined;
  }
  if (isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const item = node.items[i] as YamlNode | null;
      if (isScalar(item) && item.range && lineOf(lc, item.range[0]) === line) return [...steps, i];
      const found = find(item, line, lc, [...steps, i]);
      if (found) return found;
    }
  }
  return undefined;
}

function stringGetter(doc: Document.Parsed): (path: readonly string[]) => string | undefined {
  return (path) => {
    const v: unknown = doc.getIn(path, false);
    return typeof v === 'string' ? v : undefined;
  };
}

/** The document holding `line` (1-based) of `text`, and the path of the field on it. */
export function lineToPath(text: string, line: number, fileName: string): LineTarget {
  if (!Number.isInteger(line) || line < 1)
    throw new TracebackError(`${fileName}: line must be a number from 1, got ${line}`);
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs as unknown as Document.Parsed];
  for (const [i, doc] of list.entries()) {
    const err = doc.errors[0];
    if (err) {
      const p = lc.linePos(err.pos[0]);
      throw new TracebackError(`${fileName}:${p.line}:${p.col}: not valid YAML (${err.code})`);
    }
    const [start, , end] = doc.range;
    if (line < lineOf(lc, start) || line > lineOf(lc, Math.max(start, end - 1))) continue;
    const steps = find(doc.contents, line, lc, []);
    if (steps) return { documentIndex: i, steps, stringAt: stringGetter(doc) };
  }
  throw new TracebackError(`${fileName}:${line}: no field or list item starts on this line`);
}
