/**
 * Go's regexp package on a linear-time engine: patterns are parsed by our RE2
 * parser (Go's syntax, errors and flag rules), written back in canonical RE2
 * form (re2-source.ts) and matched by re2js, an RE2 port whose running time
 * is linear in the subject whatever the pattern, as Go's is. On top of the
 * engine this module has Go's loops: MatchString, FindAll (an empty match
 * right after the previous match is skipped), ReplaceAllString and
 * ReplaceAllLiteralString (Go's own loop, which differs from FindAll's),
 * Split, Expand ($1, ${1}, $name, ${name}, $$) and QuoteMeta.
 * Indices are UTF-16 offsets; every match starts and ends on a code point, so
 * they correspond one to one to Go's byte offsets on the same text.
 * Invariants: strings are read as Go reads them after JSON (lone surrogates
 * are U+FFFD, which keeps lengths); compiled patterns are cached by source
 * text, which is safe because compilation is a pure function of it.
 */

import { RE2JS } from 're2js';
import { parseRe2, Re2SyntaxError } from './re2-parse.js';
import { toRe2Source } from './re2-source.js';
import { wellFormed } from '../../common/well-formed.js';

/** [start, end] of the match then of each group, -1 for a group that did not take part. */
export type GoMatch = number[];

export interface GoRegexp {
  /** The pattern as given to Compile (Go's Split looks at its length). */
  pattern: string;
  /** regexp.SubexpNames: index 0 is the whole match (''), unnamed groups are ''. */
  groupNames: string[];
  /** True when the expression matches somewhere in `subject`. */
  test(subject: string): boolean;
  /** The leftmost-first match starting at or after `from` (the text before it still counts for ^ and \b). */
  exec(subject: string, from: number): GoMatch | null;
}

const UNANCHORED = 0;
const CACHE_LIMIT = 256;
const cache = new Map<string, GoRegexp>();

function build(pattern: string): GoRegexp {
  const parsed = parseRe2(wellFormed(pattern));
  let engine: ReturnType<RE2JS['re2']>;
  try {
    engine = RE2JS.compile(toRe2Source(parsed.root)).re2();
  } catch {
    // The canonical source is valid RE2 by construction; the engine refuses only what exceeds its program size.
    throw new Re2SyntaxError('expression too large', pattern);
  }
  const groups = parsed.groupNames.length;
  return {
    pattern,
    groupNames: parsed.groupNames,
    test: (subject) => engine.matchWithGroup(subject, 0, subject.length, UNANCHORED, 0)[0] as boolean,
    exec: (subject, from) => {
      const [found, match] = engine.matchWithGroup(subject, from, subject.length, UNANCHORED, groups);
      return found ? (match as number[]) : null;
    },
  };
}

/** regexp.Compile; throws Re2SyntaxError with Go's message for invalid patterns. */
export function compileGoRegexp(pattern: string): GoRegexp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const compiled = build(pattern);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(pattern, compiled);
  return compiled;
}

/** regexp.MatchString(pattern, s). */
export function goMatchString(pattern: string, s: string): boolean {
  return compileGoRegexp(pattern).test(wellFormed(s));
}

