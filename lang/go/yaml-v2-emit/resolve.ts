/**
 * go-yaml v2's implicit typing of plain scalars (resolve.go), reduced to the
 * question its encoder asks: "would this string, written unquoted, read back
 * as something other than a string?". If yes, the encoder double-quotes it.
 * Invariants: follows YAML 1.1 as go-yaml v2 does (y/n/on/off are booleans,
 * 0777 is octal, 1_000 is an int, date-like strings are timestamps), checks
 * Go's strconv ranges (int64, uint64, float64 overflow) exactly with BigInt,
 * and never consults the host's Date parser.
 */

import { parseGoInteger } from '../strconv.js';

const RESOLVED_NON_STRINGS = new Set([
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '',
  '~',
  'null',
  'Null',
  'NULL',
  '.nan',
  '.NaN',
  '.NAN',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
  '<<',
]);

/** First characters for which resolve.go looks further (its resolveTable hints). */
function hintOf(s: string): 'S' | 'D' | 'M' | '.' | null {
  if (s === '') return 'M';
  const c = s[0]!;
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return null;
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const DATE_ONLY = /^(\d{4})-(\d\d?)-(\d\d?)$/;
const DATE_TIME = /^(\d{4})-(\d\d?)-(\d\d?)([Tt ])(\d\d?):(\d\d?):(\d\d?)(?:[.,]\d+)?(Z|[+-]\d\d:\d\d)?$/;

/** Whether time.Parse accepts s with one of go-yaml v2's timestamp layouts. */
export function isGoYamlTimestamp(s: string): boolean {
  let m = DATE_ONLY.exec(s);
  if (m) return validDate(m[1]!, m[2]!, m[3]!);
  m = DATE_TIME.exec(s);
  if (!m) return false;
  const [, y, mo, d, sep, h, mi, sec, zone] = m;
  // "T"/"t" layouts require a zone; the space layout forbids one.
  if (sep === ' ' ? zone !== undefined : zone === undefined) return false;
  if (!validDate(y!, mo!, d!)) return false;
  if (Number(h) >= 24 || Number(mi) >= 60 || Number(sec) >= 60) return false;
  if (zone !== undefined && zone !== 'Z' && (Number(zone.slice(1, 3)) > 24 || Number(zone.slice(4, 6)) > 60))
    return false;
  return true;
}

function validDate(y: string, mo: string, d: string): boolean {
  const month = Number(mo);
  const day = Number(d);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, Number(y));
}

/** True when go-yaml v2 would read the unquoted text s as a non-string (bool, null, int, float, timestamp, merge). */
export function resolvesToNonString(s: string): boolean {
  const hint = hintOf(s);
  if (hint === null) return false;
  if (RESOLVED_NON_STRINGS.has(s)) return true;
  switch (hint) {
    case 'M':
      return false;
    case '.':
      return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s) && Number.isFinite(Number(s));
    case 'D':
    case 'S': {
      if (isGoYamlTimestamp(s)) return true;
      const plain = s.replace(/_/g, '');
      if (parseGoInteger(plain, true) !== null || parseGoInteger(plain, false) !== null) return true;
      return YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain));
    }
  }
}

const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** YAML 1.1 sexagesimal numbers: go-yaml v2 does not parse them but still quotes them on output. */
export function isBase60Float(s: string): boolean {
  return BASE60_FLOAT.test(s);
}
