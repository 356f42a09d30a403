/**
 * Objects of plain manifest files, as kubecfg reads a `.json` or `.yaml`
 * argument (utils/acquire.go jsonReader/yamlReader, then apimachinery's
 * unstructured decoding and FlattenToV1): no Jsonnet, no search through the
 * value, no provenance. A YAML file is split into documents like parseYaml;
 * each document (or the JSON file) must be an object with a `kind`; one with
 * an `items` key is a list whose items are returned (items without kind and
 * apiVersion get the list's apiVersion and its kind minus `List`).
 * Other extensions (`.yml` included) are refused, as kubecfg does.
 * Error messages never quote the file's content (kubecfg's MissingKindErr
 * does; ours names the document number instead).
 */

import type { JsonObject, JsonValue } from '../lang/common/json.js';
import { isJsonObject, jsonObject } from '../lang/common/json.js';
import { RenderError } from './errors.js';
import { unmarshal as goJsonUnmarshal } from '../lang/go/encoding-json.js';
import { goParseYamlStream } from './natives/go-yaml-parse.js';
import { goTypeName } from '../lang/go/fmt.js';
import { nestedString } from './k8s-meta.js';

function describe(file: string, doc: number | undefined): string {
  return doc === undefined ? file : `${file} (document ${doc})`;
}

function decodeObject(value: JsonValue, file: string, doc: number | undefined): JsonObject[] {
  const where = describe(file, doc);
  // An empty document decodes to null, which apimachinery reads as an object without a kind.
  if (value === null) throw new RenderError('RENDER_NOT_AN_OBJECT', `error reading ${where}: Object 'Kind' is missing`);
  if (!isJsonObject(value)) {
    throw new RenderError(
      'RENDER_NOT_AN_OBJECT',
      `error reading ${where}: expected an object, found ${goTypeName(value)}`,
    );
  }
  if (nestedString(value, 'kind') === '')
    throw new RenderError('RENDER_NOT_AN_OBJECT', `error reading ${where}: Object 'Kind' is missing`);
  if (!Object.hasOwn(value, 'items')) return [value];
  const items = value.items;
  if (items !== null && !Array.isArray(items)) {
    throw new RenderError(
      'RENDER_BAD_LIST',
      `error reading ${where}: items of a list must be an array, found ${goTypeName(items ?? null)}`,
    );
  }
  const listApiVersion = nestedString(value, 'apiVersion');
  const itemKind = nestedString(value, 'kind').replace(/List$/, '');
  return (items ?? []).map((item, i) => {
    if (item !== null && !isJsonObject(item)) {
      throw new RenderError(
        'RENDER_BAD_LIST',
        `error reading ${where}: items[${i}] must be an object, found ${goTypeName(item)}`,
      );
    }
    const obj = item ?? {};
    if (nestedString(obj, 'kind') === '' && nestedString(obj, 'apiVersion') === '') {
      return jsonObject([
        ...Object.entries(obj).filter(([k]) => k !== 'kind' && k !== 'apiVersion'),
        ['kind', itemKind],
        ['apiVersion', listApiVersion],
      ]);
    }
    return obj;
  });
}

function parsed<T>(file: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof RenderError) throw e;
    const message = e instanceof Error ? e.message : String(e);
    throw new RenderError(
      file.endsWith('.json') ? 'RENDER_PARSE_JSON' : 'RENDER_PARSE_YAML',
      `error reading ${file}: ${message}`,
    );
  }
}

/** The objects of a `.json` or `.yaml` file given on the command line, in file order. */
export function objectsFromManifestFile(file: string, text: string): JsonObject[] {
  if (file.endsWith('.json'))
    return decodeObject(
      parsed(file, () => goJsonUnmarshal(text)),
      file,
      undefined,
    );
  if (file.endsWith('.yaml')) {
    const docs = parsed(file, () => goParseYamlStream(text));
    return docs.flatMap((doc, i) => decodeObject(doc, file, i + 1));
  }
  throw new RenderError('RENDER_BAD_ARGUMENT', `unknown file extension: ${file}`);
}
