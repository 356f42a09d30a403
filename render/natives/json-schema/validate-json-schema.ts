/**
 * kubecfg's validateJSONSchema native: `validateJSONSchema(obj, schema)`
 * returns true, or fails with kubecfg's text, e.g.
 * `object is invalid against the schema: jsonschema: '/age' does not validate
 * with file:///properties/age/minimum: must be >= 0 but found -1`.
 * A schema that does not compile fails with `unable to compile jsonschema:
 * jsonschema file:/// compilation failed: <why>`.
 * Schemas with no `$schema` are draft 2020-12 (the library's default);
 * `format` and `content*` are annotations only, as in the library's default.
 * kubecfg names the schema after its working directory (file:///<cwd>#/...);
 * we print it as kubecfg's documentation does, file:///<keyword path>, so the
 * text never depends on where the daemon runs.
 */

import type { JsonValue } from '../../../lang/common/json.js';
import { RenderError } from '../../errors.js';
import {
  compileSchema,
  SchemaCompileError,
  ValidationDepthError,
  Validator,
  violationText,
} from '../../../lang/jsonschema/index.js';

/** True when `obj` satisfies `schema`; otherwise throws a RenderError with kubecfg's message. */
export function validateJsonSchema(obj: JsonValue, schema: JsonValue): true {
  let compiled;
  try {
    compiled = compileSchema(schema);
  } catch (e) {
    if (e instanceof SchemaCompileError) {
      throw new RenderError(
        'RENDER_BAD_ARGUMENT',
        `unable to compile jsonschema: jsonschema file:/// compilation failed: ${e.message}`,
      );
    }
    throw e;
  }
  let violation;
  try {
    violation = new Validator(compiled).validateRoot(obj);
  } catch (e) {
    if (e instanceof ValidationDepthError) {
      throw new RenderError('RENDER_TOO_DEEP', `object is invalid against the schema: jsonschema: ${e.message}`);
    }
    // The depth bound leaves room on the JS stack, but a caller may already have used most of it.
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new RenderError(
        'RENDER_TOO_DEEP',
        'object is invalid against the schema: jsonschema: validation nested too deeply',
      );
    }
    throw e;
  }
  if (violation)
    throw new RenderError('RENDER_BAD_ARGUMENT', `object is invalid against the schema: ${violationText(violation)}`);
  return true;
}
