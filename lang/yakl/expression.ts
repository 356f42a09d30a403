/**
 * Recognizing expressions in scalar values: a string whose value, ignoring
 * white space at its ends, is one `${...}` is an expression in any YAML
 * style; `$${` at the start is a literal `${`; a string that starts with `${`
 * but holds more than one expression is an error. Also tells `${for}` and
 * `${if}` clauses apart from key expressions (`${if c then 'k'}` is one).
 */
import { SourceFile } from '../common/source.js';
import { parseAst } from '../jsonnet/index.js';
import { scanToClosingBrace } from './jsonnet-scan.js';

export type ExpressionMatch =
  | { kind: 'none' }
  | { kind: 'literal'; text: string }
  | { kind: 'expression'; code: string; /** Offset of the code in the given text. */ codeOffset: number }
  | { kind: 'error'; code: string; reason: string; at: number; jsonnetCode?: string };

/** Classifies a scalar's string value. */
export function matchExpression(value: string): ExpressionMatch {
  const lead = value.length - value.trimStart().length;
  if (value.startsWith('$${', lead)) return { kind: 'literal', text: value.slice(0, lead) + value.slice(lead + 1) };
  if (!value.startsWith('${', lead)) return { kind: 'none' };
  const r = scanToClosingBrace(value, lead + 2);
  const trimmedEnd = value.trimEnd().length;
  if (!r.ok && r.reason.includes('\\{')) return { kind: 'error', code: 'YAKL_EXPR', reason: r.reason, at: r.at };
  if (!r.ok) {
    if (value.trimEnd().endsWith('}') && trimmedEnd - lead > 3) {
      return {
        kind: 'error',
        code: 'YAKL_EXPR',
        reason: r.reason,
        at: lead,
        jsonnetCode: value.slice(lead + 2, trimmedEnd - 1),
      };
    }
    return {
      kind: 'error',
      code: 'YAKL_UNTERMINATED',
      reason: 'unterminated expression: ${ has no matching }',
      at: lead,
    };
  }
  if (r.end + 1 !== trimmedEnd) {
    return {
      kind: 'error',
      code: 'YAKL_NOT_ONE_EXPR',
      reason:
        'a string that starts with ${ must be exactly one expression; start literal text with $${, or build the string in Jsonnet',
      at: lead,
    };
  }
  const code = value.slice(lead + 2, r.end);
  if (code.trim() === '') return { kind: 'error', code: 'YAKL_EMPTY_EXPR', reason: 'empty expression ${}', at: lead };
  return { kind: 'expression', code, codeOffset: lead + 2 };
}

export type Clause = { kind: 'for'; code: string } | { kind: 'if'; cond: string };

/** A `${for ...}` or `${if cond}` clause, or null when the code is an ordinary expression. */
export function asClause(code: string): Clause | null {
  const t = code.trim();
  if (/^for(?![A-Za-z0-9_])/.test(t)) return { kind: 'for', code: t };
  if (/^if(?![A-Za-z0-9_])/.test(t)) {
    try {
      parseAst(new SourceFile('<clause>', t));
      return null;
    } catch {
      return { kind: 'if', cond: t.slice(2).trimStart() };
    }
  }
  return null;
}
