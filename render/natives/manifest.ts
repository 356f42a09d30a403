/**
 * kubecfg's manifestJson and manifestYaml natives. manifestJson is Go's
 * json.MarshalIndent with `indent` spaces plus a newline. manifestYaml is
 * ghodss/yaml.Marshal: the value goes to JSON, is read back by
 * gopkg.in/yaml.v2 (so each number becomes an int when its JSON text is an
 * int64/uint64, else a float) and is written by yaml.v2 (whose key order
 * lacks the digit-run fix of kubecfg's own fork).
 */

import type { JsonValue } from '../../lang/common/json.js';
import { goMarshalIndent } from '../output/json.js';
import { marshalYaml } from '../../lang/go/yaml-v2-emit/index.js';
import { parseGoInteger } from '../../lang/go/strconv.js';
import { goFloatYamlText } from '../output/yaml.js';
import { formatNumber as formatJsonNumber } from '../../lang/go/encoding-json.js';

export function goManifestJson(value: JsonValue, indent: number): string {
  return goMarshalIndent(value, ' '.repeat(indent)) + '\n';
}

/** A number as yaml.v2 re-reads its encoding/json text and writes it again. */
function ghodssNumberText(n: number): string {
  if (!Number.isFinite(n)) return goFloatYamlText(n);
  const text = formatJsonNumber(n);
  const asInt = parseGoInteger(text, true) ?? parseGoInteger(text, false);
  if (asInt !== null) return asInt.toString();
  return goFloatYamlText(Number(text));
}

export function goManifestYaml(value: JsonValue): string {
  return marshalYaml(value, { numberText: ghodssNumberText, digitRunFix: false });
}
