/**
 * Go's fmt verbs that kubecfg's messages use on values decoded by
 * encoding/json into interface{}: `%T` and `%v` (maps with sorted keys);
 * `%q` is strconv.Quote. The template engine's full Sprintf over its own
 * value model lives in lang/gotemplate/fmt and uses strconv from here.
 */

import type { JsonValue } from '../common/json.js';
import { isJsonObject, sortedKeys } from '../common/json.js';
import { formatFloat } from './strconv.js';

/** `%T` of a JSON value decoded into interface{}. */
export function goTypeName(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** `%v` of a JSON value decoded into interface{}. */
export function goValueString(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'number') return formatFloat(v, 'g', -1);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(goValueString).join(' ') + ']';
  if (isJsonObject(v))
    return (
      'map[' +
      sortedKeys(v)
        .map((k) => `${k}:${goValueString(v[k]!)}`)
        .join(' ') +
      ']'
    );
  return String(v);
}
