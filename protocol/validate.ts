/**
 * Hand-written runtime checks for params arriving at the server boundary.
 * Each validator returns a typed copy or throws ParamsError naming the exact
 * field (`params.tty.columns`), which the server turns into JSON-RPC -32602.
 * Invariant: a validator never returns an object that shares prototype-bearing
 * input (we copy into fresh objects/null-prototype records), so `__proto__`
 * keys in a hostile body cannot reach handler code as prototype changes.
 */

export class ParamsError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`invalid params: ${field}: ${reason}`);
    this.name = 'ParamsError';
  }
}

export type Validator<T> = (value: unknown, field: string) => T;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const str: Validator<string> = (v, f) => {
  if (typeof v !== 'string') throw new ParamsError(f, `expected a string, got ${describe(v)}`);
  return v;
};

export const nonEmptyStr: Validator<string> = (v, f) => {
  const s = str(v, f);
  if (s === '') throw new ParamsError(f, 'must not be empty');
  return s;
};

export const bool: Validator<boolean> = (v, f) => {
  if (typeof v !== 'boolean') throw new ParamsError(f, `expected a boolean, got ${describe(v)}`);
  return v;
};

export const int: Validator<number> = (v, f) => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v))
    throw new ParamsError(f, `expected an integer, got ${describe(v)}`);
  return v;
};

export function oneOf<T extends string>(values: readonly T[]): Validator<T> {
  return (v, f) => {
    const s = str(v, f);
    if (!(values as readonly string[]).includes(s))
      throw new ParamsError(f, `expected one of ${values.join(', ')}, got "${s}"`);
    return s as T;
  };
}

export function nullable<T>(inner: Validator<T>): Validator<T | null> {
  return (v, f) => (v === null ? null : inner(v, f));
}

export function arrayOf<T>(inner: Validator<T>, maxItems = 100_000): Validator<T[]> {
  return (v, f) => {
    if (!Array.isArray(v)) throw new ParamsError(f, `expected an array, got ${describe(v)}`);
    if (v.length > maxItems) throw new ParamsError(f, `too many items (${v.length} > ${maxItems})`);
    return v.map((item, i) => inner(item, `${f}[${i}]`));
  };
}

/** A string-keyed map with values checked by `inner`; returns a null-prototype record. */
export function recordOf<T>(inner: Validator<T>): Validator<Record<string, T>> {
  return (v, f) => {
    if (!isPlainObject(v)) throw new ParamsError(f, `expected an object, got ${describe(v)}`);
    const out: Record<string, T> = Object.create(null) as Record<string, T>;
    for (const key of Object.keys(v)) out[key] = inner(v[key], `${f}.${key}`);
    return out;
  };
}

type Shape<T> = { [K in keyof T]-?: { validate: Validator<T[K]>; optional?: boolean } };

/**
 * Checks an object against a field table. Unknown fields are rejected, so a
 * misspelt field is reported instead of silently ignored.
 */
export function objectOf<T>(shape: Shape<T>): Validator<T> {
  return (v, f) => {
    if (v === undefined) v = {};
    if (!isPlainObject(v)) throw new ParamsError(f, `expected an object, got ${describe(v)}`);
    for (const key of Object.keys(v)) {
      if (!Object.prototype.hasOwnProperty.call(shape, key)) throw new ParamsError(`${f}.${key}`, 'unknown field');
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(shape) as (keyof T & string)[]) {
      const rule = shape[key];
      const present = Object.prototype.hasOwnProperty.call(v, key) && v[key] !== undefined;
      if (!present) {
        if (rule.optional) continue;
        throw new ParamsError(`${f}.${key}`, 'missing required field');
      }
      out[key] = rule.validate(v[key], `${f}.${key}`);
    }
    return out as T;
  };
}

export function required<T>(validate: Validator<T>): { validate: Validator<T> } {
  return { validate };
}

export function optional<T>(validate: Validator<T>): { validate: Validator<T>; optional: true } {
  return { validate, optional: true };
}
