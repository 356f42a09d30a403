/**
 * `kubecfg show -o yaml` and `eval -o yaml` output. kubecfg round-trips each
 * object through encoding/json into map[string]interface{} (so every number
 * is a float64) and marshals it with its fork of go-yaml v2; `show` prints
 * `---` before each document, `eval` prints the document with fmt.Println
 * (one extra newline). Invariant: output depends only on the values (which
 * is what lets `show` reuse the text of an object printed before).
 */

import type { JsonValue } from '../../lang/common/json.js';
import { marshalYaml } from '../../lang/go/yaml-v2-emit/index.js';
import { formatFloat } from '../../lang/go/strconv.js';
import { guardDepth } from '../errors.js';
import { TextMemo } from './text-memo.js';

/** Numbers as they reach go-yaml in kubecfg show/eval: float64 printed with strconv 'g' shortest. */
export function goFloatYamlText(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  return formatFloat(n, 'g', -1);
}

const KUBECFG_YAML = { numberText: goFloatYamlText, digitRunFix: true } as const;

/** One document as kubecfg's yaml.Marshal prints it (no `---`, ends with a newline). */
export function marshalKubecfgYaml(value: JsonValue): string {
  return guardDepth(() => marshalYaml(value, KUBECFG_YAML));
}

/**
 * Documents of objects printed before, by content (text-memo.ts): the daemon's worker re-renders
 * after an edit mostly the same objects; 8 Mi characters per generation is thousands of objects.
 */
const yamlDocuments = new TextMemo(8 * 1024 * 1024);

/** `kubecfg show -o yaml`: `---\n` then the document, for each object. */
export function formatYamlDocuments(objects: JsonValue[]): string {
  let out = '';
  for (const obj of objects) out += '---\n' + yamlDocuments.text(obj, marshalKubecfgYaml);
  return out;
}
