/**
 * How santhosh-tekuri/jsonschema v6 writes its errors. Its messages go through
 * golang.org/x/text/message with an English printer, which localises numbers
 * (`%d`, and `%v` of a float64): integers get thousands separators (70,000),
 * and where fmt's %v would switch to an exponent (1.5e+22) it writes
 * `1.5 × 10²²` (narrow no-break spaces around the ×). Values named in a message (enum, const) go through plain
 * fmt %v, and the tree prints as `- at '<pointer>': message`, two spaces
 * more per level. Checked against the library itself (docs/helm.md).
 */

import type { JsonValue } from '../common/json.js';
import { formatNumber as formatJsonNumber } from '../go/encoding-json.js';
import { formatFloat } from '../go/strconv.js';
import { quoteSingle } from './go-text.js';
import type { V6Violation } from './validate-v6.js';

const SUPERSCRIPT: Record<string, string> = {
  '-': '⁻',
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};

function groupThousands(digits: string): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/** An int as the English printer's %d writes it: 1,234,567. */
export function localizedInt(n: number): string {
  return n < 0 ? '-' + groupThousands(String(-n)) : groupThousands(String(n));
}

/** A float64 as the English printer's %v writes it: fmt's %v digits, grouped, or `m × 10ⁿ`. */
export function localizedFloat(x: number): string {
  const text = formatFloat(x, 'g', -1);
  const e = text.indexOf('e');
  if (e >= 0) {
    const exponent = text.slice(e + 1).replace('+', '');
    return `${text.slice(0, e)}\u202f×\u202f10${[...exponent].map((c) => SUPERSCRIPT[c] ?? c).join('')}`;
  }
  const negative = text.startsWith('-');
  const [whole = '', fraction] = (negative ? text.slice(1) : text).split('.');
  return `${negative ? '-' : ''}${groupThousands(whole)}${fraction === undefined ? '' : '.' + fraction}`;
}

/**
 * The library's display() of a primitive: strings single-quoted, the rest with fmt's %v. Schema
 * numbers are json.Number (UseNumber), printed as written; we print Go's JSON text for them,
 * which differs only for unusual spellings in the schema (2.50, 1E3).
 */
export function displayValue(v: JsonValue): string {
  if (typeof v === 'string') return quoteSingle(v);
  if (v === null) return '<nil>';
  if (typeof v === 'number') return formatJsonNumber(v);
  if (typeof v === 'boolean') return String(v);
  return 'value';
}

/** The causes of the root node as `ValidationError.Error()` prints them after its first line. */
export function v6ErrorLines(causes: readonly V6Violation[]): string {
  const out: string[] = [];
  const walk = (node: V6Violation, indent: number): void => {
    // A reference with a single cause is not printed; its cause takes its place.
    if (node.kind === 'reference' && node.causes.length === 1) {
      walk(node.causes[0]!, indent);
      return;
    }
    out.push(`${'  '.repeat(indent)}- at ${quoteSingle(node.instanceLocation)}: ${node.message}`);
    for (const cause of node.causes) walk(cause, indent + 1);
  };
  for (const cause of causes) walk(cause, 0);
  return out.join('\n');
}
