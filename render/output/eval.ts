/**
 * `kubecfg eval` output. `-o json` prints go-jsonnet's own manifestation
 * (3-space indent, `{ }`/`[ ]` for empty collections, numbers as
 * unparseNumber, strings as unparseString) which already ends with a
 * newline, through fmt.Println, so the output ends with an empty line;
 * `-o yaml` prints yaml.Marshal's document through fmt.Println likewise.
 * Invariant: the returned string is exactly what kubecfg writes to stdout.
 */

import type { JsonValue } from '../../lang/common/json.js';
import { serializeJson } from '../../lang/jsonnet/manifest.js';
import { marshalKubecfgYaml } from './yaml.js';
import { guardDepth } from '../errors.js';

/** go-jsonnet's serializeJSON in multiline mode (what `jsonnet` prints, minus the final newline): the engine's own printer. */
export function jsonnetManifest(value: JsonValue): string {
  return serializeJson(value, true, '');
}

/** `kubecfg eval -o json|yaml`: the exact bytes kubecfg writes to stdout. */
export function formatEval(value: JsonValue, format: 'json' | 'yaml'): string {
  if (format === 'json') return guardDepth(() => jsonnetManifest(value)) + '\n\n';
  return marshalKubecfgYaml(value) + '\n';
}
