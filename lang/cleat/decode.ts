/**
 * Data decoding for inputs and `with { type: ... }` imports: JSON and YAML
 * text → Cleat values. Integers become 64-bit Ints (an out-of-range integer
 * is an error, not a rounded double), other numbers finite Floats (`.inf`,
 * `.nan` are rejected, spec §2), map key order is kept, and YAML aliases are
 * capped (hazard 13). Errors carry the data path and a line:column.
 */
import { parseAllDocuments, type Document } from 'yaml';
import { CleatCodes, CleatError } from './diagnostics.js';
import { joinPath } from './conform.js';
import { INT_MAX, INT_MIN, ObjectValue, type Value } from './value.js';

const MAX_ALIASES = 50;

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

/** Parses JSON or YAML text (JSON is read with the strict JSON schema). Several YAML documents give several values. */
export function decodeDocuments(text: string, format: 'json' | 'yaml'): Value[] {
  const docs = parseAllDocuments(text, {
    intAsBigInt: true,
    uniqueKeys: true,
    schema: format === 'json' ? 'json' : 'core',
    prettyErrors: false,
  }) as Document[] | { errors: unknown[] };
  if (!Array.isArray(docs)) throw new DecodeError('invalid document', '');
  const out: Value[] = [];
  for (const d of docs) {
    const err = d.errors[0];
    if (err) {
      const lp = err.linePos?.[0];
      throw new DecodeError(`invalid ${format.toUpperCase()}: ${err.message.split('\n')[0]}`, '', lp?.line, lp?.col);
    }
    if (d.contents === null && format === 'yaml' && docs.length > 1) continue;
    let js: unknown;
    try {
      js = d.toJS({ mapAsMap: true, maxAliasCount: MAX_ALIASES });
    } catch (e) {
      throw new DecodeError(`invalid ${format.toUpperCase()}: ${(e as Error).message}`, '');
    }
    out.push(fromParsed(js, ''));
  }
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

function fromParsed(x: unknown, path: string): Value {
  if (x === null || x === undefined) return null;
  if (typeof x === 'boolean' || typeof x === 'string') return x;
  if (typeof x === 'bigint') {
    if (x > INT_MAX || x < INT_MIN) throw new DecodeError(`integer ${x} does not fit in 64 bits`, path);
    return x;
  }
  if (typeof x === 'number') {
    if (!Number.isFinite(x)) throw new DecodeError(`number ${x} is not finite (JSON has no infinity or NaN)`, path);
    return x;
  }
  if (Array.isArray(x)) return x.map((e, i) => fromParsed(e, joinPath(path, i)));
  if (x instanceof Map) {
    const m = new Map<string, Value>();
    for (const [k, v] of x) {
      const key = k === null ? 'null' : String(k);
      m.set(key, fromParsed(v, joinPath(path, key)));
    }
    return new ObjectValue(m);
  }
  if (x instanceof Date) return x.toISOString();
  if (x instanceof Uint8Array) throw new DecodeError('binary data is not a JSON value', path);
  if (x instanceof Set) return [...x].map((e, i) => fromParsed(e, joinPath(path, i)));
  throw new DecodeError(`unsupported value ${typeof x}`, path);
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
