/**
 * Byte and escaping functions: std.base64 / base64Decode / base64DecodeBytes,
 * std.encodeUTF8 / decodeUTF8 and the escapeString* family.
 * go-jsonnet details kept on purpose:
 * - std.base64 of a string rejects code points above 255 but then encodes the
 *   string's UTF-8 bytes (so "é" gives "w6k=", where C++ jsonnet gives "6Q==");
 * - decoding follows Go's base64.StdEncoding (padding required, CR/LF
 *   ignored, error offsets in bytes) and Go's UTF-8 decoding, where every
 *   byte of a bad sequence becomes one U+FFFD.
 */
import type { JsonValue } from '../../../common/json.js';
import { toStringValue, unparseString } from './manifest-json.js';
import { StdError } from './std-error.js';
import { strReplace } from './strings.js';
import { isInt32, typeName, wantArray, wantInt, wantString } from './values.js';

const utf8 = new TextEncoder();
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function badByte(n: number): StdError {
  return new StdError(`base64 encountered invalid codepoint value in the array (must be 0 <= X <= 255), got ${n}`);
}

function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  if (i + 1 === bytes.length) {
    const n = bytes[i]! << 16;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + '==';
  } else if (i + 2 === bytes.length) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + '=';
  }
  return out;
}

export function base64(input: JsonValue): string {
  if (typeof input === 'string') {
    for (const ch of input) {
      const cp = ch.codePointAt(0)!;
      if (cp > 255) throw badByte(cp);
    }
    return encodeBase64(utf8.encode(input));
  }
  if (Array.isArray(input)) {
    const bytes = new Uint8Array(input.length);
    input.forEach((el, i) => {
      if (typeof el !== 'number' || !isInt32(el)) {
        throw new StdError(`base64 encountered a non-integer value in the array, got ${typeName(el)}`);
      }
      if (el < 0 || el > 255) throw badByte(el);
      bytes[i] = el;
    });
    return encodeBase64(bytes);
  }
  throw new StdError(`base64 can only base64 encode strings / arrays of single bytes, got ${typeName(input)}`);
}

const B64_INV = new Int16Array(256).fill(-1);
for (let i = 0; i < 64; i++) B64_INV[B64.charCodeAt(i)] = i;

function corrupt(at: number): StdError {
  return new StdError(`failed to decode: illegal base64 data at input byte ${at}`);
}

/** Go's base64.StdEncoding.DecodeString, quantum by quantum (same error offsets). */
function decodeBase64Go(src: Uint8Array): number[] {
  const out: number[] = [];
  let si = 0;
  const isNl = (b: number | undefined): boolean => b === 10 || b === 13;
  while (si < src.length) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let j = 0;
    let trailingError: StdError | undefined;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return out;
        throw corrupt(si - j);
      }
      const b = src[si]!;
      si++;
      const v = B64_INV[b]!;
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (isNl(b)) {
        j--;
        continue;
      }
      if (b !== 61) throw corrupt(si - 1);
      // padding
      if (j === 0 || j === 1) throw corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isNl(src[si])) si++;
        if (si === src.length) throw corrupt(src.length);
        if (src[si] !== 61) throw corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNl(src[si])) si++;
      if (si < src.length) trailingError = corrupt(si);
      dlen = j;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    const bytes = [(val >> 16) & 255, (val >> 8) & 255, val & 255];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailingError) throw trailingError;
    if (dlen < 4) return out;
  }
  return out;
}

function decodeInput(input: JsonValue): number[] {
  if (typeof input !== 'string') throw new StdError(`base64DecodeBytes requires a string, got ${typeName(input)}`);
  const bytes = utf8.encode(input);
  if (bytes.length % 4 !== 0) {
    throw new StdError(`input string appears not to be a base64 encoded string. Wrong length found (${bytes.length})`);
  }
  return decodeBase64Go(bytes);
}

export function base64DecodeBytes(input: JsonValue): number[] {
  return decodeInput(input);
}

export function base64Decode(input: JsonValue): string {
  return decodeUtf8Go(decodeInput(input));
}

/** Go's UTF-8 decoding (as `for range` over a string): each byte of an invalid sequence is one U+FFFD. */
export function decodeUtf8Go(b: ArrayLike<number>): string {
  const parts: string[] = [];
  let chunk = '';
  let i = 0;
  const n = b.length;
  const cont = (x: number | undefined, lo = 0x80, hi = 0xbf): boolean => x !== undefined && x >= lo && x <= hi;
  while (i < n) {
    const c = b[i]!;
    let cp = -1;
    let width = 1;
    if (c < 0x80) cp = c;
    else if (c >= 0xc2 && c <= 0xdf) {
      if (cont(b[i + 1])) {
        cp = ((c & 0x1f) << 6) | (b[i + 1]! & 0x3f);
        width = 2;
      }
    } else if (c >= 0xe0 && c <= 0xef) {
      const lo = c === 0xe0 ? 0xa0 : 0x80;
      const hi = c === 0xed ? 0x9f : 0xbf;
      if (cont(b[i + 1], lo, hi) && cont(b[i + 2])) {
        cp = ((c & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f);
        width = 3;
      }
    } else if (c >= 0xf0 && c <= 0xf4) {
      const lo = c === 0xf0 ? 0x90 : 0x80;
      const hi = c === 0xf4 ? 0x8f : 0xbf;
      if (cont(b[i + 1], lo, hi) && cont(b[i + 2]) && cont(b[i + 3])) {
        cp = ((c & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f);
        width = 4;
      }
    }
    chunk += cp < 0 ? '\ufffd' : String.fromCodePoint(cp);
    if (chunk.length > 4096) {
      parts.push(chunk);
      chunk = '';
    }
    i += width;
  }
  parts.push(chunk);
  return parts.join('');
}

export function encodeUTF8(str: JsonValue): number[] {
  return Array.from(utf8.encode(wantString(str)));
}

export function decodeUTF8(arr: JsonValue): string {
  const elems = wantArray(arr);
  const bytes = elems.map((el) => {
    const v = wantInt(el);
    if (v < 0 || v > 255) throw new StdError(`Bytes must be integers in range [0, 255], got ${v}`);
    return v;
  });
  return decodeUtf8Go(bytes);
}

export function escapeStringJson(v: JsonValue): string {
  return unparseString(toStringValue(v));
}

export function escapeStringPython(v: JsonValue): string {
  return escapeStringJson(v);
}

export function escapeStringBash(v: JsonValue): string {
  return "'" + strReplace(toStringValue(v), "'", `'"'"'`) + "'";
}

export function escapeStringDollars(v: JsonValue): string {
  return strReplace(toStringValue(v), '$', '$$');
}

const XML_ESCAPES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };

export function escapeStringXML(v: JsonValue): string {
  return toStringValue(v).replace(/[<>&"']/g, (c) => XML_ESCAPES[c]!);
}
