/**
 * What a mapping key's text means in YAKL: a field with Jsonnet's `+` and
 * colons written after its name (`spec+`, `_config:`), a local key (`&x`),
 * a document name key (`^^`, with the same modifiers), `<<+` (extend) or
 * `<<` (YAML merge). The meaning comes from the key's text only, never from
 * its quoting.
 */

import { isJsonnetIdentifier } from '../jsonnet/lexer.js';

export const RESERVED_PREFIX = 'yakl__';

/** A Jsonnet variable name that YAKL may declare as a local (not a keyword, not std). */
export function isLocalName(name: string): boolean {
  return isJsonnetIdentifier(name) && name !== 'std';
}

export const isIdentifier = isJsonnetIdentifier;

export interface Modifiers {
  plus: boolean;
  /** 0 for `:`, 1 for `::`, 2 for `:::` (the number of colons written in the key). */
  colons: number;
}

export type KeyMeaning =
  | ({ kind: 'field'; name: string } & Modifiers)
  | ({ kind: 'name' } & Modifiers)
  | { kind: 'local'; name: string }
  | { kind: 'extend' }
  | { kind: 'merge' }
  | { kind: 'error'; reason: string };

/** Splits `name+::` into the name and its modifiers. */
function splitModifiers(text: string): { name: string } & Modifiers {
  let end = text.length;
  let colons = 0;
  while (end > 0 && text[end - 1] === ':') {
    end--;
    colons++;
  }
  let plus = false;
  if (end > 0 && text[end - 1] === '+') {
    plus = true;
    end--;
  }
  return { name: text.slice(0, end), plus, colons };
}

export function jsonnetSeparator(m: Modifiers): string {
  return (m.plus ? '+' : '') + ':'.repeat(m.colons + 1);
}

export function classifyKey(text: string): KeyMeaning {
  if (text.startsWith('&')) {
    const name = text.slice(1);
    if (!isLocalName(name)) {
      return {
        kind: 'error',
        reason: `'${text}' is not a valid local key: after & comes a Jsonnet variable name (not a keyword or std)`,
      };
    }
    if (name.startsWith(RESERVED_PREFIX))
      return { kind: 'error', reason: `names starting with ${RESERVED_PREFIX} are reserved for yakl` };
    return { kind: 'local', name };
  }
  const m = splitModifiers(text);
  if (m.colons > 2)
    return {
      kind: 'error',
      reason: `key '${text}' has too many colons: at most :: may follow a field name (giving :::)`,
    };
  if (m.name === '<<') {
    if (m.plus && m.colons === 0) return { kind: 'extend' };
    if (!m.plus && m.colons === 0) return { kind: 'merge' };
    return { kind: 'error', reason: `'${text}' is reserved: use <<+ to extend or << to merge` };
  }
  if (m.name === '^^') return { kind: 'name', plus: m.plus, colons: m.colons };
  if (m.name === '') {
    if (text === '') return { kind: 'field', name: '', plus: false, colons: 0 };
    return {
      kind: 'error',
      reason: `key '${text}' has modifiers but no name; write a literal key as a key expression: \${'${text}'}`,
    };
  }
  return { kind: 'field', name: m.name, plus: m.plus, colons: m.colons };
}
