/**
 * Helpers for this folder's table tests: call a pure builtin by name the way
 * the evaluator will (defaults filled in), and capture StdError messages.
 */
import assert from 'node:assert/strict';
import type { JsonValue } from '../../lang/common/json.js';
import { pureStd } from '../../lang/jsonnet/std/pure/index.js';
import { StdError } from '../../lang/jsonnet/std/pure/std-error.js';

export function call(name: string, ...args: JsonValue[]): JsonValue {
  const b = pureStd[name];
  assert.ok(b, `no pure builtin ${name}`);
  const full = b.params.map((p, i) => {
    if (i < args.length) return args[i]!;
    const d = b.defaults?.[p];
    assert.ok(d !== undefined, `missing argument ${p} of ${name}`);
    return d;
  });
  return b.fn(full);
}

/** The StdError message of a call that must fail. */
export function errorOf(name: string, ...args: JsonValue[]): string {
  try {
    call(name, ...args);
  } catch (e) {
    assert.ok(e instanceof StdError, `std.${name} threw ${String(e)}`);
    return e.message;
  }
  assert.fail(`std.${name} did not fail`);
}
