/**
 * Pass: sorts the file's top-level imports (jsonnetfmt --sort-imports).
 * Top-level imports are the chain of `local x = import '...';` at the root of
 * the file. They are grouped: a blank line or a comment line ends a group, and
 * each group is sorted by import path on its own (left as is if two binds share
 * a name). Every import keeps the comment on its own line; the group's leading
 * fodder stays at the top. Multi-bind locals are split into one local each.
 */
import { compareCodepoints } from '../../common/json.js';
import { ensureCleanNewline, fodderAppend, fodderConcat, NO_COMMENT, setFodder, type Fodder } from './fodder.js';
import { openFodder, type Local, type LocalBind, type Node } from './tree.js';

interface ImportElem {
  key: string;
  /** Fodder after the bind's `;` up to the end of its line (its trailing comment). */
  adjacentFodder: Fodder;
  bind: LocalBind;
}

function isImportLocal(node: Node): node is Local {
  return (
    node.type === 'local' &&
    node.binds.every((b) => b.fun === null && b.body.type === 'import' && b.body.keyword === 'import')
  );
}

/**
 * Splits fodder after its first line break: the first part belongs to the
 * previous token (its end-of-line comment), the rest (blank lines, comment
 * paragraphs) to the next one.
 */
function splitFodder(fodder: Fodder): [Fodder, Fodder] {
  const afterPrev: Fodder = [];
  const beforeNext: Fodder = [];
  let second = false;
  for (const e of fodder) {
    if (second) fodderAppend(beforeNext, { ...e });
    else afterPrev.push({ ...e });
    if (e.kind !== 'interstitial' && !second) {
      second = true;
      if (e.blanks > 0) {
        afterPrev[afterPrev.length - 1]!.blanks = 0;
        beforeNext.push({ kind: 'lineEnd', blanks: e.blanks, indent: e.indent, comment: NO_COMMENT });
      }
    }
  }
  return [afterPrev, beforeNext];
}

function importPath(bind: LocalBind): string {
  return bind.body.type === 'import' ? bind.body.file.value : '';
}

function extractImports(binds: LocalBind[], after: Fodder): ImportElem[] {
  const result: ImportElem[] = [];
  let before = binds[0]!.varFodder;
  binds.forEach((bind, i) => {
    let adjacent: Fodder;
    let beforeNext: Fodder = [];
    const next = binds[i + 1];
    if (next) [adjacent, beforeNext] = splitFodder(next.varFodder);
    else adjacent = after;
    ensureCleanNewline(adjacent);
    result.push({ key: importPath(bind), adjacentFodder: adjacent, bind: { ...bind, varFodder: before } });
    before = beforeNext;
  });
  return result;
}

function sortGroup(imports: ImportElem[]): void {
  const names = new Set(imports.map((i) => i.bind.variable));
  if (names.size < imports.length) return;
  imports.sort((a, b) => compareCodepoints(a.key, b.key));
}

function buildGroup(imports: ImportElem[], body: Node, groupOpenFodder: Fodder): Node {
  let result = body;
  for (let i = imports.length - 1; i >= 0; i--) {
    const fodder = i === 0 ? groupOpenFodder : imports[i - 1]!.adjacentFodder;
    result = { type: 'local', fodder, binds: [imports[i]!.bind], body: result };
  }
  return result;
}

/** Does the import group end after this local (blank line, comment line, or no import next)? */
function groupEndsAfter(local: Local): boolean {
  if (!isImportLocal(local.body)) return true;
  let newlineReached = false;
  for (const e of openFodder(local.body)) {
    if (newlineReached || e.blanks > 0) return true;
    if (e.kind !== 'interstitial') newlineReached = true;
  }
  return false;
}

function topLevelImport(local: Local, imports: ImportElem[], groupOpenFodder: Fodder): Node {
  const [adjacentComment, beforeNextFodder] = splitFodder(openFodder(local.body));
  ensureCleanNewline(adjacentComment);
  imports.push(...extractImports(local.binds, adjacentComment));
  if (!groupEndsAfter(local)) return topLevelImport(local.body as Local, imports, groupOpenFodder);
  sortGroup(imports);
  const afterGroup = imports[imports.length - 1]!.adjacentFodder;
  ensureCleanNewline(beforeNextFodder);
  const nextOpenFodder = fodderConcat(afterGroup, beforeNextFodder);
  let rest: Node;
  if (isImportLocal(local.body)) {
    rest = topLevelImport(local.body, [], nextOpenFodder);
  } else {
    rest = local.body;
    setFodder(openFodder(rest), nextOpenFodder);
  }
  return buildGroup(imports, rest, groupOpenFodder);
}

export function sortImports(body: Node): Node {
  if (!isImportLocal(body)) return body;
  return topLevelImport(body, [], body.fodder);
}
