/**
 * yaklfmt: formats the Jsonnet code of a .yakl file's expressions as
 * jsonnetfmt does and leaves the YAML around them, comments included, as it
 * is. A plain expression is quoted when its formatted code isn't a plain
 * scalar any more; a quoted one keeps its quotes; a block expression keeps
 * its lines inside the block; `---` followed by content moves that content
 * to the next line. Clauses, expressions holding `\{` YAML blocks, and
 * plain or quoted expressions whose code would take several lines are left
 * as they are. The result must compile like the input, or it isn't used.
 */
import { type Node as YNode, type Scalar, isScalar, visit } from 'yaml';
import { formatExpression } from '../jsonnet/fmt/index.js';
import { normalizeSource } from './encoding.js';
import { asClause, matchExpression } from './expression.js';
import { scanToClosingBrace } from './jsonnet-scan.js';
import { lexYakl } from './lexer.js';
import { parseYamlStream } from './yaml-parse.js';
import { compileYakl } from './compile.js';

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Splits `${  code  }` into its leading space, code and trailing space. */
function parts(inner: string): { lead: string; code: string; trail: string } {
  const code = inner.trim();
  const lead = inner.slice(0, inner.length - inner.trimStart().length);
  const trail = inner.slice(inner.trimEnd().length);
  return { lead, code, trail };
}

function formatCode(code: string, indent: number): string | null {
  if (asClause(code)) return null;
  const scan = scanToClosingBrace(code + '\n}', 0);
  if (!scan.ok || scan.blocks.length > 0) return null;
  try {
    return formatExpression(code, indent);
  } catch {
    return null;
  }
}

/** Whether `${...}` can stay an unquoted plain scalar. */
function isPlainSafe(text: string, inFlow: boolean): boolean {
  if (/: |:$| #|\t#/.test(text)) return false;
  if (inFlow && /[,[\]{}]/.test(text)) return false;
  return true;
}

export function formatYaklText(fileName: string, text: string): string {
  compileYakl(fileName, text); // bad input fails here, with its location
  const file = normalizeSource(fileName, text);
  const src = file.text;
  const edits: Edit[] = [];
  const lexed = lexYakl(src);
  for (const ex of lexed.expressions) {
    const { lead, code, trail } = parts(src.slice(ex.start + 2, ex.end - 1));
    const formatted = formatCode(code, 0);
    if (formatted === null || formatted.includes('\n')) continue;
    const expr = '${' + lead + formatted + trail + '}';
    const out = isPlainSafe(expr, ex.inFlow) ? expr : `'${expr.replace(/'/g, "''")}'`;
    if (out !== src.slice(ex.start, ex.end)) edits.push({ start: ex.start, end: ex.end, text: out });
  }
  for (const doc of parseYamlStream(lexed.text)) {
    visit(doc, {
      Scalar(_, node) {
        const e = quotedOrBlockEdit(node, src, lexed.toSource);
        if (e) edits.push(e);
      },
    });
  }
  // `--- content` becomes `---` and the content on the next line.
  const docStart = /^--- +([^#\s].*)$/gm;
  for (let m = docStart.exec(src); m; m = docStart.exec(src)) {
    edits.push({ start: m.index + 3, end: m.index + m[0].length - m[1]!.length, text: '\n' });
  }
  edits.sort((a, b) => b.start - a.start);
  let out = src;
  let lastStart = Infinity;
  for (const e of edits) {
    if (e.end > lastStart) continue; // overlapping edits: keep the later one only
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    lastStart = e.start;
  }
  try {
    compileYakl(fileName, out);
  } catch {
    return src;
  }
  return out;
}

function quotedOrBlockEdit(node: Scalar, src: string, toSource: (o: number) => number): Edit | null {
  if (!isScalar(node as YNode) || typeof node.value !== 'string' || !node.range) return null;
  const start = toSource(node.range[0]);
  const end = toSource(node.range[1]);
  if (node.type === 'QUOTE_SINGLE' || node.type === 'QUOTE_DOUBLE') {
    const m = matchExpression(node.value);
    if (m.kind !== 'expression') return null;
    const { lead, code, trail } = parts(m.code);
    const formatted = formatCode(code, 0);
    if (formatted === null || formatted.includes('\n')) return null;
    const outer =
      node.value.slice(0, m.codeOffset - 2) +
      '${' +
      lead +
      formatted +
      trail +
      '}' +
      node.value.slice(m.codeOffset + m.code.length + 1);
    const text = node.type === 'QUOTE_SINGLE' ? `'${outer.replace(/'/g, "''")}'` : doubleQuoted(outer);
    return text === src.slice(start, end) ? null : { start, end, text };
  }
  if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') {
    const raw = src.slice(start, end);
    const nl = raw.indexOf('\n');
    if (nl < 0) return null;
    const bodyStart = start + nl + 1;
    const body = src.slice(bodyStart, end);
    const m = matchExpression(body);
    if (m.kind !== 'expression') return null;
    const exprAt = bodyStart + m.codeOffset - 2;
    const lineStart = src.lastIndexOf('\n', exprAt - 1) + 1;
    const indent = exprAt - lineStart;
    const { lead, code, trail } = parts(m.code);
    const formatted = formatCode(code, indent);
    if (formatted === null) return null;
    const text =
      '${' + (formatted.includes('\n') ? '' : lead) + formatted + (formatted.includes('\n') ? '' : trail) + '}';
    const exprEnd = bodyStart + m.codeOffset + m.code.length + 1;
    return text === src.slice(exprAt, exprEnd) ? null : { start: exprAt, end: exprEnd, text };
  }
  return null;
}

function doubleQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}
