/**
 * json.Unmarshal into interface{}: RFC 8259 JSON, numbers as float64, last
 * duplicate key wins, and Go's errors word for word ("invalid character 'x'
 * looking for beginning of value", "unexpected end of JSON input", the
 * 10000-level nesting limit "invalid character '[' exceeded max depth").
 * As in Go, the whole text is checked for syntax before a number out of
 * float64's range is reported ("json: cannot unmarshal number 1e400 into Go
 * value of type float64"); bad surrogate escapes become U+FFFD. The scanner
 * is iterative, so hostile nesting can never overflow the JS stack.
 */
import type { JsonObject, JsonValue } from '../../common/json.js';
import { setJsonKey } from '../../common/json.js';

const MAX_DEPTH = 10000;

/** A syntax or range error, worded as encoding/json words it. */
export class GoJsonSyntaxError extends Error {}

/** Go's quoteChar for the byte at fault (non-ASCII: the first UTF-8 byte, shown as Latin-1). */
function quoteChar(s: string, i: number): string {
  let c = s.codePointAt(i)!;
  if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
  if (c >= 0x80) {
    c = c < 0x800 ? 0xc0 | (c >> 6) : c < 0x10000 ? 0xe0 | (c >> 12) : 0xf0 | (c >> 18);
    return "'" + String.fromCharCode(c) + "'";
  }
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = {
    7: '\\a',
    8: '\\b',
    9: '\\t',
    10: '\\n',
    11: '\\v',
    12: '\\f',
    13: '\\r',
    0x5c: '\\\\',
  };
  if (named[c] !== undefined) return "'" + named[c] + "'";
  if (c < 0x20 || c === 0x7f) return "'\\x" + c.toString(16).padStart(2, '0') + "'";
  return "'" + String.fromCharCode(c) + "'";
}

