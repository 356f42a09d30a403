/**
 * std.parseYaml(str) the way go-jsonnet does it: the text is cut into
 * documents at lines that are exactly `---` (plus trailing spaces); several
 * documents, or any such line, give an array of documents, otherwise the one
 * value. Each document goes YAML -> JSON as sigs.k8s.io/yaml with go-yaml v2
 * does it (lang/go/yaml-v2: YAML 1.1 scalars, `<<` merges, go-yaml's alias
 * budget and our one depth limit), prefixed the go-jsonnet way:
 * "failed to parse YAML: error converting YAML to JSON: ...".
 */
import type { JsonValue } from '../../../common/json.js';
import { GoYamlError, splitYamlDocuments, yamlToJson } from '../../../go/yaml-v2.js';
import { StdError } from './std-error.js';
import { wantString } from './values.js';

export function parseYaml(str: JsonValue): JsonValue {
  const text = wantString(str);
  try {
    const { docs, sawSeparator } = splitYamlDocuments(text, 'go-jsonnet');
    const values = docs.map((doc) => yamlToJson(doc));
    if (sawSeparator) return values;
    return values.length === 0 ? null : values[0]!;
  } catch (e) {
    if (e instanceof GoYamlError)
      throw new StdError(`failed to parse YAML: error converting YAML to JSON: ${e.message}`);
    throw e;
  }
}
