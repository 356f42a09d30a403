/**
 * The table of data-only std functions that J1's evaluator wires into `std`.
 * Each entry lists go-jsonnet's parameter names (named arguments use them),
 * the defaults of optional ones, and a function over fully manifested values
 * in parameter order. Invariant: `fn` only ever throws StdError; a value too
 * deep for the JS stack becomes a StdError too, never a RangeError.
 */
import type { JsonValue } from '../../../common/json.js';
import * as enc from './encoding.js';
import { format } from './format.js';
import * as hashes from './hashes.js';
import { manifestIni } from './manifest-ini.js';
import { manifestJson, manifestJsonEx, manifestJsonMinified } from './manifest-json.js';
import { manifestPython, manifestPythonVars } from './manifest-python.js';
import { manifestToml, manifestTomlEx } from './manifest-toml.js';
import { manifestXmlJsonml } from './manifest-xml.js';
import { manifestYamlDoc, manifestYamlStream } from './manifest-yaml.js';
import { parseJson, parseYaml } from './parse.js';
import { StdError } from './std-error.js';
import * as str from './strings.js';

export { StdError } from './std-error.js';
export { serializeJson, toStringValue, unparseString } from './manifest-json.js';
export { unparseNumber } from './go-number.js';
export { format, formatWith, type FormatValues } from './format.js';

export interface PureBuiltin {
  params: string[];
  defaults?: Record<string, JsonValue>;
  fn: (args: JsonValue[]) => JsonValue;
}

type Fn1 = (a: JsonValue) => JsonValue;
type Fn2 = (a: JsonValue, b: JsonValue) => JsonValue;
type Fn3 = (a: JsonValue, b: JsonValue, c: JsonValue) => JsonValue;
type Fn4 = (a: JsonValue, b: JsonValue, c: JsonValue, d: JsonValue) => JsonValue;

function guarded(name: string, f: (args: JsonValue[]) => JsonValue): (args: JsonValue[]) => JsonValue {
  return (args) => {
    try {
      return f(args);
    } catch (e) {
      if (e instanceof StdError) throw e;
      if (e instanceof RangeError) throw new StdError(`std.${name}: value too deeply nested`);
      throw new StdError(`std.${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}

function def(
  name: string,
  params: string[],
  impl: Fn1 | Fn2 | Fn3 | Fn4,
  defaults?: Record<string, JsonValue>,
): PureBuiltin {
  const call = impl as (...a: JsonValue[]) => JsonValue;
  const entry: PureBuiltin = { params, fn: guarded(name, (args) => call(...args)) };
  if (defaults) entry.defaults = defaults;
  return entry;
}

const table: [string, string[], Fn1 | Fn2 | Fn3 | Fn4, Record<string, JsonValue>?][] = [
  ['format', ['str', 'vals'], format],
  ['manifestJson', ['value'], manifestJson],
  ['manifestJsonMinified', ['value'], manifestJsonMinified],
  [
    'manifestJsonEx',
    ['value', 'indent', 'newline', 'key_val_sep'],
    manifestJsonEx,
    { newline: '\n', key_val_sep: ': ' },
  ],
  [
    'manifestYamlDoc',
    ['value', 'indent_array_in_object', 'quote_keys'],
    manifestYamlDoc,
    { indent_array_in_object: false, quote_keys: true },
  ],
  [
    'manifestYamlStream',
    ['value', 'indent_array_in_object', 'c_document_end', 'quote_keys'],
    manifestYamlStream,
    { indent_array_in_object: false, c_document_end: true, quote_keys: true },
  ],
  ['manifestIni', ['ini'], manifestIni],
  ['manifestPython', ['v'], manifestPython],
  ['manifestPythonVars', ['conf'], manifestPythonVars],
  ['manifestToml', ['value'], manifestToml],
  ['manifestTomlEx', ['value', 'indent'], manifestTomlEx],
  ['manifestXmlJsonml', ['value'], manifestXmlJsonml],
  ['parseJson', ['str'], parseJson],
  ['parseYaml', ['str'], parseYaml],
  ['escapeStringJson', ['str_'], enc.escapeStringJson],
  ['escapeStringBash', ['str_'], enc.escapeStringBash],
  ['escapeStringDollars', ['str_'], enc.escapeStringDollars],
  ['escapeStringPython', ['str'], enc.escapeStringPython],
  ['escapeStringXML', ['str_'], enc.escapeStringXML],
  ['base64', ['input'], enc.base64],
  ['base64Decode', ['str'], enc.base64Decode],
  ['base64DecodeBytes', ['str'], enc.base64DecodeBytes],
  ['encodeUTF8', ['str'], enc.encodeUTF8],
  ['decodeUTF8', ['arr'], enc.decodeUTF8],
  ['md5', ['s'], hashes.md5],
  ['sha1', ['s'], hashes.sha1],
  ['sha256', ['s'], hashes.sha256],
  ['sha512', ['s'], hashes.sha512],
  ['sha3', ['s'], hashes.sha3],
  ['substr', ['str', 'from', 'len'], str.substr],
  ['startsWith', ['a', 'b'], str.startsWith],
  ['endsWith', ['a', 'b'], str.endsWith],
  ['split', ['str', 'c'], str.split],
  ['splitLimit', ['str', 'c', 'maxsplits'], str.splitLimit],
  ['splitLimitR', ['str', 'c', 'maxsplits'], str.splitLimitR],
  ['strReplace', ['str', 'from', 'to'], str.strReplace],
  ['asciiUpper', ['str'], str.asciiUpper],
  ['asciiLower', ['str'], str.asciiLower],
  ['trim', ['str'], str.trim],
  ['stripChars', ['str', 'chars'], str.stripChars],
  ['lstripChars', ['str', 'chars'], str.lstripChars],
  ['rstripChars', ['str', 'chars'], str.rstripChars],
  ['findSubstr', ['pat', 'str'], str.findSubstr],
  ['parseInt', ['str'], str.parseInt],
  ['parseOctal', ['str'], str.parseOctal],
  ['parseHex', ['str'], str.parseHex],
  ['char', ['n'], str.charOf],
  ['codepoint', ['str'], str.codepoint],
  ['stringChars', ['str'], str.stringChars],
  ['isEmpty', ['str'], str.isEmpty],
  ['equalsIgnoreCase', ['str1', 'str2'], str.equalsIgnoreCase],
  ['lines', ['arr'], str.lines],
  ['deepJoin', ['arr'], str.deepJoin],
  ['resolvePath', ['f', 'r'], str.resolvePath],
];

export const pureStd: Record<string, PureBuiltin> = Object.create(null) as Record<string, PureBuiltin>;
for (const [name, params, impl, defaults] of table) pureStd[name] = def(name, params, impl, defaults);
