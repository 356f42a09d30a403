/**
 * What manifesting writes that does not depend on the evaluator: quoted keys and their trace
 * positions (made once per name), indentation strings (once per depth), and values read from
 * JSON written or copied straight from the parsed JSON. The text and the copies are exactly
 * what Evaluator.manifestInto / manifest give for the same values converted (json-import.test.ts
 * checks both against the Jsonnet path, nesting at the frame limit included).
 */
import { type JsonObject, type JsonValue, compareCodepoints, setJsonKey } from '../common/json.js';
import { formatNumberJson, quoteString, serializeCompact } from './manifest.js';
import type { TextSink } from './text-sink.js';
import { sortNames } from './sort-names.js';

/**
 * Quoted field names and their trace positions (`Field "name"`), for objects whose names are
 * not shared by a literal (imported JSON, std results, computed names): the same few hundred
 * names come back on thousands of objects (kube-prometheus's CRDs: `description`, `type`,
 * `properties`), and quoting each again was 18 MB of strings. Bounded: a program with endless
 * distinct names stops adding to it.
 */
const keyFacts = new Map<string, [quoted: string, position: string]>();
const MAX_KEY_FACTS = 8192;

export function keyFactsOf(name: string): [quoted: string, position: string] {
  let f = keyFacts.get(name);
  if (f !== undefined) return f;
  f = [quoteString(name), `Field ${serializeCompact(name)}`];
  if (keyFacts.size < MAX_KEY_FACTS) keyFacts.set(name, f);
  return f;
}

/** Indentation strings by depth (multiline manifesting adds three spaces a level). */
const indents: string[] = [''];

/** `indent` and three spaces, made once per depth for the usual all-space indentation. */
export function deeper(indent: string): string {
  const level = indent.length / 3;
  if (indent.length % 3 === 0 && indents[level] === indent) return (indents[level + 1] ??= indent + '   ');
  return indent + '   ';
}

/** The JSON object's keys in manifest order (code point order). */
function sortedKeysOf(j: JsonObject): string[] {
  return sortNames(Object.keys(j), compareCodepoints);
}

/** Writes `j` as manifestInto writes its converted value (same spacing, key order and quoting). */
export function writeJsonText(j: JsonValue, multiline: boolean, indent: string, out: TextSink): void {
  if (j === null) {
    out.write('null');
    return;
  }
  switch (typeof j) {
    case 'boolean':
      out.write(j ? 'true' : 'false');
      return;
    case 'number':
      out.write(formatNumberJson(j));
      return;
    case 'string':
      out.write(quoteString(j));
      return;
  }
  const indent2 = multiline ? deeper(indent) : indent;
  const sep = multiline ? ',\n' : ', ';
  if (Array.isArray(j)) {
    if (j.length === 0) {
      out.write('[ ]');
      return;
    }
    out.write(multiline ? '[\n' : '[');
    for (let i = 0; i < j.length; i++) {
      if (i > 0) out.write(sep);
      out.write(indent2);
      writeJsonText(j[i]!, multiline, indent2, out);
    }
    if (multiline) out.write('\n');
    out.write(indent);
    out.write(']');
    return;
  }
  const obj = j as JsonObject;
  const names = sortedKeysOf(obj);
  if (names.length === 0) {
    out.write('{ }');
    return;
  }
  out.write(multiline ? '{\n' : '{');
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (i > 0) out.write(sep);
    out.write(indent2);
    out.write(keyFactsOf(name)[0]);
    out.write(': ');
    writeJsonText(obj[name]!, multiline, indent2, out);
  }
  if (multiline) out.write('\n');
  out.write(indent);
  out.write('}');
}

/** `j` as manifest() gives its converted value: a fresh copy whose objects have their keys added in code point order. */
export function sortedJsonCopy(j: JsonValue): JsonValue {
  if (j === null || typeof j !== 'object') return j;
  if (Array.isArray(j)) return j.map(sortedJsonCopy);
  const obj = j as JsonObject;
  const out: JsonObject = {};
  for (const name of sortedKeysOf(obj)) setJsonKey(out, name, sortedJsonCopy(obj[name]!));
  return out;
}
