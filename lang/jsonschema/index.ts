/**
 * A JSON Schema validator (drafts 4, 6, 7, 2019-09, 2020-12) with the
 * messages of santhosh-tekuri/jsonschema v5, pure and bounded: `$ref` only
 * inside the document, compile and validation depth capped, so hostile
 * schemas (10k-deep or cyclic `$ref`) give errors, never stack overflows.
 * Used by kubecfg's validateJSONSchema native and by Helm's values.schema.json.
 */

export {
  compileSchema,
  SchemaCompileError,
  MAX_SCHEMA_DEPTH,
  type CompiledSchema,
  type CompileOptions,
} from './compile-schema.js';
export {
  firstLeaf,
  MAX_VALIDATE_DEPTH,
  ValidationDepthError,
  Validator,
  violationText,
  type SchemaViolation,
} from './validate.js';
