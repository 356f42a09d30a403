/**
 * Sprig string functions (https://masterminds.github.io/sprig/strings.html).
 * Lengths and offsets are in bytes where Sprig slices Go strings by bytes
 * (trunc, substr, abbrev). `repeat` checks the output cap before building.
 */

import { FuncError } from '../errors.js';
import { sprintf } from '../fmt/print.js';
import { quote } from '../../go/strconv.js';
import { type FuncContext, type FuncDef, def, pure } from '../function.js';
import { byteLength, byteSlice, tagType } from '../value.js';
import { strval, strslice } from './convert.js';

const unicodeSpace = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

function trimSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && unicodeSpace.test(s[a]!)) a++;
  while (b > a && unicodeSpace.test(s[b - 1]!)) b--;
  return s.slice(a, b);
}

function cutset(cut: string): Set<string> {
  return new Set(Array.from(cut));
}

function trimSet(s: string, cut: string, left: boolean, right: boolean): string {
  const set = cutset(cut);
  const rs = Array.from(s);
  let a = 0;
  let b = rs.length;
  if (left) while (a < b && set.has(rs[a]!)) a++;
  if (right) while (b > a && set.has(rs[b - 1]!)) b--;
  return rs.slice(a, b).join('');
}

function sliceBytes(s: string, a: number, b: number, fn: string): string {
  const n = byteLength(s);
  if (a < 0 || b > n || a > b)
    throw new Error(`runtime error: slice bounds out of range [${a}:${b}] with length ${n} (in ${fn})`);
  return byteSlice(s, a, b);
}

function abbreviateFull(str: string, offset: number, maxWidth: number): string {
  const n = byteLength(str);
  if (str === '') return '';
  if (maxWidth < 4) return str;
  if (n <= maxWidth) return str;
  if (offset > n) offset = n;
  if (n - offset < maxWidth - 3) offset = n - (maxWidth - 3);
  if (offset <= 4) return byteSlice(str, 0, maxWidth - 3) + '...';
  if (maxWidth < 7) return str;
  if (offset + maxWidth - 3 < n) return '...' + abbreviateFull(byteSlice(str, offset, n), 0, maxWidth - 3);
  return '...' + byteSlice(str, n - (maxWidth - 3), n);
}

const isUpper = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();
const isLower = (c: string) => c !== c.toUpperCase() && c === c.toLowerCase();

/** Go's deprecated strings.Title: upper-cases the first letter of each word. */
function title(s: string): string {
  let prev = ' ';
  let out = '';
  for (const c of s) {
    // Go's isSeparator: ASCII non-alphanumerics (except _) and Unicode spaces.
    const sep = prev.charCodeAt(0) < 0x80 ? !/[A-Za-z0-9_]/.test(prev) : /\s/u.test(prev);
    out += sep ? c.toUpperCase() : c;
    prev = c;
  }
  return out;
}

function untitle(s: string): string {
  let out = '';
  let ws = true;
  for (const c of s) {
    out += ws ? c.toLowerCase() : c;
    ws = /\s/u.test(c);
  }
  return out;
}

function swapcase(s: string): string {
  let out = '';
  let ws = true;
  for (const c of s) {
    if (isUpper(c)) out += c.toLowerCase();
    else if (isLower(c)) out += ws ? c.toUpperCase() : c.toUpperCase();
    else out += c;
    ws = /\s/u.test(c);
  }
  return out;
}

function initials(s: string): string {
  let out = '';
  let ws = true;
  for (const c of s) {
    if (/\s/u.test(c)) ws = true;
    else if (ws) {
      out += c;
      ws = false;
    }
  }
  return out;
}

