/**
 * Length of a JS string in UTF-8 bytes, counted without encoding it: Go
 * measures strings in bytes (template `len`, error columns, jsonnetfmt's
 * column widths). A lone surrogate counts as the 3 bytes of U+FFFD, which is
 * what encoding it would produce.
 */
export function utf8ByteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
