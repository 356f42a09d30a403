/**
 * Anchors as locals: the path from a document's root to an anchored node,
 * the `name = yakl__root.path` bindings written after the document, and the
 * anchors a subtree declares. Paths count list items from the start or, under
 * `+` keys and after loops, from the end.
 */
import { type Node as YNode, isAlias, isMap, isScalar, isSeq } from 'yaml';
import { isIdentifier, isLocalName } from './keys.js';

export type PathSeg = { field: string } | { index: number } | { fromEnd: number };

export interface AnchorInfo {
  name: string;
  path: PathSeg[];
  at: number;
}

function indexPath(root: string, path: PathSeg[]): string {
  let out = root;
  for (const seg of path) {
    if ('field' in seg) out += isIdentifier(seg.field) ? `.${seg.field}` : `[${JSON.stringify(seg.field)}]`;
    else if ('index' in seg) out += `[${seg.index}]`;
    else out += `[std.length(${out}) - ${seg.fromEnd}]`;
  }
  return out;
}

/** `name = yakl__root.path` for each anchor, in source order. */
export function anchorBindings(anchors: Iterable<AnchorInfo>, root: string): string[] {
  return [...anchors].sort((a, b) => a.at - b.at).map((a) => `${a.name} = ${indexPath(root, a.path)}`);
}

/** Names of the anchors in a subtree (not following aliases) that become locals. */
export function collectAnchors(node: unknown, into: Set<string>): void {
  if (!node || typeof node !== 'object' || isAlias(node)) return;
  const n = node as YNode;
  if ((isScalar(n) || isMap(n) || isSeq(n)) && n.anchor && isLocalName(n.anchor)) into.add(n.anchor);
  if (isMap(n)) for (const p of n.items) collectAnchors(p.value, into);
  else if (isSeq(n)) for (const i of n.items) collectAnchors(i, into);
}
