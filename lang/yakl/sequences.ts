/**
 * Sequences: plain lists become arrays; with `${for}` and `${if}` items the
 * list is a sum of arrays, comprehensions `[body for ...]` and conditions
 * `(if c then [body] else [])`, in item order. Anchors on plain items get an
 * index from the start (before every loop) or from the end (after every loop).
 */
import { type Node as YNode, type YAMLSeq, isMap, isScalar } from 'yaml';
import { type Clause, asClause } from './expression.js';
import type { AnchorMode, DocScope, Generator } from './generator.js';
import { isLocalName } from './keys.js';

const SEQ_TAG = 'tag:yaml.org,2002:seq';

export function genSeq(g: Generator, scope: DocScope, seq: YAMLSeq, am: AnchorMode, opts: { fromEnd?: boolean }): void {
  g.checkCollectionTag(scope, seq, SEQ_TAG);
  g.registerAnchor(scope, seq, am);
  const items = seq.items;
  const clauses = items.map((item) => itemClause(g, scope, item));
  const loopIdx = clauses.flatMap((c, i) => (c ? [i] : []));
  for (const c of clauses) {
    if (!c) continue;
    const code = c.clause.kind === 'for' ? c.clause.code : c.clause.cond;
    const wrapped = c.clause.kind === 'for' ? `[null ${code}]` : `if ${code} then null`;
    g.checkSyntax(wrapped, c.at, false);
  }
  if (am.mode !== 'copy' && loopIdx.length > 0) {
    g.checkKeysDontReadInnerAnchors(
      seq,
      clauses.flatMap((c) => (c ? [{ kind: 'expr', code: '', at: c.at, clause: c.clause }] : [])),
    );
  }
  const n = items.length;
  const unknownIndex: AnchorMode = {
    mode: 'forbid',
    why: "on this list item: a later + key of the document (or a ^^+ document of the same name) adds to the list as well, so the item's index isn't known",
  };
  const itemMode = (i: number): AnchorMode => {
    if (am.mode !== 'record') return am;
    const fromEndHere = loopIdx.length === 0 ? Boolean(opts.fromEnd) : !(i < loopIdx[0]! && !opts.fromEnd);
    if (fromEndHere && am.laterPlus) return unknownIndex;
    if (loopIdx.length === 0)
      return { mode: 'record', path: [...am.path, opts.fromEnd ? { fromEnd: n - i } : { index: i }] };
    if (i < loopIdx[0]! && !opts.fromEnd) return { mode: 'record', path: [...am.path, { index: i }] };
    if (i > loopIdx[loopIdx.length - 1]!) return { mode: 'record', path: [...am.path, { fromEnd: n - i }] };
    return {
      mode: 'forbid',
      why: 'on a list item between loops: such an item has no fixed index (put it before every loop of its list, or after every loop)',
    };
  };
  g.moveTo(g.nodeAt(scope, seq));
  if (loopIdx.length === 0) {
    g.e.open('[', seq.flow);
    const comments = am.mode !== 'copy';
    items.forEach((item, i) => {
      if (comments) g.e.comment((item as YNode | null)?.commentBefore, false);
      g.genNode(scope, item, itemMode(i));
      g.e.sep();
      if (comments) g.e.comment((item as YNode | null)?.comment, true);
    });
    g.e.close(']');
    return;
  }
  let open = false;
  let first = true;
  const join = (): void => {
    if (!first) g.e.write(' + ');
    first = false;
  };
  items.forEach((item, i) => {
    const c = clauses[i];
    if (!c) {
      if (!open) {
        join();
        g.e.open('[', seq.flow);
        open = true;
      }
      g.genNode(scope, item, itemMode(i));
      g.e.sep();
      return;
    }
    if (open) {
      g.e.close(']');
      open = false;
    }
    join();
    const bodyMode: AnchorMode =
      am.mode === 'copy'
        ? am
        : { mode: 'forbid', why: 'inside the body of a ${for} or ${if} item, which is repeated or left out' };
    if (c.clause.kind === 'for') {
      g.e.write('[');
      g.genNode(scope, c.body, bodyMode);
      g.e.flat(() => g.e.write(` ${c.clause.kind === 'for' ? c.clause.code : ''}]`));
    } else {
      g.moveTo(c.at);
      g.e.write(`(if ${c.clause.cond} then [`);
      g.genNode(scope, c.body, bodyMode);
      g.e.write('] else [])');
    }
  });
  if (open) g.e.close(']');
}

function itemClause(
  g: Generator,
  scope: DocScope,
  item: unknown,
): { clause: Clause; body: unknown; at: number } | null {
  if (!isMap(item)) return null;
  let found: { clause: Clause; body: unknown; at: number } | null = null;
  for (const pair of item.items) {
    const k = pair.key as YNode | null;
    if (!isScalar(k)) continue;
    const expr = g.scalarExpression(scope, k);
    const clause = expr ? asClause(expr.code) : null;
    if (clause && expr) {
      found = { clause, body: pair.value, at: expr.at };
      break;
    }
  }
  if (!found) return null;
  const word = found.clause.kind;
  if (item.items.length > 1) {
    g.fail(
      found.at,
      'YAKL_BODY_INDENT',
      `the body of a \${${word}} item is written at the clause's indentation, which puts its keys next to the clause; indent the body under the clause`,
    );
  }
  const b = found.body as YNode | null;
  if (
    b === null ||
    b === undefined ||
    (isScalar(b) && b.value === null && (b.source === '' || b.source === undefined))
  ) {
    g.fail(found.at, 'YAKL_BODY_EMPTY', `the \${${word}} item has an empty body; indent the body under the clause`);
  }
  if (item.anchor && isLocalName(item.anchor))
    g.fail(g.nodeAt(scope, item), 'YAKL_ANCHOR_PLACE', `anchor &${item.anchor} is not allowed on a \${${word}} item`);
  return found;
}
