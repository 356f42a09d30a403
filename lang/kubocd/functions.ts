/**
 * The functions KuboCD defines (fail, fromJson, fromYaml, imageRedirect,
 * keys, required, toJson, toYaml, until, urlParse, resolveDNS) and the
 * size-checked versions of indent, nindent, replace, join, printf,
 * regexReplaceAll and slice. Every message these functions write is safe to
 * show (it never holds the data, except fail/required's own text): they pass
 * it through `kept`, which records it in the sink so the error rewriting can
 * tell it from a message of Go or Sprig that must be withheld.
 */

import { FuncError, profiles, sprintf, type FuncDef, def, pure, marshalYaml } from '../gotemplate/index.js';
import { marshalJson, unmarshalInto } from '../gotemplate/sprig/encoding.js';
import { byteLength, kindOf, isMap } from '../gotemplate/value.js';
import { compareCodepoints } from '../common/json.js';
import { imageRedirect, redirectsOf } from './image-redirect.js';
import { MAX_TEXT_BYTES, MAX_UNTIL_ITEMS } from './limits.js';
import { printfBound, valueBound } from './size-bound.js';
import { KubocdError } from './errors.js';
import { parseYaml, unconvertibleKeyMessage } from './yaml.js';

/** Where a function records the message it fails with, when that message may be shown as is. */
export interface KeptSink {
  fn?: string;
  message?: string;
}

/** How resolveDNS behaves: absent or `allowed: false` is the default platform policy. */
export interface DnsPolicy {
  allowed: boolean;
  /** Synchronous lookup (the caller resolves ahead, e.g. from a prefetched table); undefined when unknown. */
  resolve?: (host: string) => string | undefined;
}

function kept(sink: KeptSink, fn: string, message: string, code: 'TPL_EXEC' | 'TPL_LIMIT' = 'TPL_EXEC'): never {
  sink.fn = fn;
  sink.message = message;
  throw new FuncError(message, code);
}

function sprigFn(name: string): FuncDef {
  const f = profiles.sprig.get(name);
  if (!f) throw new Error(`lang/kubocd: Sprig function ${name} is missing from lang/gotemplate`);
  return f;
}