type Frame = { kind: 'array'; value: JsonValue[] } | { kind: 'object'; value: JsonObject; key: string };

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** json.Unmarshal(text, &v) with v an interface{}. */
export function unmarshal(text: string): JsonValue {
  const s = text;
  const n = s.length;
  let i = 0;
  let rangeError: string | undefined;
  const stack: Frame[] = [];
  const eof = (): never => {
    throw new GoJsonSyntaxError('unexpected end of JSON input');
  };
  // Go's scanner ends the input by feeding it a space, so a value cut short inside a literal,
  // number or escape reports that space rather than "unexpected end".
  const eofIn = (context: string): never => {
    throw new GoJsonSyntaxError(`invalid character ' ' ${context}`);
  };
  const bad = (at: number, context: string): never => {
    throw new GoJsonSyntaxError(`invalid character ${quoteChar(s, at)} ${context}`);
  };
  const skipWs = (): void => {
    while (i < n && isWs(s.charCodeAt(i))) i++;
  };

  const readString = (): string => {
    // s[i] is the opening quote
    i++;
    let out = '';
    let start = i;
    for (;;) {
      if (i >= n) eof();
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        out += s.slice(start, i);
        i++;
        return out.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
      }
      if (c < 0x20) bad(i, 'in string literal');
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += s.slice(start, i);
      i++;
      if (i >= n) eofIn('in string escape code');
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
      if (simple[e] !== undefined) {
        out += simple[e];
        i++;
      } else if (e === 'u') {
        const readU4 = (at: number): number => {
          let v = 0;
          for (let k = 0; k < 4; k++) {
            if (at + k >= n) eofIn('in \\u hexadecimal character escape');
            const h = hexVal(s.charCodeAt(at + k));
            if (h < 0) bad(at + k, 'in \\u hexadecimal character escape');
            v = v * 16 + h;
          }
          return v;
        };
        const r = readU4(i + 1);
        i += 5;
        if (r >= 0xd800 && r <= 0xdfff) {
          // Go combines a valid \uD8xx\uDCxx pair; anything else becomes U+FFFD.
          if (
            r <= 0xdbff &&
            s[i] === '\\' &&
            s[i + 1] === 'u' &&
            i + 6 <= n &&
            /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))
          ) {
            const r2 = Number.parseInt(s.slice(i + 2, i + 6), 16);
            if (r2 >= 0xdc00 && r2 <= 0xdfff) {
              out += String.fromCharCode(r, r2);
              i += 6;
            } else out += '\ufffd';
          } else out += '\ufffd';
        } else out += String.fromCharCode(r);
      } else bad(i, 'in string escape code');
      start = i;
    }
  };

  const readNumber = (): number => {
    const begin = i;
    if (s.charCodeAt(i) === 0x2d) {
      i++;
      if (i >= n) eofIn('in numeric literal');
      if (!isDigit(s.charCodeAt(i))) bad(i, 'in numeric literal');
    }
    if (s.charCodeAt(i) === 0x30) i++;
    else while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (i < n && s.charCodeAt(i) === 0x2e) {
      i++;
      if (i >= n) eofIn('after decimal point in numeric literal');
      if (!isDigit(s.charCodeAt(i))) bad(i, 'after decimal point in numeric literal');
      while (i < n && isDigit(s.charCodeAt(i))) i++;
    }
    if (i < n && (s[i] === 'e' || s[i] === 'E')) {
      i++;
      if (i < n && (s[i] === '+' || s[i] === '-')) i++;
      if (i >= n) eofIn('in exponent of numeric literal');
      if (!isDigit(s.charCodeAt(i))) bad(i, 'in exponent of numeric literal');
      while (i < n && isDigit(s.charCodeAt(i))) i++;
    }
    const lit = s.slice(begin, i);
    const v = Number(lit);
    if (!Number.isFinite(v)) {
      rangeError ??= `json: cannot unmarshal number ${lit} into Go value of type float64`;
      return 0;
    }
    return v;
  };

  const readLiteral = (word: string, value: JsonValue): JsonValue => {
    i++;
    for (let k = 1; k < word.length; k++) {
      if (i >= n) eofIn(`in literal ${word} (expecting '${word[k]}')`);
      if (s[i] !== word[k]) bad(i, `in literal ${word} (expecting '${word[k]}')`);
      i++;
    }
    return value;
  };

  const push = (frame: Frame): void => {
    stack.push(frame);
    if (stack.length > MAX_DEPTH) bad(i, 'exceeded max depth');
  };

  // Reads one value; returns undefined when it opened a container (the loop below continues it).
  const beginValue = (): JsonValue | undefined => {
    skipWs();
    if (i >= n) eof();
    const c = s.charCodeAt(i);
    if (c === 0x7b) {
      push({ kind: 'object', value: {}, key: '' });
      i++;
      skipWs();
      if (i >= n) eof();
      if (s.charCodeAt(i) === 0x7d) {
        i++;
        return stack.pop()!.value;
      }
      if (s.charCodeAt(i) !== 0x22) bad(i, 'looking for beginning of object key string');
      return undefined;
    }
    if (c === 0x5b) {
      push({ kind: 'array', value: [] });
      i++;
      skipWs();
      if (i >= n) eof();
      if (s.charCodeAt(i) === 0x5d) {
        i++;
        return stack.pop()!.value;
      }
      return undefined;
    }
    if (c === 0x22) return readString();
    if (c === 0x2d || isDigit(c)) return readNumber();
    if (c === 0x74) return readLiteral('true', true);
    if (c === 0x66) return readLiteral('false', false);
    if (c === 0x6e) return readLiteral('null', null);
    return bad(i, 'looking for beginning of value');
  };

  // Object frames need their key read before their value.
  const readKey = (frame: Frame & { kind: 'object' }): void => {
    frame.key = readString();
    skipWs();
    if (i >= n) eof();
    if (s.charCodeAt(i) !== 0x3a) bad(i, 'after object key');
    i++;
  };

  let value = beginValue();
  for (;;) {
    if (value === undefined) {
      // a container was just opened: start its first element
      const top = stack[stack.length - 1]!;
      if (top.kind === 'object') readKey(top);
      value = beginValue();
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) break;
    if (top.kind === 'array') top.value.push(value);
    else setJsonKey(top.value, top.key, value);
    skipWs();
    if (i >= n) eof();
    const c = s.charCodeAt(i);
    if (top.kind === 'array') {
      if (c === 0x2c) {
        i++;
        value = beginValue();
      } else if (c === 0x5d) {
        i++;
        value = stack.pop()!.value;
      } else bad(i, 'after array element');
    } else if (c === 0x2c) {
      i++;
      skipWs();
      if (i >= n) eof();
      if (s.charCodeAt(i) !== 0x22) bad(i, 'looking for beginning of object key string');
      readKey(top);
      value = beginValue();
    } else if (c === 0x7d) {
      i++;
      value = stack.pop()!.value;
    } else bad(i, 'after object key:value pair');
  }
  skipWs();
  if (i < n) bad(i, 'after top-level value');
  if (rangeError !== undefined) throw new GoJsonSyntaxError(rangeError);
  return value;
}
