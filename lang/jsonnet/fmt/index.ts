/**
 * Jsonnet formatter, byte-identical to `jsonnetfmt` (C++ v0.18, the one users
 * run in pre-commit hooks). Pipeline: parse into the formatter tree (every
 * token's comments and line breaks kept), run jsonnetfmt's passes (sort
 * imports; the node-level passes in one walk that gives the result of
 * jsonnetfmt's pass-after-pass order, tree-passes.ts; re-indent), then
 * unparse. Pure: no I/O. Syntax errors throw a located JsonnetError and
 * nothing is produced, so callers never write a half-formatted file.
 */
import { SourceFile } from '../../common/source.js';
import { staticError } from '../errors.js';
import type { Fodder } from './fodder.js';
import { fixIndentation } from './fix-indentation.js';
import { sortImports } from './sort-imports.js';
import { openFodder, type Node } from './tree.js';
import { parseForFormat } from './tree-parser.js';
import { runTreePasses } from './tree-passes.js';
import { Unparser } from './unparser.js';

export interface FormatOptions {
  /** Spaces per indentation level; 0 leaves indentation unchanged. Default 2. */
  indent?: number;
  /** Longest run of blank lines kept; 0 leaves them unchanged. Default 2. */
  maxBlankLines?: number;
  /** Quotes: double, single, or leave. Default 's'. */
  stringStyle?: 'd' | 's' | 'l';
  /** One-line comments: `#`, `//`, or leave. Default 's'. */
  commentStyle?: 'h' | 's' | 'l';
  /** `[ 1 ]` instead of `[1]`. Default false. */
  padArrays?: boolean;
  /** `{ a: 1 }` instead of `{a: 1}`. Default true. */
  padObjects?: boolean;
  /** Unquote field names and lookups where possible. Default true. */
  prettyFieldNames?: boolean;
  /** Sort top-level import groups by path. Default true. */
  sortImports?: boolean;
}

/** Thrown for an option value jsonnetfmt would refuse (e.g. a negative indent). */
export class FormatOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormatOptionsError';
  }
}

type Resolved = Required<FormatOptions>;

function resolve(o: FormatOptions): Resolved {
  const r: Resolved = {
    indent: o.indent ?? 2,
    maxBlankLines: o.maxBlankLines ?? 2,
    stringStyle: o.stringStyle ?? 's',
    commentStyle: o.commentStyle ?? 's',
    padArrays: o.padArrays ?? false,
    padObjects: o.padObjects ?? true,
    prettyFieldNames: o.prettyFieldNames ?? true,
    sortImports: o.sortImports ?? true,
  };
  for (const key of ['indent', 'maxBlankLines'] as const) {
    const v = r[key];
    if (!Number.isInteger(v) || v < 0)
      throw new FormatOptionsError(`${key} must be a non-negative integer, got ${String(v)}`);
  }
  if (!['d', 's', 'l'].includes(r.stringStyle))
    throw new FormatOptionsError(`stringStyle must be d, s or l, got ${String(r.stringStyle)}`);
  if (!['h', 's', 'l'].includes(r.commentStyle))
    throw new FormatOptionsError(`commentStyle must be h, s or l, got ${String(r.commentStyle)}`);
  return r;
}

/** Runs jsonnetfmt's passes, in jsonnetfmt's order, over a parsed file. */
function runPasses(input: Node, finalFodder: Fodder, o: Resolved, baseIndent: number): Node {
  let body = input;
  if (o.sortImports) body = sortImports(body);
  const open = openFodder(body);
  while (open.length > 0 && open[0]!.kind === 'lineEnd') open.shift();
  body = runTreePasses(body, finalFodder, o);
  if (o.indent > 0)
    fixIndentation(body, finalFodder, {
      indent: o.indent,
      padArrays: o.padArrays,
      padObjects: o.padObjects,
      baseIndent,
    });
  const last = finalFodder[finalFodder.length - 1];
  if (last) last.blanks = 0;
  return body;
}

/**
 * The formatter recurses along the tree; a pathologically long chain (thousands
 * of `a + b + ...` or `.x.y...` links) can exhaust the JS stack. Report that as
 * a located error instead of letting a RangeError escape.
 */
function withDepthGuard<T>(file: SourceFile, work: () => T): T {
  try {
    return work();
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw staticError('Input too deeply nested to format', file, 0, 0);
    }
    throw e;
  }
}

/** Formats a whole file as `jsonnetfmt` does; throws a located JsonnetError on syntax errors. */
export function formatJsonnet(fileName: string, text: string, options: FormatOptions = {}): string {
  const o = resolve(options);
  const file = new SourceFile(fileName, text);
  return withDepthGuard(file, () => formatFile(file, o));
}

function formatFile(file: SourceFile, o: Resolved): string {
  const parsed = parseForFormat(file);
  const body = runPasses(parsed.body, parsed.finalFodder, o, 0);
  const u = new Unparser(o);
  u.unparse(body, false);
  u.fill(parsed.finalFodder, true, false, true);
  const last = parsed.finalFodder[parsed.finalFodder.length - 1];
  // Files always end with exactly one newline.
  if (!last || last.kind === 'interstitial') u.write('\n');
  return u.text();
}

/**
 * Formats an expression fragment as if it started at column `indentLevel`
 * (for generated code embedded in a larger text): continuation lines are
 * indented from that column, the first line is not prefixed, and there is no
 * trailing newline. Comments after the expression are kept.
 */
export function formatExpression(text: string, indentLevel: number, options: FormatOptions = {}): string {
  const o = resolve(options);
  if (!Number.isInteger(indentLevel) || indentLevel < 0) {
    throw new FormatOptionsError(`indentLevel must be a non-negative integer, got ${String(indentLevel)}`);
  }
  const file = new SourceFile('<expression>', text);
  return withDepthGuard(file, () => {
    const parsed = parseForFormat(file);
    const body = runPasses(parsed.body, parsed.finalFodder, o, indentLevel);
    const u = new Unparser(o);
    u.unparse(body, false);
    u.fill(parsed.finalFodder, true, false, true);
    return u.textWithoutFinalNewline();
  });
}