function builtinFn(name: string): FuncDef {
  const f = profiles.builtin.get(name);
  if (!f) throw new Error(`lang/kubocd: builtin ${name} is missing from lang/gotemplate`);
  return f;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function countOccurrences(s: string, sub: string): number {
  if (sub === '') return Array.from(s).length + 1;
  let n = 0;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

const limitText = `the result is larger than ${MAX_TEXT_BYTES} bytes`;
const boundText = `the result can exceed ${MAX_TEXT_BYTES} bytes`;

/** Size-checked Sprig and builtin functions (checked before the result is built). */
function limitedFuncs(sink: KeptSink): Record<string, FuncDef> {
  const indent = sprigFn('indent');
  const nindent = sprigFn('nindent');
  const replace = sprigFn('replace');
  const join = sprigFn('join');
  const regexReplaceAll = sprigFn('regexReplaceAll');
  const slice = builtinFn('slice');
  const indentCheck = (name: string, n: number, s: string, extra: number): void => {
    if (n < 0) kept(sink, name, `${name}: the indentation must not be negative`);
    const size = extra + n + byteLength(s) + countNewlines(s) * n;
    if (size > MAX_TEXT_BYTES) kept(sink, name, `${name}: ${limitText}`, 'TPL_LIMIT');
  };
  return {
    indent: def(['int', 'string'], (ctx, n: number, s: string) => {
      indentCheck('indent', Number(n), s, 0);
      return indent.impl(ctx, n, s);
    }),
    nindent: def(['int', 'string'], (ctx, n: number, s: string) => {
      indentCheck('nindent', Number(n), s, 1);
      return nindent.impl(ctx, n, s);
    }),
    replace: def(['string', 'string', 'string'], (ctx, old: string, neu: string, src: string) => {
      const count = countOccurrences(src, old);
      const size = byteLength(src) + count * (byteLength(neu) - (old === '' ? 0 : byteLength(old)));
      if (size > MAX_TEXT_BYTES) kept(sink, 'replace', `replace: ${limitText}`, 'TPL_LIMIT');
      return replace.impl(ctx, old, neu, src);
    }),
    join: def(['string', 'any'], (ctx, sep: string, v: unknown) => {
      // Sprig's strslice: nil items are dropped, strings count exactly, other items by their %v bound.
      const items = Array.isArray(v) ? v.filter((x) => x !== null && x !== undefined) : [v];
      let bound = Math.max(0, items.length - 1) * byteLength(sep);
      for (const x of items) bound += typeof x === 'string' ? byteLength(x) : valueBound(x, false);
      if (bound > MAX_TEXT_BYTES) kept(sink, 'join', `join: ${boundText}`, 'TPL_LIMIT');
      return join.impl(ctx, sep, v);
    }),
    regexReplaceAll: def(['string', 'string', 'string'], (ctx, re: string, s: string, repl: string) => {
      const captures = (repl.match(/\$/g) ?? []).length;
      const perMatch = byteLength(repl) + captures * byteLength(s);
      const bound = byteLength(s) + (Array.from(s).length + 1) * perMatch;
      if (bound > MAX_TEXT_BYTES) kept(sink, 'regexReplaceAll', `regexReplaceAll: ${boundText}`, 'TPL_LIMIT');
      return regexReplaceAll.impl(ctx, re, s, repl);
    }),
    printf: pure(
      ['string'],
      (format: string, ...args: unknown[]) => {
        const { usesP, bound } = printfBound(format, args);
        if (usesP) kept(sink, 'printf', 'printf: the %p verb is not allowed');
        if (bound > MAX_TEXT_BYTES) kept(sink, 'printf', `printf: ${boundText}`, 'TPL_LIMIT');
        return sprintf(format, args);
      },
      'any',
    ),
    slice: {
      ...def(
        ['value'],
        (ctx, item: unknown, ...indexes: unknown[]) => {
          for (const x of indexes)
            if (kindOf(x) !== 'int') kept(sink, 'slice', 'slice: the indexes must be integers, convert them with int');
          return slice.impl(ctx, item, ...indexes);
        },
        'value',
      ),
      raw: true,
    },
  };
}

function isMissing(v: unknown): boolean {
  return v === null || v === undefined || v === '';
}

/** The KuboCD functions; `resolveDNS` only when `packageTemplate`. */
function kubocdFuncs(sink: KeptSink, packageTemplate: boolean, dns: DnsPolicy | undefined): Record<string, FuncDef> {
  const urlParse = sprigFn('urlParse');
  const funcs: Record<string, FuncDef> = {
    fail: pure(['string'], (msg: string) => kept(sink, 'fail', msg)),
    required: pure(['string', 'any'], (msg: string, v: unknown) => {
      if (isMissing(v)) kept(sink, 'required', msg);
      return v;
    }),
    fromJson: pure(['string'], (s: string) => {
      try {
        return unmarshalInto(s, 'map');
      } catch (e) {
        return { Error: (e as Error).message };
      }
    }),
    fromYaml: pure(['string'], (s: string) => {
      let v: unknown;
      try {
        v = parseYaml(s, 'the rendered text');
      } catch (e) {
        const msg = e instanceof KubocdError ? e.message : 'invalid YAML';
        if (msg === unconvertibleKeyMessage('the rendered text'))
          return { Error: 'fromYaml: the document has a map key that cannot be converted to a string, such as null' };
        if (msg.includes('keys are the same'))
          kept(
            sink,
            'fromYaml',
            'fromYaml: the document has a map whose keys are the same once converted to strings, such as 1 and "1", or true and "true"',
          );
        return { Error: `fromYaml: ${msg.replace('the rendered text', 'the document')}` };
      }
      if (v === null) return {};
      if (!isMap(v)) return { Error: 'fromYaml: the document is not a map' };
      return v;
    }),
    imageRedirect: pure(['string', 'any'], (image: string, root: unknown) => imageRedirect(image, redirectsOf(root))),
    keys: pure(
      [],
      (...dicts: (Record<string, unknown> | null)[]) =>
        dicts.flatMap((d) => (d ? Object.keys(d) : [])).sort(compareCodepoints),
      'map',
    ),
    toJson: pure(['any'], (v: unknown) => {
      try {
        return marshalJson(v, { escapeHTML: true });
      } catch (e) {
        return (e as Error).message;
      }
    }),
    toYaml: pure(['any'], (v: unknown) => {
      try {
        return marshalYaml(v).replace(/\n$/, '');
      } catch (e) {
        return (e as Error).message;
      }
    }),
    until: pure(['int'], (count: number) => {
      const n = Number(count);
      if (Math.abs(n) > MAX_UNTIL_ITEMS)
        kept(sink, 'until', `until: the count is beyond the limit of ${MAX_UNTIL_ITEMS}`, 'TPL_LIMIT');
      const step = n < 0 ? -1 : 1;
      const out: number[] = [];
      for (let i = 0; step > 0 ? i < n : i > n; i += step) out.push(i);
      return out;
    }),
    urlParse: def(['string'], (ctx, s: string) => {
      try {
        return urlParse.impl(ctx, s);
      } catch {
        return kept(sink, 'urlParse', 'urlParse: invalid URL');
      }
    }),
  };
  if (packageTemplate)
    funcs['resolveDNS'] = pure(['string'], (host: string) => {
      if (!dns?.allowed) kept(sink, 'resolveDNS', 'resolveDNS is disabled by platform policy');
      const ip = dns.resolve?.(host);
      if (ip === undefined) kept(sink, 'resolveDNS', 'resolveDNS: the host name did not resolve');
      return ip;
    });
  return funcs;
}

/** The 45 Sprig functions of the spec (before the size-checked replacements). */
export const SPRIG_FUNCTIONS: readonly string[] = [
  // Strings
  'indent',
  'lower',
  'nindent',
  'nospace',
  'quote',
  'regexReplaceAll',
  'replace',
  'split',
  'splitList',
  'title',
  'trim',
  'trimAll',
  'trimPrefix',
  'trimSuffix',
  'trunc',
  'upper',
  // Lists
  'append',
  'compact',
  'concat',
  'first',
  'has',
  'join',
  'last',
  'list',
  'prepend',
  'sortAlpha',
  'uniq',
  // Dictionaries
  'dict',
  'dig',
  'get',
  'hasKey',
  'omit',
  'set',
  // Logic, defaults and types
  'coalesce',
  'default',
  'empty',
  'kindIs',
  'ternary',
  // Conversions and math
  'div',
  'divf',
  'float64',
  'int',
  'min',
  'mulf',
  // Encoding
  'sha256sum',
];

/** The functions of the KuboCD profile besides Go's builtins, bound to one sink. */
export function kubocdFunctionTable(
  sink: KeptSink,
  packageTemplate: boolean,
  dns: DnsPolicy | undefined,
): Record<string, FuncDef> {
  const table: Record<string, FuncDef> = {};
  for (const name of SPRIG_FUNCTIONS) table[name] = sprigFn(name);
  return { ...table, ...limitedFuncs(sink), ...kubocdFuncs(sink, packageTemplate, dns) };
}
