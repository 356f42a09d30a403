/**
 * go-yaml v2's implicit resolution of a plain scalar: would this text read
 * back as something other than a string (null, bool, int, float, timestamp,
 * YAML 1.1 forms such as `yes`/`off`, base-60 floats)? The emitter quotes
 * such strings, which is why Helm's toYaml prints `"true"`, `"1"` and
 * `"2024-01-01"` in double quotes.
 */

import { parseGoInt } from '../parse/parse.js';

const special = new Set([
  '',
  '~',
  'null',
  'Null',
  'NULL',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
  '.nan',
  '.NaN',
  '.NAN',
  '<<',
]);

const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const base60Float = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const timestamp =
  /^\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]|[ \t]+)\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d{1,2}(?::?\d{2})?))?)?$/;

/** True when go-yaml v2 would not read `s` back as a plain string. */
export function resolvesToNonString(s: string): boolean {
  if (special.has(s)) return true;
  if (base60Float.test(s)) return true;
  const c = s[0]!;
  if (c === '.') return yamlStyleFloat.test(s);
  if (!/[0-9+-]/.test(c)) return false;
  if (parseGoInt(s) !== undefined) return true;
  if (/^[-+]?0b[01_]+$/.test(s)) return true;
  if (yamlStyleFloat.test(s)) return true;
  if (/^\d{4}-/.test(s) && timestamp.test(s)) return true;
  return false;
}
