/**
 * go-yaml v2's resolve.go: what a scalar means. A plain untagged scalar is
 * typed by YAML 1.1's implicit rules as v2 has them (y/yes/on are true,
 * 0777 and 0o777 are octal, 0b101 binary, `_` ignored in numbers, `1e400`
 * stays a string, timestamps are recognised but decoded into interface{} as
 * their text, no sexagesimal numbers); a quoted one is a string; an explicit
 * standard tag must agree with the implicit type (`!!float 1` is allowed).
 */

import { Buffer } from 'node:buffer';
import { parseFloatOk, parseGoInteger } from '../strconv.js';
import { GoYamlError } from './errors.js';
import type { GoValue } from './value.js';

export type ResolvedTag = 'str' | 'bool' | 'int' | 'float' | 'null' | 'timestamp' | 'binary' | 'other';

const TABLE = new Map<string, { tag: ResolvedTag; value: GoValue }>();
const add = (tag: ResolvedTag, value: GoValue, words: string[]): void => {
  for (const w of words) TABLE.set(w, { tag, value });
};
add('bool', true, ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
add('bool', false, ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
add('null', null, ['', '~', 'null', 'Null', 'NULL']);
add('float', NaN, ['.nan', '.NaN', '.NAN']);
add('float', Infinity, ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']);
add('float', -Infinity, ['-.inf', '-.Inf', '-.INF']);

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const DATE_ONLY = /^(\d{4})-(\d\d?)-(\d\d?)$/;
const DATE_TIME = /^(\d{4})-(\d\d?)-(\d\d?)([Tt ])(\d\d?):(\d\d?):(\d\d?)(?:[.,]\d+)?(Z|[+-]\d\d:\d\d)?$/;

function validDate(y: string, mo: string, d: string): boolean {
  const month = Number(mo);
  const day = Number(d);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, Number(y));
}

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

/** strconv.ParseInt(s, 0, 64), else ParseUint(s, 0, 64). */
function goInt(s: string): bigint | null {
  return parseGoInteger(s, true) ?? parseGoInteger(s, false);
}

/** resolve("", s) for a plain scalar: its tag and its value as decoded into interface{}. */
export function resolvePlain(s: string, timestamps = true): { tag: ResolvedTag; value: GoValue } {
  const c = s[0];
  // resolve.go's hint table: the words are looked up only for these first characters (so `<<` is a string)
  if (c !== undefined && !'+-0123456789yYnNtTfFoO~.'.includes(c)) return { tag: 'str', value: s };
  const hit = TABLE.get(s);
  if (hit !== undefined) return hit;
  if (c === '.') {
    if (parseFloatOk(s)) return { tag: 'float', value: Number(s.replace(/_/g, '')) };
  } else if (c === '+' || c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
    if (timestamps && isGoYamlTimestamp(s)) return { tag: 'timestamp', value: s };
    const plain = s.replace(/_/g, '');
    const int = goInt(plain);
    if (int !== null) return { tag: 'int', value: int };
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = Number(plain);
      if (Number.isFinite(f)) return { tag: 'float', value: f };
    }
  }
  return { tag: 'str', value: s };
}

const LONG = 'tag:yaml.org,2002:';

/** `!!x` for a standard tag, the tag itself otherwise. */
export function shortTag(tag: string): string {
  return tag.startsWith(LONG) ? '!!' + tag.slice(LONG.length) : tag;
}

const RESOLVABLE = new Set(['!!str', '!!bool', '!!int', '!!float', '!!null', '!!timestamp']);

/** A scalar with an explicit tag, decoded into interface{} (go-yaml's resolve(tag, s) and its scalar()). */
export function resolveTagged(tag: string, s: string): { tag: ResolvedTag; value: GoValue } {
  const short = shortTag(tag);
  if (short === '!!binary') {
    const compact = s.replace(/[\r\n]/g, '');
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(compact))
      throw new GoYamlError('yaml: !!binary value contains invalid base64 data', 'decode');
    return { tag: 'binary', value: Buffer.from(compact, 'base64').toString('utf8') };
  }
  if (!RESOLVABLE.has(short)) return { tag: 'other', value: s };
  if (short === '!!str') return { tag: 'str', value: s };
  const r = resolvePlain(s, short === '!!timestamp');
  const want = short.slice(2);
  if (r.tag === want) return r;
  if (want === 'float' && r.tag === 'int') return { tag: 'float', value: Number(r.value as bigint) };
  throw new GoYamlError(`yaml: cannot decode !!${r.tag} \`${s}\` as a ${short}`, 'decode');
}
