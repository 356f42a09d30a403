/**
 * Go's strconv.Unquote and UnquoteChar for template string, raw string and
 * character literals. Returns undefined on invalid syntax (the caller reports
 * Go's "invalid syntax"). Escapes that produce bytes (\x, octal) are decoded
 * as UTF-8 afterwards, as a Go string would print.
 */

const simple: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, "'": 39, '"': 34 };

/** Decodes the escapes of a quoted body; `quote` is the delimiter that must be escaped. */
function unescape(body: string, quote: string): number[] | undefined {
  const bytes: number[] = [];
  const enc = new TextEncoder();
  let i = 0;
  while (i < body.length) {
    const c = body[i]!;
    if (c === quote) return undefined;
    if (c === '\n' && quote !== '`') return undefined;
    if (c !== '\\') {
      const cp = body.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      bytes.push(...enc.encode(ch));
      i += ch.length;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) return undefined;
    i += 2;
    if (e in simple) {
      if ((e === "'" || e === '"') && e !== quote) return undefined;
      bytes.push(simple[e]!);
      continue;
    }
    let hexLen = 0;
    if (e === 'x') hexLen = 2;
    else if (e === 'u') hexLen = 4;
    else if (e === 'U') hexLen = 8;
    if (hexLen > 0) {
      const h = body.slice(i, i + hexLen);
      if (!new RegExp(`^[0-9a-fA-F]{${hexLen}}$`).test(h)) return undefined;
      i += hexLen;
      const v = parseInt(h, 16);
      if (e === 'x') bytes.push(v);
      else {
        if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return undefined;
        bytes.push(...enc.encode(String.fromCodePoint(v)));
      }
      continue;
    }
    if (e >= '0' && e <= '7') {
      const o = body.slice(i - 1, i + 2);
      if (!/^[0-7]{3}$/.test(o)) return undefined;
      const v = parseInt(o, 8);
      if (v > 255) return undefined;
      bytes.push(v);
      i += 2;
      continue;
    }
    return undefined;
  }
  return bytes;
}

const decoder = new TextDecoder('utf-8');

/** strconv.Unquote for "..." and `...` literals. */
export function unquote(lit: string): string | undefined {
  if (lit.length < 2) return undefined;
  const q = lit[0]!;
  if (q !== lit[lit.length - 1]) return undefined;
  const body = lit.slice(1, -1);
  if (q === '`') {
    if (body.includes('`')) return undefined;
    return body.replace(/\r/g, '');
  }
  if (q !== '"') return undefined;
  const bytes = unescape(body, '"');
  return bytes ? decoder.decode(new Uint8Array(bytes)) : undefined;
}

/** The rune of a character constant such as 'a' or '\n'; undefined when malformed. */
export function unquoteChar(lit: string): number | undefined {
  if (lit.length < 3 || lit[0] !== "'" || lit[lit.length - 1] !== "'") return undefined;
  const body = lit.slice(1, -1);
  if (body[0] !== '\\') {
    const cp = body.codePointAt(0)!;
    return String.fromCodePoint(cp).length === body.length ? cp : undefined;
  }
  const bytes = unescape(body, "'");
  if (!bytes) return undefined;
  const e = body[1];
  if (e === 'x' || (e! >= '0' && e! <= '7')) return bytes.length === 1 ? bytes[0] : undefined;
  const s = decoder.decode(new Uint8Array(bytes));
  const cp = s.codePointAt(0);
  return cp !== undefined && String.fromCodePoint(cp).length === s.length ? cp : undefined;
}
