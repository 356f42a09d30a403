/**
 * std.parseJson(str) as go-jsonnet does it: Go's encoding/json (lang/go),
 * its message prefixed with "failed to parse JSON: ".
 */
import type { JsonValue } from '../../../common/json.js';
import { GoJsonSyntaxError, unmarshal } from '../../../go/encoding-json.js';
import { StdError } from './std-error.js';
import { wantString } from './values.js';

export function parseJson(str: JsonValue): JsonValue {
  const text = wantString(str);
  try {
    return unmarshal(text);
  } catch (e) {
    if (e instanceof GoJsonSyntaxError) throw new StdError(`failed to parse JSON: ${e.message}`);
    throw e;
  }
}
