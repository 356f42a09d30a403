/** A string as Go holds it after decoding JSON: every lone UTF-16 surrogate replaced by U+FFFD. */
export function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
