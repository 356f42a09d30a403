/**
 * ytt's text templates (`#@yaml/text-templated-strings`): a string holding
 * `(@= expr @)` (prints expr, which must be a string), `(@ code @)` (Starlark
 * statements: `if`/`for` blocks closed by `(@ end @)`, assignments) and text
 * between them. A `-` just inside a delimiter trims the white space on that
 * side: `(@-` the text before, `-@)` the text after. The pieces form one
 * Starlark program (text and printed values appended in order), run in a
 * scope of its own below the node's.
 */
import { YttError, type Where } from './errors.js';
import type { SourceLine } from './starlark/lexer.js';

export type TextPiece = { text: string } | { code: string; print: boolean };

/** The pieces of a text template, trims applied (ytt's parser: `(@` opens code, `@)` closes it). */
export function textPieces(s: string, where: Where): TextPiece[] {
  const raw: ({ text: string } | { content: string })[] = [];
  let at = 0;
  let inCode = false;
  for (let i = 1; i < s.length; i++) {
    const pair = s[i - 1]! + s[i]!;
    if (pair === '(@') {
      if (inCode) throw new YttError(where, `Unexpected code opening '(@' in text template`);
      raw.push({ text: s.slice(at, i - 1) });
      at = i + 1;
      inCode = true;
    } else if (pair === '@)') {
      if (!inCode) throw new YttError(where, `Unexpected code closing '@)' in text template`);
      raw.push({ content: s.slice(at, i - 1) });
      at = i + 1;
      inCode = false;
    }
  }
  if (inCode) throw new YttError(where, `Missing code closing '@)' in text template`);
  raw.push({ text: s.slice(at) });
  const out: TextPiece[] = [];
  let trimNext = false;
  raw.forEach((p, i) => {
    if ('text' in p) {
      out.push({ text: trimNext ? p.text.replace(/^\s+/, '') : p.text });
      trimNext = false;
      return;
    }
    const c = p.content;
    trimNext = c.endsWith('-');
    const prev = out[out.length - 1];
    if (c.startsWith('-') && i !== 0 && prev && 'text' in prev) prev.text = prev.text.replace(/\s+$/, '');
    const print = c.startsWith('=') || c.startsWith('-=');
    const code = c.replace(/^-=|^=|^-/, '').replace(/-$/, '');
    out.push({ code, print });
  });
  return out;
}

/**
 * The program of a text template: `emitText(i)` appends piece i's text,
 * `emit(expr)` a printed value; code pieces are their own lines.
 */
export function textProgram(pieces: readonly TextPiece[], where: Where, emit: string, emitText: string): SourceLine[] {
  const line = (text: string): SourceLine => ({ text, file: where.file, line: where.line, column: where.column });
  const out: SourceLine[] = [];
  pieces.forEach((p, i) => {
    if ('text' in p) {
      if (p.text !== '') out.push(line(`${emitText}(${i})`));
    } else if (p.print) out.push(line(`${emit}(${p.code.trim()})`));
    else for (const l of p.code.split('\n')) if (l.trim() !== '') out.push(line(l.trim()));
  });
  return out;
}
