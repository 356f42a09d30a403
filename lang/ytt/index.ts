/**
 * Public API of lang/ytt, ytt's data-values engine (pure: files come through
 * an injected reader).
 *
 * - parseTemplate: one file as ytt reads it — YAML nodes with their
 *   annotations, code, comments (`#!`), blank lines and source spans.
 * - resolveDataValues: the ordered files of one environment leaf → the final
 *   data values and the schema, as `ytt --data-values-inspect` resolves them.
 * - openApiYaml / openApiDocument: `--data-values-schema-inspect -o openapi-v3`.
 * - dataValuesYaml / dataValuesJson: what `--data-values-inspect` prints.
 * Every failure is a YttError (DataValuesError for resolution) saying where and why.
 */
export { YttError, whereText, type Where } from './errors.js';
export {
  SFloat,
  YArray,
  YArrayItem,
  YDoc,
  YMap,
  YMapItem,
  toPlain,
  type Annotation,
  type Comment,
  type NodeMeta,
  type YScalar,
  type YValue,
} from './nodes.js';
export { YamlSyntaxError, parseTemplate, type RawAnnotation, type TemplateFile, type TemplateNode } from './parse.js';
export { textPieces, type TextPiece } from './text-template.js';
export {
  DataValuesError,
  invalidationsText,
  resolveDataValues,
  resolveSchema,
  type DataValuesDoc,
  type ResolveInput,
  type Resolved,
  type YttReader,
} from './resolve.js';
export { validationsByPath, type Invalidation, type SchemaDocs, type SchemaType, type Validation } from './schema.js';
export { dataValuesJson, dataValuesYaml, openApiDocument, openApiYaml } from './output.js';
export {
  envLevels,
  myksAppFiles,
  myksLeafFiles,
  type MyksAppFiles,
  type MyksLayout,
  type MyksLeafFiles,
  type MyksTree,
} from './myks.js';
