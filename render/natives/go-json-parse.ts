/**
 * json.Unmarshal into interface{}, as kubecfg's parseJson native calls it:
 * RFC 8259 JSON, numbers as float64 (out-of-range numbers are an error),
 * duplicate keys keep the last value, and syntax errors carry Go's
 * encoding/json wording ("invalid character 'x' looking for beginning of
 * value", "unexpected end of JSON input", ...). Invariant: iterative over
 * nesting depth bounded by MAX_DEPTH (Go's scanner limit is 10000).
 */

import type { JsonValue } from '../../lang/common/json.js';
import { jsonObject, setJsonKey } from '../../lang/common/json.js';
import { goQuote } from '../go/go-text.js';
import { wellFormed } from '../../lang/common/well-formed.js';

const MAX_DEPTH = 10000;

export class GoJsonSyntaxError extends Error {}

function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return `'"'`;
  const q = goQuote(c);
  return `'${q.slice(1, -1)}'`;
}

export function goJsonUnmarshal(text: string): JsonValue {
  const s = wellFormed(text);
  let i = 0;
  let depth = 0;
  const fail = (context: string): never => {
    if (i >= s.length) throw new GoJsonSyntaxError('unexpected end of JSON input');
    // Go's scanner reports one byte: for a non-ASCII character, its first UTF-8 byte read as Latin-1.
    const bytes = new TextEncoder().encode(String.fromCodePoint(s.codePointAt(i)!));
    throw new GoJsonSyntaxError(`invalid character ${quoteChar(String.fromCharCode(bytes[0]!))} ${context}`);
  };
  const skipSpace = (): void => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  };
  const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

  const parseString = (): string => {
    i++; // opening quote
    let out = '';
    for (;;) {
      if (i >= s.length) fail('');
      const c = s[i]!;
      if (c === '"') {
        i++;
        // \u escapes of lone surrogates decode to U+FFFD in Go; escaped pairs stay joined
        return wellFormed(out);
      }
      if (c < ' ') fail('in string literal');
      if (c !== '\\') {
        out += c;
        i++;
        continue;
      }
      i++;
      if (i >= s.length) fail('');
      const e = s[i]!;
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      if (e in simple) {
        out += simple[e];
        i++;
        continue;
      }
      if (e !== 'u') fail('in string escape code');
      i++;
      let hex = '';
      for (let k = 0; k < 4; k++) {
        if (i >= s.length) fail('');
        if (!/[0-9a-fA-F]/.test(s[i]!)) fail('in \\u hexadecimal character escape');
        hex += s[i];
        i++;
      }
      out += String.fromCharCode(parseInt(hex, 16));
    }
  };

  const parseNumber = (): number => {
    const start = i;
    if (s[i] === '-') {
      i++;
      if (i >= s.length) fail('');
      if (!isDigit(s[i])) fail('in numeric literal');
    }
    if (s[i] === '0') i++;
    else while (isDigit(s[i])) i++;
    if (s[i] === '.') {
      i++;
      if (i >= s.length) fail('');
      if (!isDigit(s[i])) fail('after decimal point in numeric literal');
      while (isDigit(s[i])) i++;
    }
    if (s[i] === 'e' || s[i] === 'E') {
      i++;
      if (s[i] === '+' || s[i] === '-') i++;
      if (i >= s.length) fail('');
      if (!isDigit(s[i])) fail('in exponent of numeric literal');
      while (isDigit(s[i])) i++;
    }
    const literal = s.slice(start, i);
    const n = Number(literal);
    if (!Number.isFinite(n))
      throw new GoJsonSyntaxError(`json: cannot unmarshal number ${literal} into Go value of type float64`);
    return n;
  };

  const parseLiteral = (word: string, value: JsonValue): JsonValue => {
    for (let k = 0; k < word.length; k++) {
      if (i >= s.length) fail('');
      if (s[i] !== word[k])
        fail(k === 0 ? 'looking for beginning of value' : `in literal ${word} (expecting ${quoteChar(word[k]!)})`);
      i++;
    }
    return value;
  };

  const parseValue = (): JsonValue => {
    skipSpace();
    if (i >= s.length) fail('');
    const c = s[i]!;
    if (c === '{') {
      if (++depth > MAX_DEPTH) throw new GoJsonSyntaxError('exceeded max depth');
      i++;
      const obj = jsonObject([]);
      skipSpace();
      if (s[i] === '}') {
        i++;
        depth--;
        return obj;
      }
      for (;;) {
        skipSpace();
        if (i >= s.length) fail('');
        if (s[i] !== '"') fail('looking for beginning of object key string');
        const key = parseString();
        skipSpace();
        if (i >= s.length) fail('');
        if (s[i] !== ':') fail('after object key');
        i++;
        setJsonKey(obj, key, parseValue());
        skipSpace();
        if (i >= s.length) fail('');
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === '}') {
          i++;
          depth--;
          return obj;
        }
        fail('after object key:value pair');
      }
    }
    if (c === '[') {
      if (++depth > MAX_DEPTH) throw new GoJsonSyntaxError('exceeded max depth');
      i++;
      const arr: JsonValue[] = [];
      skipSpace();
      if (s[i] === ']') {
        i++;
        depth--;
        return arr;
      }
      for (;;) {
        arr.push(parseValue());
        skipSpace();
        if (i >= s.length) fail('');
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === ']') {
          i++;
          depth--;
          return arr;
        }
        fail('after array element');
      }
    }
    if (c === '"') return parseString();
    if (c === '-' || isDigit(c)) return parseNumber();
    if (c === 't') return parseLiteral('true', true);
    if (c === 'f') return parseLiteral('false', false);
    if (c === 'n') return parseLiteral('null', null);
    return fail('looking for beginning of value');
  };

  const value = parseValue();
  skipSpace();
  if (i < s.length) fail('after top-level value');
  return value;
}
