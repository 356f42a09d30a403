/**
 * `kubecfg traceback FILE.yaml:LINE`, first half: which object of a rendered
 * YAML stream holds line LINE, and the value path of the field (or sequence
 * item) written on that line, relative to that object (kubecfg's yamloc):
 * a line holding `key:` names that field; a line starting a sequence item
 * that is a mapping names the item's first key, as yamloc does; a scalar
 * item names the item. Every document of a `---` stream is searched (yamloc
 * reads only the first). Invariants: pure; positions come from go-yaml's node
 * tree (lang/go/yaml-v2), so quoting, flow style and comments cannot shift
 * lines; errors are TracebackErrors naming the line and why, without quoting
 * the file's text (hazard 26).
 */
import {
  decodeYamlNode,
  GoMap,
  GoYamlError,
  parseYamlNodes,
  yamlLineAt,
  type GoValue,
  type YamlNode,
  type YamlNodeDocument,
} from '../../lang/go/yaml-v2.js';
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

function find(text: string, node: YamlNode | null, line: number, steps: PathStep[]): PathStep[] | undefined {
  if (node === null) return undefined;
  if (node.kind === 'map') {
    for (let i = 0; i < node.children.length; i += 2) {
      const key = node.children[i]!;
      if (key.kind !== 'scalar') continue;
      if (yamlLineAt(text, key.offset) === line) return [...steps, key.value];
      const found = find(text, node.children[i + 1]!, line, [...steps, key.value]);
      if (found) return found;
    }
    return undefined;
  }
  if (node.kind === 'seq') {
    for (const [i, item] of node.children.entries()) {
      if (item.kind === 'scalar' && yamlLineAt(text, item.offset) === line) return [...steps, i];
      const found = find(text, item, line, [...steps, i]);
      if (found) return found;
    }
  }
  return undefined;
}

function stringGetter(text: string, doc: YamlNodeDocument): (path: readonly string[]) => string | undefined {
  let value: GoValue | undefined;
  return (path) => {
    try {
      value ??= decodeYamlNode(text, doc.node);
    } catch {
      return undefined;
    }
    let v: GoValue = value;
    for (const step of path) {
      if (!(v instanceof GoMap)) return undefined;
      const at = v.keys.indexOf(step);
      if (at < 0) return undefined;
      v = v.values[at]!;
    }
    return typeof v === 'string' ? v : undefined;
  };
}

/** The document holding `line` (1-based) of `text`, and the path of the field on it. */
export function lineToPath(text: string, line: number, fileName: string): LineTarget {
  if (!Number.isInteger(line) || line < 1)
    throw new TracebackError(`${fileName}: line must be a number from 1, got ${line}`);
  let docs: YamlNodeDocument[];
  try {
    docs = parseYamlNodes(text, false);
  } catch (e) {
    if (!(e instanceof GoYamlError)) throw e;
    const at = e.offset;
    if (at === undefined) throw new TracebackError(`${fileName}: not valid YAML (${e.kind})`);
    const column = at - text.lastIndexOf('\n', at - 1);
    throw new TracebackError(`${fileName}:${yamlLineAt(text, at)}:${column}: not valid YAML`);
  }
  for (const [i, doc] of docs.entries()) {
    if (line < yamlLineAt(text, doc.start) || line > yamlLineAt(text, Math.max(doc.start, doc.end - 1))) continue;
    const steps = find(text, doc.node, line, []);
    if (steps) return { documentIndex: i, steps, stringAt: stringGetter(text, doc) };
  }
  throw new TracebackError(`${fileName}:${line}: no field or list item starts on this line`);
}
