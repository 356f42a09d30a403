/**
 * Cleat diagnostics: the registry of stable CLEAT_* codes and the one error
 * type evaluation throws. Static phases (lexer, parser, checker) collect
 * Diagnostics and never throw; the evaluator throws CleatError, which carries
 * the source span, the value path and the constraint that failed.
 */
import type { Diagnostic, Span } from '../common/source.js';
import { formatLocation } from '../common/source.js';
import { KubecfgError } from '../common/errors.js';

/** Every code a Cleat diagnostic may carry (listed in docs/cleat.md). */
export const CleatCodes = {
  LEX: 'CLEAT_LEX',
  PARSE: 'CLEAT_PARSE',
  UNKNOWN_NAME: 'CLEAT_UNKNOWN_NAME',
  USE_BEFORE_DECL: 'CLEAT_USE_BEFORE_DECL',
  RECURSION: 'CLEAT_RECURSION',
  UNKNOWN_FIELD: 'CLEAT_UNKNOWN_FIELD',
  MISSING_FIELD: 'CLEAT_MISSING_FIELD',
  TYPE_MISMATCH: 'CLEAT_TYPE_MISMATCH',
  REFINEMENT: 'CLEAT_REFINEMENT',
  NONEXHAUSTIVE: 'CLEAT_NONEXHAUSTIVE',
  BAD_WITH: 'CLEAT_BAD_WITH',
  SELECTOR_NO_MATCH: 'CLEAT_SELECTOR_NO_MATCH',
  DUPLICATE_KEY: 'CLEAT_DUPLICATE_KEY',
  DUPLICATE_DECL: 'CLEAT_DUPLICATE_DECL',
  ARGS: 'CLEAT_ARGS',
  IMPORT: 'CLEAT_IMPORT',
  IMPORT_CYCLE: 'CLEAT_IMPORT_CYCLE',
  IMPORT_OUTSIDE_ROOT: 'CLEAT_IMPORT_OUTSIDE_ROOT',
  AMBIGUOUS_NAME: 'CLEAT_AMBIGUOUS_NAME',
  MODULE_ITEM: 'CLEAT_MODULE_ITEM',
  INPUT: 'CLEAT_INPUT',
  OVERFLOW: 'CLEAT_OVERFLOW',
  DIV_ZERO: 'CLEAT_DIV_ZERO',
  NON_FINITE: 'CLEAT_NON_FINITE',
  INDEX: 'CLEAT_INDEX',
  ERROR_CALL: 'CLEAT_ERROR',
  REGEX: 'CLEAT_REGEX',
  COMPONENT: 'CLEAT_COMPONENT',
  COMPONENT_CYCLE: 'CLEAT_COMPONENT_CYCLE',
  RUNTIME: 'CLEAT_RUNTIME',
} as const;

export type CleatCode = (typeof CleatCodes)[keyof typeof CleatCodes];

/** Thrown by evaluation (and by input decoding); always carries a code and, where known, span and path. */
export class CleatError extends KubecfgError {
  constructor(
    readonly code: CleatCode,
    message: string,
    readonly span?: Span,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'CleatError';
  }

  toDiagnostic(): Diagnostic {
    const d: Diagnostic = { code: this.code, message: this.message };
    if (this.span) d.span = this.span;
    if (this.path !== undefined) d.path = this.path;
    return d;
  }
}

/** `file:line:col: CODE: message (at path)`, the one-line rendering used by the CLI and tests. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.span ? `${formatLocation(d.span)}: ` : '';
  const at = d.path ? ` (at ${d.path})` : '';
  return `${where}${d.code}: ${d.message}${at}`;
}

/** Damerau-free Levenshtein distance, for "did you mean" hints. */
function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** The closest candidate within a third of the name's length (at least 2 edits), if any. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** `; did you mean `x`?` or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const c = closestName(name, candidates);
  return c === undefined ? '' : `; did you mean \`${c}\`?`;
}
