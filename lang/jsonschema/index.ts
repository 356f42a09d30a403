/**
 * A JSON Schema validator (drafts 4, 6, 7, 2019-09, 2020-12) with the
 * messages of santhosh-tekuri/jsonschema v5 (Validator) and v6 (ValidatorV6), pure and bounded: `$ref` only
 * inside the document, compile and validation depth capped, so hostile
 * schemas (10k-deep or cyclic `$ref`) give errors, never stack overflows.
 * v5 is kubecfg's validateJSONSchema native; v6 is Helm 3.18's values.schema.json check.
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
export { ValidatorV6, type V6Violation } from './validate-v6.js';
export { v6ErrorLines } from './v6-text.js';
