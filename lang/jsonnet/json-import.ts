/**
 * A fast path for `import "x.json"`: a file that is plain JSON is read with
 * the native JSON parser instead of the Jsonnet parser, static analysis and
 * evaluation of one thunk per field. Why: kube-prometheus imports six
 * prometheus-operator CRD files of 0.6-0.84 MiB; through the Jsonnet parser
 * they took 88-93 ms of a 1 s render (about 50 MB/s).
 * Invariant: the fast path is taken only where it gives exactly the value the
 * Jsonnet path gives; for anything else (not strict JSON, a repeated key,
 * however spelt, a number that overflows, an escaped surrogate) it returns undefined and the caller parses the file as Jsonnet, which then
 * reports the error or the value as it always did.
 */
import type { JsonValue } from '../common/json.js';

/** A JSON file's value, and its nesting depth (a scalar is 0, `[]` and `{}` are 1). */
export interface JsonImport {
  value: JsonValue;
  depth: number;
}

export function parseJsonImport(text: string): JsonImport | undefined {
  // Escaped surrogates: Jsonnet's decoding of unpaired ones differs from JSON.parse.
  if (/\\u[dD][89a-fA-F]/.test(text)) return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  const facts = { keys: 0 };
  const depth = depthIfFinite(value, facts);
  // JSON.parse keeps the last of repeated keys (Jsonnet rejects the object): then the parsed
  // objects hold fewer keys than the text has members.
  if (depth < 0 || facts.keys !== membersIn(text)) return undefined;
  return { value, depth };
}

/** The characters that matter for members: quotes and colons (a regular expression skips the rest natively). */
const QUOTE_OR_COLON = /[":]/g;

/**
 * The number of object members in `text`, valid JSON: a colon outside strings separates a
 * key from its value and appears nowhere else. Counting them, against the keys of the parsed
 * value, finds a repeated key (escaped spellings included, since JSON.parse decodes them)
 * without a set of the keys of every object (a Set and a string per key: 11 MB for
 * kube-prometheus's CRDs) or any string made at all.
 */
function membersIn(text: string): number {
  let members = 0;
  QUOTE_OR_COLON.lastIndex = 0;
  // test() rather than exec(): no match array per quote and colon.
  while (QUOTE_OR_COLON.test(text)) {
    const i = QUOTE_OR_COLON.lastIndex - 1;
    if (text.charCodeAt(i) === 0x3a) members++;
    else {
      const end = closingQuote(text, i + 1);
      if (end < 0) return -1;
      QUOTE_OR_COLON.lastIndex = end + 1;
    }
  }
  return members;
}

/** Index of the quote closing a string whose text starts at `from`, or -1. */
function closingQuote(text: string, from: number): number {
  let q = text.indexOf('"', from);
  while (q >= 0) {
    let backslashes = 0;
    for (let k = q - 1; k >= from && text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}

/**
 * The nesting depth of `v` (a scalar is 0, `[]` and `{}` are 1), or -1 when a number is not
 * finite (JSON.parse reads 1e400 as Infinity; Jsonnet stops with an overflow error); counts
 * the keys of its objects into `facts`. The depth bounds the frames manifesting any part of
 * the value takes (see Evaluator.manifestInto).
 */
function depthIfFinite(v: JsonValue, facts: { keys: number }): number {
  const pending: JsonValue[] = [v];
  const depths: number[] = [0];
  let max = 0;
  let keys = 0;
  while (pending.length > 0) {
    const x = pending.pop()!;
    const d = depths.pop()!;
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) return -1;
    } else if (Array.isArray(x)) {
      if (d + 1 > max) max = d + 1;
      for (let i = 0; i < x.length; i++) {
        pending.push(x[i]!);
        depths.push(d + 1);
      }
    } else if (x !== null && typeof x === 'object') {
      if (d + 1 > max) max = d + 1;
      for (const k in x) {
        keys++;
        pending.push(x[k]!);
        depths.push(d + 1);
      }
    }
  }
  facts.keys = keys;
  return max;
}
