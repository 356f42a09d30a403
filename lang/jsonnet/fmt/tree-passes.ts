/**
 * jsonnetfmt's tree-rewriting passes in one walk. jsonnetfmt runs each over
 * the whole tree, one after another, in this order (sort-imports before them
 * and fix-indentation after them stay separate):
 *   P0 enforce-max-blank-lines   P1 fix-newlines         P2 fix-trailing-commas
 *   P3 fix-parens                P4 fix-plus-object      P5 no-redundant-slice-colon
 *   P6 pretty-field-names        P7 enforce-string-style P8 enforce-comment-style
 * Here the walk applies P0..P7 to a node when it enters it (top-down, as
 * jsonnetfmt's passes do), then goes through the node's slots in source order,
 * applying P8 to its fodder and recursing into its children. Same result,
 * because:
 *  - P1..P7 at a node read and write only that node's own slots and its direct
 *    children (P1 also the fodder before a child's first token); nothing done
 *    at a descendant touches those, so each pass finds at each node what it
 *    would find after the earlier passes had run over the whole tree.
 *  - P3 drops the inner node of `((e))`; jsonnetfmt ran P0 and P1 on that node
 *    before dropping it (P2 does nothing to parentheses), and so do we.
 *  - P0 must cap every fodder once, before any move merges it into another
 *    (a merge adds up blank lines and is not capped again). A node caps its own
 *    slots and its children's leading fodder on entry, before its own moves;
 *    moves only go into a node's own slots or its children's, so no capped
 *    fodder is capped twice after a merge.
 *  - P8 depends on order only through the she-bang rule (the first comment of
 *    the file); it sees each slot after every move into it, in source order.
 * tree-passes.test.ts checks this walk against the passes run one by one.
 */
import { commentRestyler } from './enforce-comment-style.js';
import { capBlankLines } from './enforce-max-blank-lines.js';
import { enforceStringStyleAt } from './enforce-string-style.js';
import type { Fodder } from './fodder.js';
import { fixNewlinesAt } from './fix-newlines.js';
import { collapseParens, doubledParens } from './fix-parens.js';
import { fixPlusObjectAt } from './fix-plus-object.js';
import { fixTrailingCommasAt } from './fix-trailing-commas.js';
import { noRedundantSliceColonAt } from './no-redundant-slice-colon.js';
import { prettyFieldNamesAt } from './pretty-field-names.js';
import type { LiteralString, Node, Parens } from './tree.js';
import { visitPassSlots, type SlotVisitor } from './walk.js';

export interface TreePassOptions {
  /** 0 leaves blank lines alone. */
  maxBlankLines: number;
  prettyFieldNames: boolean;
  stringStyle: 'd' | 's' | 'l';
  commentStyle: 'h' | 's' | 'l';
}

/** Runs P0..P8 over the tree (and P0, P8 over the fodder at end of file); returns the new root. */
export function runTreePasses(body: Node, finalFodder: Fodder, options: TreePassOptions): Node {
  return new TreePasses(options).run(body, finalFodder);
}

const ignoreFodder = (): void => {};

class TreePasses {
  private readonly maxBlankLines: number;
  private readonly prettyFieldNames: boolean;
  private readonly stringStyle: 'd' | 's' | 'l';
  private readonly restyle: ((fodder: Fodder) => void) | null;
  /** P0 over one node's own slots and its children's leading fodder (not recursive). */
  private readonly capper: SlotVisitor;
  /** Recursion into children, with P8 on the slots in between. */
  private readonly walker: SlotVisitor;

  constructor(o: TreePassOptions) {
    const max = o.maxBlankLines;
    this.maxBlankLines = max;
    this.prettyFieldNames = o.prettyFieldNames;
    this.stringStyle = o.stringStyle;
    this.restyle = o.commentStyle === 'l' ? null : commentRestyler(o.commentStyle);
    this.capper = {
      node(child) {
        capBlankLines(child.fodder, max);
        return child;
      },
      fodder(fodder) {
        capBlankLines(fodder, max);
      },
    };
    this.walker = {
      node: (child) => this.visit(child, true),
      fodder: this.restyle ?? ignoreFodder,
    };
  }

  run(body: Node, finalFodder: Fodder): Node {
    if (this.maxBlankLines > 0) capBlankLines(body.fodder, this.maxBlankLines);
    const result = this.visit(body, true);
    if (this.maxBlankLines > 0) capBlankLines(finalFodder, this.maxBlankLines);
    if (this.restyle) this.restyle(finalFodder);
    return result;
  }

  /** `passFodder`: whether P0/P8 see the node's leading fodder (not an import's path). */
  private visit(n: Node, passFodder: boolean): Node {
    const capping = this.maxBlankLines > 0;
    if (capping) visitPassSlots(n, this.capper);
    fixNewlinesAt(n);
    fixTrailingCommasAt(n);
    const inner = doubledParens(n);
    if (inner) {
      if (capping) visitPassSlots(inner, this.capper);
      fixNewlinesAt(inner);
      collapseParens(n as Parens, inner);
    }
    const m = fixPlusObjectAt(n);
    noRedundantSliceColonAt(m);
    if (this.prettyFieldNames) prettyFieldNamesAt(m);
    if (this.stringStyle !== 'l') enforceStringStyleAt(m, this.stringStyle);
    if (passFodder && this.restyle) this.restyle(m.fodder);
    if (m.type === 'import') m.file = this.visit(m.file, false) as LiteralString;
    else visitPassSlots(m, this.walker);
    return m;
  }
}
