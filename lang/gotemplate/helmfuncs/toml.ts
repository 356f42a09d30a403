/**
 * TOML output as Helm's toToml writes it with BurntSushi/toml's encoder:
 * sorted keys, plain key/values before tables, sub-tables indented two
 * spaces per level, arrays of maps as [[tables]], nil values skipped, floats
 * always with a decimal point.
 */

import { compareCodepoints } from '../../common/json.js';
import { formatFloat } from '../../go/strconv.js';
import { GoObject, isMap, kindOf, numberOf } from '../value.js';

function key(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : quoteString(k);
}

function quoteString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || c === 0x7f) out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

function scalar(v: unknown): string {
  switch (kindOf(v)) {
    case 'bool':
      return v ? 'true' : 'false';
    case 'int':
      return String(v);
    case 'float': {
      const f = numberOf(v);
      if (Number.isNaN(f)) return 'nan';
      if (!Number.isFinite(f)) return f > 0 ? 'inf' : '-inf';
      const s = formatFloat(f, 'f', -1);
      return s.includes('.') ? s : s + '.0';
    }
    case 'string':
      return quoteString(v as string);
    case 'slice':
      return (
        '[' +
        (v as unknown[])
          .filter((x) => x !== null)
          .map(scalar)
          .join(', ') +
        ']'
      );
    case 'map': {
      const m = v as Record<string, unknown>;
      return (
        '{' +
        Object.keys(m)
          .sort(compareCodepoints)
          .filter((k) => m[k] !== null)
          .map((k) => `${key(k)} = ${scalar(m[k])}`)
          .join(', ') +
        '}'
      );
    }
    case 'object':
      return quoteString((v as GoObject).format());
  }
  throw new Error(`toml: cannot encode a value of type ${kindOf(v)}`);
}

const isTableArray = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every(isMap);

function table(out: string[], m: Record<string, unknown>, path: string[], depth: number): void {
  const keys = Object.keys(m).sort(compareCodepoints);
  const pad = '  '.repeat(depth);
  for (const k of keys) {
    const v = m[k];
    if (v === null || v === undefined || isMap(v) || isTableArray(v)) continue;
    out.push(`${pad}${key(k)} = ${scalar(v)}`);
  }
  for (const k of keys) {
    const v = m[k];
    const p = [...path, key(k)];
    const subPad = '  '.repeat(depth);
    if (isMap(v)) {
      if (out.length > 0) out.push('');
      out.push(`${subPad}[${p.join('.')}]`);
      table(out, v, p, depth + 1);
    } else if (isTableArray(v)) {
      for (const item of v as Record<string, unknown>[]) {
        if (out.length > 0) out.push('');
        out.push(`${subPad}[[${p.join('.')}]]`);
        table(out, item, p, depth + 1);
      }
    }
  }
}

export function marshalToml(v: unknown): string {
  if (!isMap(v)) throw new Error(`toml: top-level values must be Go maps or structs`);
  const out: string[] = [];
  table(out, v, [], 0);
  return out.length ? out.join('\n') + '\n' : '';
}
