/**
 * Go's strconv quoting (Quote, QuoteToASCII, QuoteRune, CanBackquote) over
 * JS strings. A lone surrogate (which a Go string cannot hold) is treated as
 * U+FFFD, the rune Go decodes invalid UTF-8 to.
 */

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and ASCII space. */
export function isPrint(r: number): boolean {
  if (r < 0x20 || r === 0x7f) return false;
  if (r < 0x7f) return true;
  return printable.test(String.fromCodePoint(r));
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

function escapeRune(r: number, quote: number, asciiOnly: boolean): string {
  if (r === quote || r === 0x5c) return '\\' + String.fromCharCode(r);
  if (asciiOnly ? r < 0x80 && isPrint(r) : isPrint(r)) return String.fromCodePoint(r);
  switch (r) {
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 12:
      return '\\f';
    case 10:
      return '\\n';
    case 13:
      return '\\r';
    case 9:
      return '\\t';
    case 11:
      return '\\v';
  }
  if (r < 0x20 || r === 0x7f) return '\\x' + hex(r, 2);
  if (r < 0x10000) return '\\u' + hex(r, 4);
  return '\\U' + hex(r, 8);
}

/** The runes of a JS string as Go would decode its UTF-8 (lone surrogates → U+FFFD). */
export function runes(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    const r = ch.codePointAt(0)!;
    out.push(r >= 0xd800 && r <= 0xdfff ? 0xfffd : r);
  }
  return out;
}

/** strconv.Quote / QuoteToASCII. */
export function quote(s: string, asciiOnly = false): string {
  let out = '"';
  for (const r of runes(s)) out += escapeRune(r, 0x22, asciiOnly);
  return out + '"';
}

/** strconv.QuoteRune / QuoteRuneToASCII. */
export function quoteRune(r: number, asciiOnly = false): string {
  if (r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff) || r < 0) r = 0xfffd;
  return "'" + escapeRune(r, 0x27, asciiOnly) + "'";
}

/** strconv.CanBackquote: no control characters other than tab, no backquote, no U+FEFF. */
export function canBackquote(s: string): boolean {
  for (const r of runes(s)) {
    if (r === 0x60 || r === 0xfeff || r === 0xfffd) return false;
    if ((r < 0x20 && r !== 9) || r === 0x7f) return false;
  }
  return true;
}
