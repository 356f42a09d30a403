/**
 * A fast path for `import "x.json"`: a file that is plain JSON is read with
 * the native JSON parser instead of the Jsonnet parser, static analysis and
 * evaluation of one thunk per field. Why: kube-prometheus imports six
 * prometheus-operator CRD files of 0.6-0.84 MiB; through the Jsonnet parser
 * they took 88-93 ms of a 1 s render (about 50 MB/s).
 * Invariant: the fast path is taken only where it gives exactly the value the
 * Jsonnet path gives; for anything else (not strict JSON, a repeated key, a
 * key with an escape, a number that overflows, an escaped lone surrogate)
 * it returns undefined and the caller parses the file as Jsonnet, which then
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
  if (!keysAreUnique(text)) return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  const depth = depthIfFinite(value);
  return depth >= 0 ? { value, depth } : undefined;
}

/** The characters that matter for keys: quotes and brackets (a regular expression skips the rest natively). */
const STRUCTURE = /["{}[\]]/g;

/**
 * False when an object repeats a key (Jsonnet rejects it, JSON.parse keeps the
 * last one) or a key holds an escape (compared raw here, so not trusted). Only
 * the nesting and the strings are followed: whether the text is JSON at all is
 * JSON.parse's job.
 */
function keysAreUnique(text: string): boolean {
  // One key set per open object; null for arrays.
  const open: (Set<string> | null)[] = [];
  const n = text.length;
  STRUCTURE.lastIndex = 0;
  // test() rather than exec(): no match array per quote and bracket (11 MB for kube-prometheus's CRDs).
  while (STRUCTURE.test(text)) {
    const i = STRUCTURE.lastIndex - 1;
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = closingQuote(text, i + 1);
      if (end < 0) return true;
      STRUCTURE.lastIndex = end + 1;
      const keys = open.length > 0 ? open[open.length - 1] : null;
      if (keys === null || keys === undefined) continue;
      let j = end + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== 0x3a) continue;
      const key = text.slice(i + 1, end);
      if (key.includes('\\')) return false;
      if (keys.has(key)) return false;
      keys.add(key);
    } else if (c === 0x7b) open.push(new Set());
    else if (c === 0x5b) open.push(null);
    else open.pop();
  }
  return true;
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

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * The nesting depth of `v`, or -1 when a number is not finite (JSON.parse reads 1e400 as
 * Infinity; Jsonnet stops with an overflow error). The depth bounds the frames manifesting
 * any part of the value takes (see Evaluator.manifestInto).
 */
function depthIfFinite(v: JsonValue): number {
  const pending: JsonValue[] = [v];
  const depths: number[] = [0];
  let max = 0;
  while (pending.length > 0) {
    const x = pending.pop()!;
    const d = depths.pop()!;
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) return -1;
    } else if (Array.isArray(x)) {
      if (d + 1 > max) max = d + 1;
      for (const e of x) {
        pending.push(e);
        depths.push(d + 1);
      }
    } else if (x !== null && typeof x === 'object') {
      if (d + 1 > max) max = d + 1;
      for (const k in x) {
        pending.push(x[k]!);
        depths.push(d + 1);
      }
    }
  }
  return max;
}