/** Splits an identifier into words the way huandu/xstrings does for case conversion. */
function words(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  const rs = Array.from(s);
  for (let i = 0; i < rs.length; i++) {
    const c = rs[i]!;
    if (/[\s_\-.]/u.test(c)) {
      if (cur) out.push(cur);
      cur = '';
      continue;
    }
    const prev = rs[i - 1];
    const next = rs[i + 1];
    if (
      cur &&
      isUpper(c) &&
      prev !== undefined &&
      (isLower(prev) || /\d/.test(prev) || (isUpper(prev) && next !== undefined && isLower(next)))
    ) {
      out.push(cur);
      cur = '';
    }
    cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

function camelcase(s: string): string {
  // xstrings.ToCamelCase: separators '_', ' ', '-' are removed and the next letter upper-cased;
  // a leading separator and runs of separators keep one underscore.
  let out = '';
  let upperNext = true;
  const rs = Array.from(s);
  let i = 0;
  while (i < rs.length && rs[i] === '_') {
    out += '_';
    i++;
  }
  for (; i < rs.length; i++) {
    const c = rs[i]!;
    if (c === '_' || c === ' ' || c === '-') {
      let j = i;
      while (j + 1 < rs.length && (rs[j + 1] === '_' || rs[j + 1] === ' ' || rs[j + 1] === '-')) j++;
      if (j > i || j + 1 === rs.length) out += '_';
      i = j;
      upperNext = true;
      continue;
    }
    out += upperNext ? c.toUpperCase() : c;
    upperNext = false;
  }
  return out;
}

/** goutils.WrapCustom. */
function wrapCustom(str: string, wrapLength: number, newLine: string, wrapLongWords: boolean): string {
  if (str === '') return '';
  if (newLine === '') newLine = '\n';
  if (wrapLength < 1) wrapLength = 1;
  const b = new TextEncoder().encode(str);
  const dec = new TextDecoder();
  const sub = (x: number, y: number) => dec.decode(b.subarray(x, y));
  const n = b.length;
  let offset = 0;
  let out = '';
  while (n - offset > wrapLength) {
    if (b[offset] === 0x20) {
      offset++;
      continue;
    }
    const end = Math.min(wrapLength + offset + 1, n);
    const seg = b.subarray(offset, end);
    const sp = seg.lastIndexOf(0x20);
    if (sp >= 0) {
      out += sub(offset, offset + sp) + newLine;
      offset = offset + sp + 1;
    } else if (wrapLongWords) {
      out += sub(offset, offset + wrapLength) + newLine;
      offset += wrapLength;
    } else {
      const e = wrapLength + offset;
      const idx = b.subarray(e).indexOf(0x20);
      if (idx < 0) {
        out += sub(offset, n);
        offset = n;
      } else {
        out += sub(offset, e + idx) + newLine;
        offset = e + idx + 1;
      }
    }
  }
  return out + sub(offset, n);
}

function checkSize(ctx: FuncContext, bytes: number): void {
  if (bytes > ctx.maxOutputBytes)
    throw new FuncError(
      `result of ${bytes} bytes exceeds the output limit of ${ctx.maxOutputBytes} bytes`,
      'TPL_LIMIT',
    );
}

function indent(spaces: number, v: string): string {
  const pad = ' '.repeat(Math.max(spaces, 0));
  return pad + v.replaceAll('\n', '\n' + pad);
}

export const stringFuncs: Record<string, FuncDef> = {
  abbrev: pure(['int', 'string'], (w: number, s: string) => (w < 4 ? s : abbreviateFull(s, 0, w))),
  abbrevboth: pure(['int', 'int', 'string'], (l: number, r: number, s: string) =>
    r < 4 || (l > 0 && r < 7) ? s : abbreviateFull(s, l, r),
  ),
  trunc: pure(['int', 'string'], (c: number, s: string) => {
    const n = byteLength(s);
    if (c < 0 && n + c > 0) return byteSlice(s, n + c, n);
    if (c >= 0 && n > c) return byteSlice(s, 0, c);
    return s;
  }),
  trim: pure(['string'], trimSpace),
  upper: pure(['string'], (s: string) => s.toUpperCase()),
  lower: pure(['string'], (s: string) => s.toLowerCase()),
  title: pure(['string'], title),
  untitle: pure(['string'], untitle),
  substr: pure(['int', 'int', 'string'], (start: number, end: number, s: string) => {
    if (start < 0) return sliceBytes(s, 0, end, 'substr');
    if (end < 0 || end > byteLength(s)) return sliceBytes(s, start, byteLength(s), 'substr');
    return sliceBytes(s, start, end, 'substr');
  }),
  repeat: def(['int', 'string'], (ctx, count: number, s: string) => {
    if (count < 0) throw new Error('strings: negative Repeat count');
    checkSize(ctx, count * byteLength(s));
    return s.repeat(count);
  }),
  trimall: pure(['string', 'string'], (a: string, b: string) => trimSet(b, a, true, true)),
  trimAll: pure(['string', 'string'], (a: string, b: string) => trimSet(b, a, true, true)),
  trimSuffix: pure(['string', 'string'], (a: string, b: string) =>
    a !== '' && b.endsWith(a) ? b.slice(0, b.length - a.length) : b,
  ),
  trimPrefix: pure(['string', 'string'], (a: string, b: string) => (b.startsWith(a) ? b.slice(a.length) : b)),
  nospace: pure(['string'], (s: string) =>
    Array.from(s)
      .filter((c) => !/\s/u.test(c))
      .join(''),
  ),
  initials: pure(['string'], initials),
  swapcase: pure(['string'], swapcase),
  snakecase: pure(['string'], (s: string) =>
    words(s)
      .map((w) => w.toLowerCase())
      .join('_'),
  ),
  kebabcase: pure(['string'], (s: string) =>
    words(s)
      .map((w) => w.toLowerCase())
      .join('-'),
  ),
  camelcase: pure(['string'], camelcase),
  wrap: pure(['int', 'string'], (l: number, s: string) => wrapCustom(s, l, '\n', false)),
  wrapWith: pure(['int', 'string', 'string'], (l: number, sep: string, s: string) => wrapCustom(s, l, sep, true)),
  contains: pure(['string', 'string'], (sub: string, s: string) => s.includes(sub)),
  hasPrefix: pure(['string', 'string'], (p: string, s: string) => s.startsWith(p)),
  hasSuffix: pure(['string', 'string'], (p: string, s: string) => s.endsWith(p)),
  quote: pure(
    [],
    (...xs: unknown[]) =>
      xs
        .filter((x) => x !== null)
        .map((x) => quote(strval(x)))
        .join(' '),
    'any',
  ),
  squote: pure(
    [],
    (...xs: unknown[]) =>
      xs
        .filter((x) => x !== null)
        .map((x) => `'${strval(x)}'`)
        .join(' '),
    'any',
  ),
  cat: pure(
    [],
    (...xs: unknown[]) => {
      const vs = xs.filter((x) => x !== null);
      return sprintf(Array(vs.length).fill('%v').join(' '), vs);
    },
    'any',
  ),
  indent: pure(['int', 'string'], indent),
  nindent: pure(['int', 'string'], (n: number, v: string) => '\n' + indent(n, v)),
  replace: pure(['string', 'string', 'string'], (o: string, n: string, src: string) => goReplaceAll(src, o, n)),
  plural: pure(['string', 'string', 'int'], (one: string, many: string, c: number) => (c === 1 ? one : many)),
  split: pure(['string', 'string'], (sep: string, s: string) => indexMap(goSplit(s, sep, -1))),
  splitList: pure(['string', 'string'], (sep: string, s: string) => tagType(goSplit(s, sep, -1), '[]string')),
  splitn: pure(['string', 'int', 'string'], (sep: string, n: number, s: string) => indexMap(goSplit(s, sep, n))),
  join: pure(['string', 'any'], (sep: string, v: unknown) => strslice(v).join(sep)),
};

/** strings.Replace(s, old, new, -1), including Go's rule for an empty `old` (insert around every rune). */
function goReplaceAll(s: string, o: string, n: string): string {
  if (o === '') return n + Array.from(s).join(n) + (s === '' ? '' : n);
  return s.split(o).join(n);
}

/** strings.Split / SplitN. */
function goSplit(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const rs = Array.from(s);
    if (n < 0 || n >= rs.length) return rs;
    return [...rs.slice(0, n - 1), rs.slice(n - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

function indexMap(parts: string[]): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  parts.forEach((p, i) => (m['_' + i] = p));
  return m;
}
