/**
 * Small pieces of Jsonnet text the compiler writes or compares: field names,
 * string literals in jsonnetfmt's style, whether code needs parentheses, and
 * a layout-free form of expression code (for matching `<<` keys).
 */
import { SourceFile } from '../common/source.js';
import { parseAst } from '../jsonnet/index.js';
import { lex as lexJsonnet } from '../jsonnet/lexer.js';
import { isIdentifier } from './keys.js';

export function fieldName(name: string): string {
  return isIdentifier(name) ? name : JSON.stringify(name);
}

const SIMPLE_NODES: ReadonlySet<string> = new Set([
  'Var',
  'Dollar',
  'Self',
  'Index',
  'Apply',
  'Null',
  'Bool',
  'Number',
  'String',
  'Object',
  'Array',
  'ArrayComp',
  'ObjectComp',
  'Import',
  'SuperIndex',
]);

/** Code that needs no parentheses wherever an expression goes (readable output only). */
export function isSimpleExpression(code: string): boolean {
  try {
    return SIMPLE_NODES.has(parseAst(new SourceFile('<expr>', code)).type);
  } catch {
    return false;
  }
}

/** A Jsonnet single-quoted string literal, as jsonnetfmt writes strings. */
export function singleQuoted(s: string): string {
  let out = "'";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + "'";
}

/** Expression keys match by their code as formatted: compare token streams, ignoring layout and comments. */
export function normalizeCode(code: string): string {
  try {
    const toks = lexJsonnet(new SourceFile('<key>', code));
    return toks
      .map((t) => {
        if (t.kind === 'STRING_SINGLE' || t.kind === 'STRING_DOUBLE') return `S:${t.data}`;
        return `${t.kind}:${t.data}`;
      })
      .join(' ');
  } catch {
    return code.replace(/\s+/g, ' ').trim();
  }
}