function runeWidth(s: string, i: number): number {
  return (s.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
}

/** Regexp.FindAllStringSubmatchIndex(s, n): at most n matches (n < 0: all). */
export function goFindAll(re: GoRegexp, s: string, n: number): GoMatch[] {
  const out: GoMatch[] = [];
  let prevMatchEnd = -1;
  for (let pos = 0; pos <= s.length && (n < 0 || out.length < n);) {
    const m = re.exec(s, pos);
    if (m === null) break;
    let accept = true;
    if (m[1] === pos) {
      // An empty match right after the previous match is not a match of its own.
      if (m[0] === prevMatchEnd) accept = false;
      pos += pos < s.length ? runeWidth(s, pos) : 1;
    } else pos = m[1]!;
    prevMatchEnd = m[1]!;
    if (accept) out.push(m);
  }
  return out;
}

/** Go's extract: the group name or number after a `$`, or undefined when malformed. */
function extract(t: string): { name: string; num: number; rest: string } | undefined {
  const m = /^(\{)?([\p{L}\p{Nd}_]+)(\})?/u.exec(t);
  if (!m) return undefined;
  const brace = m[1] === '{';
  if (brace && m[3] !== '}') return undefined;
  const name = m[2]!;
  let num = /^[0-9]{1,9}$/.test(name) ? Number(name) : -1;
  if (name.length > 1 && name[0] === '0') num = -1;
  return { name, num, rest: t.slice(brace ? m[0].length : name.length) };
}

/** A replacement template split once: literal text, and group numbers (-1: a group that does not exist). */
type Template = (string | number)[];

/**
 * Go's Regexp.expand rules: `$$` is `$`; `$name`/`${name}` takes the longest run of letters, digits and `_`;
 * a number without a leading zero is a group index, anything else a group name; a malformed `$` is literal.
 */
function parseTemplate(re: GoRegexp, template: string): Template {
  const parts: Template = [];
  let text = '';
  let t = template;
  for (;;) {
    const dollar = t.indexOf('$');
    if (dollar < 0) break;
    text += t.slice(0, dollar);
    t = t.slice(dollar + 1);
    if (t.startsWith('$')) {
      text += '$';
      t = t.slice(1);
      continue;
    }
    const ref = extract(t);
    if (!ref) {
      text += '$';
      continue;
    }
    t = ref.rest;
    parts.push(text);
    text = '';
    // Go rejects duplicate group names, so the first group of that name is the only one.
    parts.push(ref.num >= 0 ? ref.num : re.groupNames.indexOf(ref.name, 1));
  }
  parts.push(text + t);
  return parts;
}

function expandParsed(parts: Template, s: string, match: GoMatch): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') out += part;
    else if (part >= 0 && 2 * part + 1 < match.length && match[2 * part]! >= 0)
      out += s.slice(match[2 * part], match[2 * part + 1]);
  }
  return out;
}

/** Regexp.ReplaceAllString (template expanded) or ReplaceAllLiteralString (`literal`). */
export function goReplaceAll(pattern: string, source: string, replacement: string, literal = false): string {
  return replaceAllWith(compileGoRegexp(pattern), source, replacement, literal);
}

/** goReplaceAll on an already compiled expression (any engine behind the GoRegexp interface). */
export function replaceAllWith(re: GoRegexp, source: string, replacement: string, literal = false): string {
  const src = wellFormed(source);
  const repl = wellFormed(replacement);
  const template = literal ? [repl] : parseTemplate(re, repl);
  let out = '';
  let lastMatchEnd = 0;
  let searchPos = 0;
  while (searchPos <= src.length) {
    const m = re.exec(src, searchPos);
    if (m === null) break;
    const [start, end] = m as [number, number];
    out += src.slice(lastMatchEnd, start);
    // Go skips an empty match that directly follows the previous match.
    if (end > lastMatchEnd || start === 0) out += expandParsed(template, src, m);
    lastMatchEnd = end;
    const width = searchPos < src.length ? runeWidth(src, searchPos) : 1;
    if (searchPos + width > end) searchPos += width;
    else if (searchPos + 1 > end) searchPos++;
    else searchPos = end;
  }
  return out + src.slice(lastMatchEnd);
}

/** Regexp.ReplaceAllString(src, repl), as kubecfg's regexSubst calls it. */
export function goReplaceAllString(pattern: string, source: string, replacement: string): string {
  return goReplaceAll(pattern, source, replacement);
}

/** Regexp.Split(s, n). */
export function goSplit(pattern: string, source: string, n: number): string[] {
  if (n === 0) return [];
  const re = compileGoRegexp(pattern);
  const s = wellFormed(source);
  if (pattern.length > 0 && s.length === 0) return [''];
  const parts: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of goFindAll(re, s, n)) {
    if (n > 0 && parts.length === n - 1) break;
    end = m[0]!;
    if (m[1] !== 0) parts.push(s.slice(beg, end));
    beg = m[1]!;
  }
  if (end !== s.length) parts.push(s.slice(beg));
  return parts;
}

/** regexp.QuoteMeta. */
export function goQuoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}
