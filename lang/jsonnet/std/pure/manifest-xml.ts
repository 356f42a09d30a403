/**
 * std.manifestXmlJsonml(value): JsonML (`[tag, {attrs}?, children...]`) to
 * XML text, as std.jsonnet does it: no escaping at all (attribute values go
 * through `%s`, text children are copied), attributes in code point order.
 * Errors are the ones go-jsonnet raises while running that code on bad input.
 */
import type { JsonValue } from '../../../common/json.js';
import { isJsonObject, sortedKeys } from '../../../common/json.js';
import { toStringValue } from './manifest-json.js';
import { StdError } from './std-error.js';
import { deepJoin } from './strings.js';
import { typeName } from './values.js';

const GO_VALUE_TYPES: Record<string, string> = {
  number: '*jsonnet.valueNumber',
  boolean: '*jsonnet.valueBoolean',
  null: '*jsonnet.valueNull',
};

function element(v: JsonValue): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) {
    // `v[0]` on a non-array: objects want a string index, scalars are not indexable.
    if (isJsonObject(v)) throw new StdError('Unexpected type number, expected string');
    throw new StdError(`Value non indexable: ${GO_VALUE_TYPES[typeName(v)]}`);
  }
  if (v.length === 0) throw new StdError('Index 0 out of bounds, not within [0, 0)');
  const tag = deepJoin(v[0]!);
  const second = v[1];
  const hasAttrs = v.length > 1 && isJsonObject(second);
  const attrs = hasAttrs && isJsonObject(second) ? second : {};
  const attrsStr = sortedKeys(attrs)
    .map((k) => ` ${k}="${toStringValue(attrs[k]!)}"`)
    .join('');
  const children = v.slice(hasAttrs ? 2 : 1).map(element);
  return '<' + tag + attrsStr + '>' + children.join('') + '</' + tag + '>';
}

export function manifestXmlJsonml(value: JsonValue): string {
  if (!Array.isArray(value)) throw new StdError(`Expected a JSONML value (an array), got ${typeName(value)}`);
  return element(value);
}
