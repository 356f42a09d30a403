/**
 * Pass: re-quotes '...' and "..." literals in the preferred quote
 * (jsonnetfmt --string-style d|s), re-escaping their value. A string holding
 * one kind of quote takes the other quote; one holding both is left as is.
 * Text blocks and verbatim strings are never changed.
 */
import { unescapeString } from '../parser.js';
import { escapeString } from './string-escape.js';
import type { Node } from './tree.js';

class BadEscape extends Error {}

function failDecode(msg: string): never {
  throw new BadEscape(msg);
}

function decode(raw: string): string | null {
  try {
    return unescapeString(raw, failDecode);
  } catch (e) {
    if (e instanceof BadEscape) return null;
    throw e;
  }
}

/**
 * True when the literal's text is its value and needs no escape in either
 * quote (no backslash, quote or control character): only the quote changes.
 */
function isPlain(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 92 || c === 39 || c === 34 || c < 0x20 || (c >= 0x7f && c <= 0x9f)) return false;
  }
  return true;
}

export function enforceStringStyleAt(n: Node, style: 'd' | 's'): void {
  if (n.type !== 'string' || (n.kind !== 'single' && n.kind !== 'double')) return;
  if (isPlain(n.value)) {
    n.kind = style === 's' ? 'single' : 'double';
    return;
  }
  // The validating parser already rejected bad escapes; this is only a guard.
  const value = decode(n.value);
  if (value === null) return;
  const hasSingle = value.includes("'");
  const hasDouble = value.includes('"');
  if (hasSingle && hasDouble) return;
  let single = style === 's';
  if (hasSingle) single = false;
  if (hasDouble) single = true;
  n.value = escapeString(value, single);
  n.kind = single ? 'single' : 'double';
}
