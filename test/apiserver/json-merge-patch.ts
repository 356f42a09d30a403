/**
 * RFC 7386 JSON merge patch: objects merge recursively, `null` removes a
 * key, anything else (arrays included) replaces. Invariants: inputs are not
 * mutated; keys such as `__proto__` stay ordinary data.
 */
import { isJsonObject, jsonObject, setJsonKey, type JsonValue } from '../../lang/common/json.js';

export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return patch;
  const result = isJsonObject(target) ? jsonObject(Object.entries(target)) : jsonObject([]);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setJsonKey(result, key, applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value));
  }
  return result;
}
