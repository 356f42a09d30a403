/**
 * Go regexp behaviour on top of JS RegExp: compile (RE2 syntax and errors,
 * via re2-parse + re2-to-js), MatchString, ReplaceAllString (Go's loop,
 * which ignores an empty match right after a previous match, and Go's
 * $1 / ${1} / $name / $$ template expansion), and QuoteMeta.
 * Invariants: strings are read as Go reads them after JSON (lone surrogates
 * are U+FFFD); compiled patterns are cached by source text, which is safe
 * because compilation is a pure function of it.
 */

import { parseRe2, Re2SyntaxError } from './re2-parse.js';
import { toJsSource } from './re2-to-js.js';
import { wellFormed } from '../well-formed.js';

export interface GoRegexp {
  /** A fresh-state JS regex with flags `gu`; callers set lastIndex before exec. */
  regex: RegExp;
  groupNames: string[];
}

const CACHE_LIMIT = 256;
const cache = new Map<string, GoRegexp>();

/** regexp.Compile; throws Re2SyntaxError with Go's message for invalid patterns. */
export function compileGoRegexp(pattern: string): GoRegexp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const parsed = parseRe2(wellFormed(pattern));
  let regex: RegExp;
  try {
    regex = new RegExp(toJsSource(parsed.root), 'gu');
    regex.exec(''); // V8 compiles on first use; make size failures happen here
    regex.lastIndex = 0;
  } catch {
    // The translation is valid JS syntax by construction; V8 refuses only what is too big for it.
    throw new Re2SyntaxError('expression too large', pattern);
  }
  const compiled = { regex, groupNames: parsed.groupNames };
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(pattern, compiled);
  return compiled;
}

/** regex.exec from a position; V8 may compile again for a two-byte subject, and can fail there. */
function execAt(regex: RegExp, pattern: string, subject: string, position: number): RegExpExecArray | null {
  regex.lastIndex = position;
  try {
    return regex.exec(subject);
  } catch {
    throw new Re2SyntaxError('expression too large', pattern);
  }
}

/** regexp.MatchString(pattern, s). */
export function goMatchString(pattern: string, s: string): boolean {
  const { regex } = compileGoRegexp(pattern);
  return execAt(regex, pattern, wellFormed(s), 0) !== null;
}

/** Go's Regexp.expand for ReplaceAllString: `$$`, `$n`, `${n}`, `$name`, `${name}`. */
function expand(template: string, match: RegExpExecArray, groupNames: string[]): string {
  let out = '';
  let t = template;
  for (;;) {
    const dollar = t.indexOf('$');
    if (dollar < 0) break;
    out += t.slice(0, dollar);
    t = t.slice(dollar + 1);
    if (t.startsWith('$')) {
      out += '$';
      t = t.slice(1);
      continue;
    }
    const m = /^(\{)?([\p{L}\p{Nd}_]+)(\})?/u.exec(t);
    const brace = m?.[1] === '{';
    if (!m || (brace && m[3] !== '}')) {
      out += '$';
      continue;
    }
    const name = m[2]!;
    t = t.slice(brace ? m[0].length : name.length);
    let num = -1;
    if (/^[0-9]+$/.test(name) && !(name.length > 1 && name[0] === '0') && name.length <= 9) num = Number(name);
    if (num >= 0) {
      if (num < match.length && match[num] !== undefined) out += match[num];
    } else {
      const index = groupNames.indexOf(name);
      if (index > 0 && index < match.length && match[index] !== undefined) out += match[index];
    }
  }
  return out + t;
}

/** Regexp.ReplaceAllString(src, repl). */
export function goReplaceAllString(pattern: string, source: string, replacement: string): string {
  const { regex, groupNames } = compileGoRegexp(pattern);
  const src = wellFormed(source);
  const repl = wellFormed(replacement);
  let out = '';
  let lastMatchEnd = 0;
  let searchPos = 0;
  while (searchPos <= src.length) {
    const m = execAt(regex, pattern, src, searchPos);
    if (m === null) break;
    const start = m.index;
    const end = start + m[0].length;
    out += src.slice(lastMatchEnd, start);
    // Go skips an empty match that directly follows the previous match.
    if (end > lastMatchEnd || start === 0) out += expand(repl, m, groupNames);
    lastMatchEnd = end;
    const width = searchPos < src.length ? (src.codePointAt(searchPos)! > 0xffff ? 2 : 1) : 0;
    if (searchPos + width > end) searchPos += width;
    else if (searchPos + 1 > end) searchPos++;
    else searchPos = end;
  }
  return out + src.slice(lastMatchEnd);
}

/** regexp.QuoteMeta. */
export function goQuoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}
