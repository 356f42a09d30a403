/**
 * Output text (spec §7 step 5): JSON and block-style YAML written from Cleat
 * values, so 64-bit ints print exactly and object key order is kept. Any
 * string that YAML 1.1 or 1.2 would read as something else (`no`, `1.0`,
 * `~`, `0x1F`, `2024-01-01`, `.inf`) is double-quoted. A stream of YAML
 * documents starts each with `---`; a JSON stream of several documents is a
 * `v1 List` (one value, which `kubectl apply -f` accepts).
 */
import { isObject, ObjectValue, type Value } from './value.js';

export function floatText(n: number): string {
  // JSON has no distinct float syntax; keep integral floats integral (3.0 prints as 3).
  return Object.is(n, -0) ? '0' : String(n);
}

/** Compact (indent 0) or indented JSON. */
export function toJsonText(v: Value, indent = 2): string {
  return json(v, indent, '');
}

function json(v: Value, indent: number, pad: string): string {
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return floatText(v);
  if (typeof v === 'string') return JSON.stringify(v);
  const inner = pad + ' '.repeat(indent);
  const nl = indent ? '\n' : '';
  const sep = indent ? ': ' : ':';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${nl}${v.map((x) => inner + json(x, indent, inner)).join(`,${nl}`)}${nl}${pad}]`;
  }
  if (v.fields.size === 0) return '{}';
  const entries = [...v.fields].map(([k, x]) => `${inner}${JSON.stringify(k)}${sep}${json(x, indent, inner)}`);
  return `{${nl}${entries.join(`,${nl}`)}${nl}${pad}}`;
}

const YAML_WORDS =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|=|<<)$/;
const YAML_NUMBER = /^[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?$/;
const YAML_OTHER_NUMBER =
  /^[-+]?(?:0[xX][0-9a-fA-F_]+|0[oO]?[0-7_]+|0[bB][01_]+|\.(?:inf|Inf|INF)|[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?)$|^\.(?:nan|NaN|NAN)$/;
const YAML_DATE = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/;
// YAML 1.1 float patterns are loose: `.`, `+.`, `1_0.` all read as numbers.
const YAML_LOOSE_NUMBER = /^[-+]?[0-9_]*\.?[0-9_]*(?:[eE][-+]?[0-9]+)?$/;
const PLAIN_SAFE = /^[A-Za-z0-9_/.$][A-Za-z0-9_./@+=:,$()^ -]*$/;

/** True when a string must be quoted to read back as the same string. */
export function yamlNeedsQuotes(s: string): boolean {
  if (s === '' || !PLAIN_SAFE.test(s)) return true;
  if (s.endsWith(' ') || s.endsWith(':') || s.includes(': ') || s.includes(' #')) return true;
  return (
    YAML_WORDS.test(s) ||
    YAML_NUMBER.test(s) ||
    YAML_LOOSE_NUMBER.test(s) ||
    YAML_OTHER_NUMBER.test(s) ||
    YAML_DATE.test(s)
  );
}

function yamlString(s: string, pad: string): string {
  if (
    s.includes('\n') &&
    !/[\r\u0000-\u0008\u000b-\u001f\u007f]/.test(s) &&
    !s.startsWith(' ') &&
    !s.startsWith('\n')
  ) {
    const trailing = /\n*$/.exec(s)![0].length;
    const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
    const body = trailing === 1 ? s.slice(0, -1) : trailing > 1 ? s.slice(0, -1) : s;
    const lines = body.split('\n').map((l) => (l === '' ? '' : `${pad}  ${l}`));
    return `|${chomp}\n${lines.join('\n')}`;
  }
  return yamlNeedsQuotes(s) ? JSON.stringify(s) : s;
}

function yamlScalar(v: Value, pad: string): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return floatText(v);
  if (typeof v === 'string') return yamlString(v, pad);
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (isObject(v) && v.fields.size === 0) return '{}';
  return undefined;
}

function yamlKey(k: string): string {
  return yamlNeedsQuotes(k) ? JSON.stringify(k) : k;
}

/** One YAML document body (no `---`), ending in a newline. */
export function toYamlText(v: Value): string {
  const lines: string[] = [];
  emit(v, '', lines);
  return `${lines.join('\n')}\n`;
}

function emit(v: Value, pad: string, out: string[]): void {
  const s = yamlScalar(v, pad);
  if (s !== undefined) {
    out.push(pad + s);
    return;
  }
  if (Array.isArray(v)) {
    for (const x of v) {
      const xs = yamlScalar(x, pad);
      if (xs !== undefined) {
        out.push(`${pad}- ${xs}`);
        continue;
      }
      const sub: string[] = [];
      emit(x, `${pad}  `, sub);
      sub[0] = `${pad}- ${sub[0]!.slice(pad.length + 2)}`;
      out.push(...sub);
    }
    return;
  }
  if (!isObject(v)) return;
  for (const [k, x] of v.fields) {
    const xs = yamlScalar(x, pad);
    if (xs !== undefined) {
      out.push(`${pad}${yamlKey(k)}: ${xs}`);
      continue;
    }
    out.push(`${pad}${yamlKey(k)}:`);
    // Lists under a key are not indented further, as kubectl prints them.
    emit(x, Array.isArray(x) ? pad : `${pad}  `, out);
  }
}

/** A YAML stream: each document preceded by `---`. */
export function toYamlStream(docs: Value[]): string {
  return docs.map((d) => `---\n${toYamlText(d)}`).join('');
}

/** JSON text for a set of documents: the document itself when there is one, else a v1 List. */
export function toJsonStream(docs: Value[], indent = 2): string {
  if (docs.length === 1) return `${toJsonText(docs[0]!, indent)}\n`;
  const list = new ObjectValue(
    new Map<string, Value>([
      ['apiVersion', 'v1'],
      ['kind', 'List'],
      ['items', docs],
    ]),
  );
  return `${toJsonText(list, indent)}\n`;
}
