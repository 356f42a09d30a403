/**
 * Encodings: base64/base32 as Go's StdEncoding (strict decoding; Sprig
 * returns the decoder's error text as the result), and JSON as Go's
 * encoding/json writes it (sorted keys, HTML-safe escapes, Go's float
 * format) and reads it (every number becomes a float64, as decoding into
 * interface{} does).
 */

import { compareCodepoints } from '../../common/json.js';
import { type FuncDef, pure } from '../function.js';
import { GoObject, goFloat, kindOf, mapSet, numberOf } from '../value.js';
import { formatFloat } from '../../go/strconv.js';
import { formatNumber, quoteString, unmarshal } from '../../go/encoding-json.js';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function encode(bytes: Uint8Array, alphabet: string, bitsPer: number, quantum: number): string {
  let out = '';
  let buf = 0;
  let bits = 0;
  for (const b of bytes) {
    buf = (buf << 8) | b;
    bits += 8;
    while (bits >= bitsPer) {
      bits -= bitsPer;
      out += alphabet[(buf >> bits) & ((1 << bitsPer) - 1)];
    }
    buf &= (1 << bits) - 1;
  }
  if (bits > 0) out += alphabet[(buf << (bitsPer - bits)) & ((1 << bitsPer) - 1)];
  while (out.length % quantum !== 0) out += '=';
  return out;
}

/** Strict decoding with Go's "illegal base64 data at input byte N" positions. */
function decode(s: string, alphabet: string, bitsPer: number, quantum: number, name: string): Uint8Array | string {
  const src = new TextEncoder().encode(s);
  const out: number[] = [];
  let si = 0;
  const err = (i: number) => `illegal ${name} data at input byte ${i}`;
  while (si < src.length) {
    const vals: number[] = [];
    let j = 0;
    let padded = false;
    const start = si;
    for (; j < quantum; j++) {
      while (si < src.length && (src[si] === 0x0a || src[si] === 0x0d)) si++;
      if (si === src.length) {
        if (j === 0) break;
        return err(si - j > start ? start : si - j);
      }
      const c = String.fromCharCode(src[si]!);
      si++;
      if (c === '=') {
        // Padding: the rest of the quantum must be '=' and nothing may follow.
        const minData = bitsPer === 6 ? 2 : 2;
        if (j < minData) return err(si - 1);
        for (let k = j + 1; k < quantum; k++) {
          while (si < src.length && (src[si] === 0x0a || src[si] === 0x0d)) si++;
          if (si === src.length || src[si] !== 0x3d) return err(si === src.length ? si : si);
          si++;
        }
        while (si < src.length && (src[si] === 0x0a || src[si] === 0x0d)) si++;
        if (si < src.length) return err(si);
        padded = true;
        break;
      }
      const v = alphabet.indexOf(c);
      if (v < 0) return err(si - 1);
      vals.push(v);
    }
    if (vals.length === 0 && !padded) break;
    let buf = 0n;
    for (const v of vals) buf = (buf << BigInt(bitsPer)) | BigInt(v);
    const nbytes = Math.floor((vals.length * bitsPer) / 8);
    buf >>= BigInt(vals.length * bitsPer - nbytes * 8);
    for (let k = nbytes - 1; k >= 0; k--) out.push(Number((buf >> BigInt(8 * k)) & 0xffn));
    if (padded) break;
  }
  return new Uint8Array(out);
}

const utf8 = new TextDecoder();

function decodeToString(s: string, alphabet: string, bits: number, quantum: number, name: string): string {
  const r = decode(s, alphabet, bits, quantum, name);
  return typeof r === 'string' ? r : utf8.decode(r);
}

// ---- JSON ----

/** encoding/json's float64 format. */
export function jsonFloat(f: number): string {
  if (!Number.isFinite(f)) throw new Error(`json: unsupported value: ${formatFloat(f, 'g', -1)}`);
  return formatNumber(f);
}

export interface JsonOptions {
  escapeHTML: boolean;
  indent?: string;
}

