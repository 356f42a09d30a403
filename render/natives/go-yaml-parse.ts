/**
 * kubecfg's parseYaml native (and `.yaml` manifest files): apimachinery's
 * YAMLToJSONDecoder over the stream, that is the text cut at `---` lines
 * (a separator followed by anything but a comment is an error) and each
 * document read by go-yaml v2 and converted by sigs.k8s.io/yaml
 * (lang/go/yaml-v2). Empty documents (comments only) yield null, as in
 * kubecfg. Every failure is sigs.k8s.io/yaml's "error converting YAML to
 * JSON: ..."; messages carry line numbers, never source lines.
 */

import type { JsonValue } from '../../lang/common/json.js';
import { GoYamlError, splitYamlDocuments, yamlToJson } from '../../lang/go/yaml-v2.js';

/** parseYaml(text): every document of the stream, in order. */
export function goParseYamlStream(text: string): JsonValue[] {
  try {
    return splitYamlDocuments(text, 'apimachinery').docs.map((doc) => yamlToJson(doc));
  } catch (e) {
    if (e instanceof GoYamlError && !e.message.startsWith('invalid Yaml document separator'))
      throw new Error(`error converting YAML to JSON: ${e.message}`);
    throw e;
  }
}
