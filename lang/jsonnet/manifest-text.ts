/**
 * What manifesting writes that does not depend on the evaluator: quoted keys and their trace
 * positions (made once per name), the punctuation of containers (once per depth), values read from
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
const keyFacts = new Map<string, KeyFacts>();
const MAX_KEY_FACTS = 8192;

/** A name quoted, its trace position, and the text written before its value (quoted, then `: `). */
export type KeyFacts = [quoted: string, position: string, key: string];

export function keyFactsOf(name: string): KeyFacts {
  let f = keyFacts.get(name);
  if (f !== undefined) return f;
  const quoted = quoteString(name);
  f = [quoted, `Field ${serializeCompact(name)}`, quoted + ': '];
  if (keyFacts.size < MAX_KEY_FACTS) keyFacts.set(name, f);
  return f;
}

/**
 * The punctuation around the members of a container at one indentation, each piece joined
 * once: manifesting wrote `,\n`, the indentation, the key and `: ` as four pieces per member,
 * each a cons string of the output (the largest allocation of kube-prometheus's render, 20 MB).
 */
export interface Layout {
  /** The members' indentation: the indentation of the containers inside. */
  readonly inner: string;
  readonly arrayOpen: string;
  readonly objectOpen: string;
  /** Between two members: the separator and the next member's indentation. */
  readonly between: string;
  readonly arrayClose: string;
  readonly objectClose: string;
}

/** Layouts by indentation, per mode; bounded (an indentation is one per depth in practice). */
const layouts = [new Map<string, Layout>(), new Map<string, Layout>()];
const MAX_LAYOUTS = 1024;

export function layoutOf(indent: string, multiline: boolean): Layout {
  const cache = layouts[multiline ? 1 : 0]!;
  let l = cache.get(indent);
  if (l !== undefined) return l;
  const inner = multiline ? indent + '   ' : indent;
  const nl = multiline ? '\n' : '';
  l = {
    inner,
    arrayOpen: '[' + nl + inner,
    objectOpen: '{' + nl + inner,
    between: (multiline ? ',\n' : ', ') + inner,
    arrayClose: nl + indent + ']',
    objectClose: nl + indent + '}',
  };
  if (cache.size < MAX_LAYOUTS) cache.set(indent, l);
  return l;
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
  const layout = layoutOf(indent, multiline);
  if (Array.isArray(j)) {
    if (j.length === 0) {
      out.write('[ ]');
      return;
    }
    out.write(layout.arrayOpen);
    for (let i = 0; i < j.length; i++) {
      if (i > 0) out.write(layout.between);
      writeJsonText(j[i]!, multiline, layout.inner, out);
    }
    out.write(layout.arrayClose);
    return;
  }
  const obj = j as JsonObject;
  const names = sortedKeysOf(obj);
  if (names.length === 0) {
    out.write('{ }');
    return;
  }
  out.write(layout.objectOpen);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (i > 0) out.write(layout.between);
    out.write(keyFactsOf(name)[2]);
    writeJsonText(obj[name]!, multiline, layout.inner, out);
  }
  out.write(layout.objectClose);
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
