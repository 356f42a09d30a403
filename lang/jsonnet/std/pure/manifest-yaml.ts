/**
 * std.manifestYamlDoc (go-jsonnet's native builtin) and std.manifestYamlStream
 * (std.jsonnet code on top of it). Output rules, from go-jsonnet:
 * numbers as FormatFloat('f', -1) (no exponent), strings ending in "\n" as a
 * `|` block (the final newline dropped, every line indented two spaces past the
 * current indentation), other strings JSON-quoted, `[]`/`{}` for empties.
 * With quote_keys=false a key is bare only if `yamlBareSafe` says so; this is
 * go-jsonnet's rule (a different one from the C++ std.jsonnet version: e.g.
 * `a.b` and `192.168.0.1` are bare here, quoted by C++): go-jsonnet wins.
 */
import type { JsonValue } from '../../../common/json.js';
import { sortedKeys } from '../../../common/json.js';
import { formatFloat, parseFloatOk } from '../../../go/strconv.js';
import { unparseString } from './manifest-json.js';
import { StdError } from './std-error.js';
import { typeName, wantBoolean } from './values.js';

const YAML_INDENT = '  ';

const RESERVED = [
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  '.nan',
  '-.inf',
  '+.inf',
  '.inf',
  'null',
  '-',
  '---',
  "''",
];
const TIMESTAMP = /^(?:[0-9]*-){2}[0-9]*$/;
const BINARY = /^[-+]?0b[0-1_]+$/;
// Unanchored in go-jsonnet too: any key containing "0x<hex>" is quoted.
const HEX = /[-+]?0x[0-9a-fA-F_]+/;
const BARE_CHARS = /^[A-Za-z0-9_\-/.]+$/;

/** go-jsonnet's yamlBareSafe: may this key be written without quotes? */
export function yamlBareSafe(s: string): boolean {
  if (s.length === 0 || !BARE_CHARS.test(s)) return false;
  const lower = s.toLowerCase();
  if (RESERVED.includes(lower)) return false;
  if (TIMESTAMP.test(s)) return false;
  if (BINARY.test(s) || HEX.test(s)) return false;
  // strconv.Atoi success implies ParseFloat success, so one check covers both.
  if (parseFloatOk(s)) return false;
  return true;
}

function isNonEmptyArray(v: JsonValue): boolean {
  return Array.isArray(v) && v.length > 0;
}

function isObjectValue(v: JsonValue): v is Record<string, JsonValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function manifestYamlDoc(value: JsonValue, indentArrayInObjectV: JsonValue, quoteKeysV: JsonValue): string {
  const indentArrayInObject = wantBoolean(indentArrayInObjectV);
  const quoteKeys = wantBoolean(quoteKeysV);
  const out: string[] = [];
  const aux = (v: JsonValue, cindent: string): void => {
    if (v === null) out.push('null');
    else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
    else if (typeof v === 'number') out.push(formatFloat(v, 'f', -1));
    else if (typeof v === 'string') {
      if (v === '') out.push('""');
      else if (v.endsWith('\n')) {
        out.push('|');
        for (const line of v.slice(0, -1).split('\n')) out.push('\n', cindent, YAML_INDENT, line);
      } else out.push(unparseString(v));
    } else if (Array.isArray(v)) {
      if (v.length === 0) {
        out.push('[]');
        return;
      }
      v.forEach((el, ix) => {
        if (ix !== 0) out.push('\n', cindent);
        out.push('-');
        if (isNonEmptyArray(el)) out.push('\n', cindent, YAML_INDENT);
        else out.push(' ');
        aux(el, typeof el === 'object' && el !== null ? cindent + YAML_INDENT : cindent);
      });
    } else {
      const keys = sortedKeys(v);
      if (keys.length === 0) {
        out.push('{}');
        return;
      }
      keys.forEach((k, ix) => {
        const fv = v[k]!;
        if (ix !== 0) out.push('\n', cindent);
        out.push(quoteKeys || !yamlBareSafe(k) ? unparseString(k) : k, ':');
        let inner = cindent;
        if (isNonEmptyArray(fv)) {
          out.push('\n', cindent);
          if (indentArrayInObject) {
            out.push(YAML_INDENT);
            inner = cindent + YAML_INDENT;
          }
        } else if (isObjectValue(fv) && Object.keys(fv).length > 0) {
          out.push('\n', cindent, YAML_INDENT);
          inner = cindent + YAML_INDENT;
        } else out.push(' ');
        aux(fv, inner);
      });
    }
  };
  aux(value, '');
  return out.join('');
}

export function manifestYamlStream(
  value: JsonValue,
  indentArrayInObject: JsonValue,
  cDocumentEnd: JsonValue,
  quoteKeys: JsonValue,
): string {
  if (!Array.isArray(value)) throw new StdError('manifestYamlStream only takes arrays, got ' + typeName(value));
  const docs = value.map((doc) => manifestYamlDoc(doc, indentArrayInObject, quoteKeys));
  const end = wantBoolean(cDocumentEnd) ? '\n...\n' : '\n';
  return '---\n' + docs.join('\n---\n') + end;
}
