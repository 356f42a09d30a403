/**
 * std.manifestIni(ini): the std.jsonnet function. `ini.main` (optional) gives
 * the lines before any section, `ini.sections` one `[name]` block per field,
 * both in code point key order; an array value repeats its key once per
 * element; values print with `%s` (strings raw, others as one-line JSON).
 * Errors are the ones go-jsonnet raises while running that code.
 */
import type { JsonObject, JsonValue } from '../../../common/json.js';
import { sortedKeys } from '../../../common/json.js';
import { toStringValue } from './manifest-json.js';
import { StdError } from './std-error.js';
import { getField, wantObject } from './values.js';

function bodyLines(body: JsonValue): string[] {
  const obj = wantObject(body);
  const lines: string[] = [];
  for (const k of sortedKeys(obj)) {
    const v = obj[k]!;
    if (Array.isArray(v)) for (const el of v) lines.push(`${k} = ${toStringValue(el)}`);
    else lines.push(`${k} = ${toStringValue(v)}`);
  }
  return lines;
}

export function manifestIni(ini: JsonValue): string {
  const obj: JsonObject = wantObject(ini);
  const main = getField(obj, 'main');
  const mainBody = main === undefined ? [] : bodyLines(main);
  const sections = getField(obj, 'sections');
  if (sections === undefined) throw new StdError('Field does not exist: sections');
  const sectionsObj = wantObject(sections);
  const all: string[] = [];
  for (const name of sortedKeys(sectionsObj)) all.push(`[${name}]`, ...bodyLines(sectionsObj[name]!));
  return [...mainBody, ...all, ''].join('\n');
}