/** json.Marshal / MarshalIndent of a template value. */
export function marshalJson(v: unknown, opts: JsonOptions, depth = 0): string {
  const nl = (d: number) => (opts.indent !== undefined ? '\n' + opts.indent.repeat(d) : '');
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return 'null';
    case 'bool':
      return v ? 'true' : 'false';
    case 'int':
      return String(v);
    case 'float':
      return jsonFloat(numberOf(v));
    case 'string':
      return quoteString(v as string, opts.escapeHTML);
    case 'slice': {
      if (v instanceof Uint8Array) return quoteString(Buffer.from(v).toString('base64'), false);
      const a = v as unknown[];
      if (a.length === 0) return '[]';
      const sep = opts.indent !== undefined ? ': ' : ':';
      void sep;
      return '[' + a.map((x) => nl(depth + 1) + marshalJson(x, opts, depth + 1)).join(',') + nl(depth) + ']';
    }
    case 'map': {
      const m = v as Record<string, unknown>;
      const keys = Object.keys(m).sort(compareCodepoints);
      if (keys.length === 0) return '{}';
      const sep = opts.indent !== undefined ? ': ' : ':';
      return (
        '{' +
        keys
          .map((k) => nl(depth + 1) + quoteString(k, opts.escapeHTML) + sep + marshalJson(m[k], opts, depth + 1))
          .join(',') +
        nl(depth) +
        '}'
      );
    }
    case 'object': {
      const j = (v as GoObject & { toJSONValue?: () => unknown }).toJSONValue;
      if (j) return marshalJson(j.call(v), opts, depth);
      return '{}';
    }
    case 'func':
      throw new Error('json: unsupported type: func(...interface {}) (interface {}, error)');
  }
}

/** json.Unmarshal into interface{} (numbers as float64), with Go's error messages. */
function unmarshalJson(text: string): unknown {
  return jsonToGoData(unmarshal(text));
}

/** A JSON value as Go holds it after unmarshaling into interface{}: every number a float64. */
export function jsonToGoData(v: unknown): unknown {
  if (typeof v === 'number') return goFloat(v);
  if (Array.isArray(v)) return v.map(jsonToGoData);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) mapSet(out, k, jsonToGoData(x));
    return out;
  }
  return v;
}

function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      return 'number';
  }
}

/** json.Unmarshal into a Go container type; mismatches fail like Go ("cannot unmarshal X into Go value of type T"). */
export function unmarshalInto(text: string, want: 'map' | 'slice'): unknown {
  const v = unmarshalJson(text);
  if (v === null) return want === 'map' ? {} : [];
  if (want === 'map' && kindOf(v) !== 'map')
    throw new Error(`json: cannot unmarshal ${jsonTypeName(v)} into Go value of type map[string]interface {}`);
  if (want === 'slice' && !Array.isArray(v))
    throw new Error(`json: cannot unmarshal ${jsonTypeName(v)} into Go value of type []interface {}`);
  return v;
}

function rawJson(v: unknown): string {
  return marshalJson(v, { escapeHTML: false });
}

export const encodingFuncs: Record<string, FuncDef> = {
  b64enc: pure(['string'], (s: string) => encode(new TextEncoder().encode(s), B64, 6, 4)),
  b64dec: pure(['string'], (s: string) => decodeToString(s, B64, 6, 4, 'base64')),
  b32enc: pure(['string'], (s: string) => encode(new TextEncoder().encode(s), B32, 5, 8)),
  b32dec: pure(['string'], (s: string) => decodeToString(s, B32, 5, 8, 'base32')),
  toJson: pure(['any'], (v: unknown) => {
    try {
      return marshalJson(v, { escapeHTML: true });
    } catch {
      return '';
    }
  }),
  mustToJson: pure(['any'], (v: unknown) => marshalJson(v, { escapeHTML: true })),
  toPrettyJson: pure(['any'], (v: unknown) => {
    try {
      return marshalJson(v, { escapeHTML: true, indent: '  ' });
    } catch {
      return '';
    }
  }),
  mustToPrettyJson: pure(['any'], (v: unknown) => marshalJson(v, { escapeHTML: true, indent: '  ' })),
  toRawJson: pure(['any'], (v: unknown) => {
    try {
      return rawJson(v);
    } catch {
      return '';
    }
  }),
  mustToRawJson: pure(['any'], rawJson),
  fromJson: pure(['string'], (s: string) => {
    try {
      return unmarshalJson(s);
    } catch {
      return null;
    }
  }),
  mustFromJson: pure(['string'], unmarshalJson),
};
