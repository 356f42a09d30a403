/**
 * Pass: re-quotes '...' and "..." literals in the preferred quote
 * (jsonnetfmt --string-style d|s), re-escaping their value. A string holding
 * one kind of quote takes the other quote; one holding both is left as is.
 * Text blocks and verbatim strings are never changed.
 */
import { unescapeString } from '../parser.js';
import { escapeString } from './string-escape.js';
import type { Node } from './tree.js';
import { transformTree } from './walk.js';

class BadEscape extends Error {}

function decode(raw: string): string | null {
  try {
    return unescapeString(raw, (msg) => {
      throw new BadEscape(msg);
    });
  } catch (e) {
    if (e instanceof BadEscape) return null;
    throw e;
  }
}

export function enforceStringStyle(body: Node, style: 'd' | 's'): Node {
  return transformTree(body, (n) => {
    if (n.type !== 'string' || (n.kind !== 'single' && n.kind !== 'double')) return n;
    // The validating parser already rejected bad escapes; this is only a guard.
    const value = decode(n.value);
    if (value === null) return n;
    const hasSingle = value.includes("'");
    const hasDouble = value.includes('"');
    if (hasSingle && hasDouble) return n;
    let single = style === 's';
    if (hasSingle) single = false;
    if (hasDouble) single = true;
    n.value = escapeString(value, single);
    n.kind = single ? 'single' : 'double';
    return n;
  });
}
