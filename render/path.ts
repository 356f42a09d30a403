/**
 * Value paths as kubecfg writes them in errors and provenance annotations:
 * `$`, then `.field` when the field is a Jsonnet identifier (and not a
 * keyword), `["field"]` (Go-quoted) otherwise, and `[i]` for array elements.
 * kubecfg decides "identifier" by running jsonnetfmt's PrettyFieldNames; the
 * rule is go-jsonnet's IsValidIdentifier, reproduced here.
 */

import { isJsonnetIdentifier } from '../lang/jsonnet/lexer.js';
import { quote as goQuote } from '../lang/go/strconv.js';

export { isJsonnetIdentifier };

/** The accessor appended to a path for an object field. */
export function fieldAccessor(field: string): string {
  return isJsonnetIdentifier(field) ? `.${field}` : `[${goQuote(field)}]`;
}

/** The accessor appended to a path for an array index. */
export function indexAccessor(index: number): string {
  return `[${index}]`;
}

export const ROOT_PATH = '$';
