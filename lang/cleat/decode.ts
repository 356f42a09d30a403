/**
 * Data decoding for inputs and `with { type: ... }` imports: JSON and YAML
 * text → Cleat values, both read by go-yaml v2 (lang/go/yaml-v2, strict:
 * a repeated key is an error; JSON is YAML's flow syntax). Integers become
 * 64-bit Ints (an out-of-range integer is an error, not a rounded double),
 * other numbers finite Floats (`.inf`, `.nan` are rejected, spec §2), map key
 * order is kept, and aliases are expanded under go-yaml's budget (hazard 13).
 * Errors carry the data path and a line:column.
 */
import { GoYamlError, jsonKeyString, unmarshalYamlStream, type GoValue } from '../go/yaml-v2.js';
import { CleatCodes, CleatError } from './diagnostics.js';
import { joinPath } from './conform.js';
import { INT_MAX, INT_MIN, ObjectValue, type Value } from './value.js';

export class DecodeError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

function columnAt(text: string, offset: number): number {
  return offset - text.lastIndexOf('\n', offset - 1);
}

/** Parses JSON or YAML text. Several YAML documents give several values (empty ones are skipped). */
export function decodeDocuments(text: string, format: 'json' | 'yaml'): Value[] {
  let docs: GoValue[];
  try {
    docs = unmarshalYamlStream(text, { duplicateKeys: 'strict' });
  } catch (e) {
    if (!(e instanceof GoYamlError)) throw e;
    const message = e.line !== undefined ? e.message.replace(/^yaml: line \d+: /, '') : e.message;
    const column = e.offset !== undefined ? columnAt(text, e.offset) : undefined;
    throw new DecodeError(`invalid ${format.toUpperCase()}: ${message}`, '', e.line, column);
  }
  if (format === 'yaml' && docs.length > 1) docs = docs.filter((d) => d !== null);
  const out = docs.map((d) => fromGo(d, ''));
  if (format === 'json' && out.length !== 1) throw new DecodeError('invalid JSON: expected exactly one value', '');
  return out;
}

/** One value: a single document (an empty YAML file is null). */
export function decodeValue(text: string, format: 'json' | 'yaml'): Value {
  const docs = decodeDocuments(text, format);
  if (docs.length === 0) return null;
  if (docs.length > 1) throw new DecodeError(`expected one ${format.toUpperCase()} document, found ${docs.length}`, '');
  return docs[0]!;
}

function fromGo(x: GoValue, path: string): Value {
  if (x === null || typeof x === 'boolean' || typeof x === 'string') return x;
  if (typeof x === 'bigint') {
    if (x > INT_MAX || x < INT_MIN) throw new DecodeError(`integer ${x} does not fit in 64 bits`, path);
    return x;
  }
  if (typeof x === 'number') {
    if (!Number.isFinite(x)) throw new DecodeError(`number ${x} is not finite (JSON has no infinity or NaN)`, path);
    return x;
  }
  if (Array.isArray(x)) return x.map((e, i) => fromGo(e, joinPath(path, i)));
  const m = new Map<string, Value>();
  x.keys.forEach((k, i) => {
    const key = k === null ? 'null' : typeof k === 'bigint' ? k.toString() : jsonKeyString(k)!;
    m.set(key, fromGo(x.values[i]!, joinPath(path, key)));
  });
  return new ObjectValue(m);
}

/** DecodeError → CleatError with a prefix saying what was being read. */
export function decodeFailure(e: unknown, what: string): CleatError {
  if (e instanceof DecodeError) {
    const at = e.line !== undefined ? ` (line ${e.line}, column ${e.column})` : '';
    return new CleatError(CleatCodes.INPUT, `${what}: ${e.message}${at}`, undefined, e.path || undefined);
  }
  if (e instanceof CleatError) return e;
  return new CleatError(CleatCodes.INPUT, `${what}: ${(e as Error).message}`);
}
