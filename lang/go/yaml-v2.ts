/**
 * gopkg.in/yaml.v2 as the Go programs we follow read YAML (kubecfg's
 * parseYaml, go-jsonnet's std.parseYaml, Helm's values and fromYaml, KuboCD,
 * client-go's kubeconfig), with sigs.k8s.io/yaml's conversion to JSON. The
 * one YAML-to-value reader of the tree: one alias policy (go-yaml's), one
 * depth limit, one set of messages. See yaml-v2/ for each step.
 */

import type { JsonValue } from '../common/json.js';
import { Decoder, type DecodeOptions } from './yaml-v2/decode.js';
import { goYamlToJson, type JsonOptions } from './yaml-v2/json.js';
import { parseNodes, type YamlNode } from './yaml-v2/nodes.js';
import type { GoValue } from './yaml-v2/value.js';

export { GoYamlError, type GoYamlErrorKind } from './yaml-v2/errors.js';
export { GoMap, goSharpV, goTypeOf, type GoValue } from './yaml-v2/value.js';
export { jsonKeyString, goYamlToJson, type JsonOptions } from './yaml-v2/json.js';
export { splitYamlDocuments, type SplitDocuments } from './yaml-v2/stream.js';
export { isGoYamlTimestamp, resolvePlain } from './yaml-v2/resolve.js';
export {
  MAX_DEPTH as YAML_MAX_DEPTH,
  lineAt as yamlLineAt,
  parseNodeDocuments as parseYamlNodes,
  type NodeDocument as YamlNodeDocument,
  type YamlNode,
} from './yaml-v2/nodes.js';
export type { DecodeOptions } from './yaml-v2/decode.js';

/** yaml.Unmarshal(text, &v) with v an interface{}: the first document's value (null when there is none). */
export function unmarshalYaml(text: string, options: DecodeOptions = {}): GoValue {
  const [node] = parseNodes(text, true);
  return new Decoder(text, options).document(node ?? null);
}

/** yaml.NewDecoder(text) read to the end: each document's value (null for an empty one). */
export function unmarshalYamlStream(text: string, options: DecodeOptions = {}): GoValue[] {
  return parseNodes(text, false).map((node) => new Decoder(text, options).document(node));
}

/** One node's value (a node of text, from parseYamlNodes), decoded as yaml.Unmarshal would decode it. */
export function decodeYamlNode(text: string, node: YamlNode | null, options: DecodeOptions = {}): GoValue {
  return new Decoder(text, options).document(node);
}

/** sigs.k8s.io/yaml.YAMLToJSON of one document, as a value. */
export function yamlToJson(text: string, options: DecodeOptions & JsonOptions = {}): JsonValue {
  return goYamlToJson(unmarshalYaml(text, options), options);
}
