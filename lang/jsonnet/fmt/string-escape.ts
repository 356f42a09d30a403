/**
 * Escapes a string value for a '...' or "..." literal the way jsonnetfmt
 * re-quotes strings: only the active quote is escaped, named escapes for
 * \b \f \n \r \t, \u00XX for other control characters, everything else raw.
 */
export function escapeString(value: string, single: boolean): string {
  let out = '';
  for (const ch of value) {
    switch (ch) {
      case '"':
        out += single ? '"' : '\\"';
        break;
      case "'":
        out += single ? "\\'" : "'";
        break;
      case '\\':
        out += '\\\\';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      default: {
        const cp = ch.codePointAt(0)!;
        out += cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ? '\\u' + cp.toString(16).padStart(4, '0') : ch;
      }
    }
  }
  return out;
}
