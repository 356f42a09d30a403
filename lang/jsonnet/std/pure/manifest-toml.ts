/**
 * std.manifestToml / std.manifestTomlEx as go-jsonnet's native builtin writes
 * them: plain keys first (arrays of scalars spread over lines, nested arrays and
 * objects inline), then `[table]` and `[[array.of.tables]]` sections separated
 * by blank lines, each level indented by `indent`. Numbers print like
 * std.toString (`1.4199999999999999`). Error paths print the path the Go way:
 * `Tried to manifest "null" at [a 0]`.
 */
import type { JsonObject, JsonValue } from '../../../common/json.js';
import { isJsonObject, sortedKeys } from '../../../common/json.js';
import { unparseNumber } from './go-number.js';
import { unparseString } from './manifest-json.js';
import { StdError } from './std-error.js';
import { typeName, wantString } from './values.js';

function encodeKey(s: string): string {
  if (s.length === 0) return "''";
  return /^[A-Za-z0-9_-]+$/.test(s) ? s : unparseString(s);
}

function isSection(v: JsonValue): boolean {
  if (isJsonObject(v)) return true;
  return Array.isArray(v) && v.length > 0 && v.every((el) => isJsonObject(el));
}

function goPath(path: string[]): string {
  return '[' + path.join(' ') + ']';
}

function renderValue(v: JsonValue, sindent: string, path: string[], inline: boolean, cindent: string): string {
  if (v === null) throw new StdError(`Tried to manifest "null" at ${goPath(path)}`);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return unparseNumber(v);
  if (typeof v === 'string') return unparseString(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const newIndent = inline ? '' : cindent + sindent;
    const separator = inline ? ' ' : '\n';
    const items = v.map((el, j) => newIndent + renderValue(el, sindent, [...path, String(j)], true, ''));
    return '[' + separator + items.join(',' + separator) + separator + (inline ? cindent : '') + ']';
  }
  const fields = sortedKeys(v).map((k) => encodeKey(k) + ' = ' + renderValue(v[k]!, sindent, [...path, k], true, ''));
  return '{ ' + fields.join(', ') + ' }';
}

function sectionName(path: string[]): string {
  return path.map(encodeKey).join('.');
}

function renderTable(v: JsonObject, sindent: string, path: string[], indexed: string[], cindent: string): string {
  return (
    cindent +
    '[' +
    sectionName(path) +
    ']' +
    (Object.keys(v).length > 0 ? '\n' : '') +
    tableInternal(v, sindent, path, indexed, cindent + sindent)
  );
}

function renderTableArray(v: JsonValue[], sindent: string, path: string[], indexed: string[], cindent: string): string {
  return v
    .map((el, j) => {
      const table = el as JsonObject;
      return (
        cindent +
        '[[' +
        sectionName(path) +
        ']]' +
        (Object.keys(table).length > 0 ? '\n' : '') +
        tableInternal(table, sindent, path, [...indexed, String(j)], cindent + sindent)
      );
    })
    .join('\n\n');
}

function tableInternal(v: JsonObject, sindent: string, path: string[], indexed: string[], cindent: string): string {
  const fields: string[] = [];
  const sections: string[] = [''];
  for (const k of sortedKeys(v)) {
    const fv = v[k]!;
    const childIndexed = [...indexed, k];
    if (isSection(fv)) {
      const childPath = [...path, k];
      if (isJsonObject(fv)) sections.push(renderTable(fv, sindent, childPath, childIndexed, cindent));
      else sections.push(renderTableArray(fv as JsonValue[], sindent, childPath, childIndexed, cindent));
    } else {
      fields.push(...(encodeKey(k) + ' = ' + renderValue(fv, sindent, childIndexed, false, '')).split('\n'));
    }
  }
  return (fields.length > 0 ? cindent : '') + fields.join('\n' + cindent) + sections.join('\n\n');
}

export function manifestTomlEx(value: JsonValue, indentV: JsonValue): string {
  const indent = wantString(indentV);
  if (!isJsonObject(value)) throw new StdError(`TOML body must be an object. Got ${typeName(value)}`);
  return tableInternal(value, indent, [], [], '');
}

export function manifestToml(value: JsonValue): string {
  return manifestTomlEx(value, '  ');
}
