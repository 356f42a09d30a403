/**
 * std.manifestPython(v) and std.manifestPythonVars(conf), as std.jsonnet
 * writes them: Python literals with `True`/`False`/`None`, strings and keys
 * quoted by escapeStringPython (= escapeStringJson), numbers like
 * std.toString, `{"k": v, ...}` and `[a, b]` on one line.
 */
import type { JsonValue } from '../../../common/json.js';
import { sortedKeys } from '../../../common/json.js';
import { unparseNumber } from './go-number.js';
import { unparseString } from './manifest-json.js';
import { wantObject } from './values.js';

export function manifestPython(v: JsonValue): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return unparseNumber(v);
  if (typeof v === 'string') return unparseString(v);
  if (Array.isArray(v)) return '[' + v.map(manifestPython).join(', ') + ']';
  return (
    '{' +
    sortedKeys(v)
      .map((k) => `${unparseString(k)}: ${manifestPython(v[k]!)}`)
      .join(', ') +
    '}'
  );
}

export function manifestPythonVars(conf: JsonValue): string {
  const obj = wantObject(conf);
  return [...sortedKeys(obj).map((k) => `${k} = ${manifestPython(obj[k]!)}`), ''].join('\n');
}
