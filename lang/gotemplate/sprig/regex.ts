/**
 * Sprig regex functions (https://masterminds.github.io/sprig/strings.html#regexmatch):
 * patterns use Go's RE2 syntax (lang/common/re2, shared with kubecfg's natives and Cleat). FindAll and Split use
 * Go's rule that an empty match right after the previous match is skipped,
 * and replacements expand `$1`, `${1}`, `$name`, `${name}` and `$$` as Go's
 * Regexp.Expand does (a name is the longest run of letters, digits and `_`).
 */

import { type FuncDef, pure } from '../function.js';
import { tagType } from '../value.js';
import { compileGoRegexp } from '../../common/re2/go-regexp.js';

interface Match {
  index: number;
  end: number;
  groups: (string | undefined)[];
  named: Record<string, string | undefined>;
}

/** Go's FindAll: at most n matches (n < 0: all), skipping empty matches adjacent to the previous one. */
export function findAll(pattern: string, s: string, n: number): Match[] {
  const { regex: re, groupNames } = compileGoRegexp(pattern);
  const out: Match[] = [];
  let pos = 0;
  let prevEnd = -1;
  while (pos <= s.length && (n < 0 || out.length < n)) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) break;
    const end = m.index + m[0].length;
    let accept = true;
    if (m[0].length === 0 && m.index === prevEnd) accept = false;
    if (accept) {
      const named: Record<string, string | undefined> = {};
      groupNames.forEach((name, i) => {
        if (name !== '' && !(name in named)) named[name] = m[i];
      });
      out.push({ index: m.index, end, groups: [...m], named });
    }
    if (m[0].length === 0) {
      // Advance one code point past an empty match.
      const cp = s.codePointAt(m.index);
      pos = m.index + (cp !== undefined && cp > 0xffff ? 2 : 1);
    } else pos = end;
    prevEnd = end;
  }
  return out;
}

function expand(template: string, m: Match): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c !== '$' || i + 1 >= template.length) {
      out += c;
      continue;
    }
    const next = template[i + 1]!;
    if (next === '$') {
      out += '$';
      i++;
      continue;
    }
    let name: string;
    let len: number;
    if (next === '{') {
      const close = template.indexOf('}', i + 2);
      const inner = close < 0 ? '' : template.slice(i + 2, close);
      if (close < 0 || !/^[A-Za-z0-9_]+$/.test(inner)) {
        out += c;
        continue;
      }
      name = inner;
      len = close - i + 1;
    } else {
      const mm = /^[A-Za-z0-9_]+/.exec(template.slice(i + 1));
      if (!mm) {
        out += c;
        continue;
      }
      name = mm[0];
      len = 1 + name.length;
    }
    i += len - 1;
    if (/^[0-9]+$/.test(name)) {
      const k = Number(name);
      out += k < m.groups.length ? (m.groups[k] ?? '') : '';
    } else out += m.named[name] ?? '';
  }
  return out;
}

function replaceAll(pattern: string, s: string, repl: string, literal: boolean): string {
  let out = '';
  let last = 0;
  for (const m of findAll(pattern, s, -1)) {
    out += s.slice(last, m.index) + (literal ? repl : expand(repl, m));
    last = m.end;
  }
  return out + s.slice(last);
}

function split(pattern: string, s: string, n: number): string[] {
  if (n === 0) return [];
  if (pattern.length > 0 && s.length === 0) return [''];
  const matches = findAll(pattern, s, n);
  const parts: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of matches) {
    if (n > 0 && parts.length === n - 1) break;
    end = m.index;
    if (m.end !== 0) parts.push(s.slice(beg, end));
    beg = m.end;
  }
  if (end !== s.length) parts.push(s.slice(beg));
  return parts;
}

function quoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

const strs = (a: string[]) => tagType(a, '[]string');

/** Plain variants fail the template on a bad pattern, as Sprig's regexp.MustCompile panics. */
export const regexFuncs: Record<string, FuncDef> = {
  regexMatch: pure(['string', 'string'], (re: string, s: string) => {
    try {
      return findAll(re, s, 1).length > 0;
    } catch {
      return false;
    }
  }),
  mustRegexMatch: pure(['string', 'string'], (re: string, s: string) => findAll(re, s, 1).length > 0),
  regexFindAll: pure(['string', 'string', 'int'], (re: string, s: string, n: number) =>
    strs(findAll(re, s, n).map((m) => m.groups[0]!)),
  ),
  mustRegexFindAll: pure(['string', 'string', 'int'], (re: string, s: string, n: number) =>
    strs(findAll(re, s, n).map((m) => m.groups[0]!)),
  ),
  regexFind: pure(['string', 'string'], (re: string, s: string) => findAll(re, s, 1)[0]?.groups[0] ?? ''),
  mustRegexFind: pure(['string', 'string'], (re: string, s: string) => findAll(re, s, 1)[0]?.groups[0] ?? ''),
  regexReplaceAll: pure(['string', 'string', 'string'], (re: string, s: string, r: string) =>
    replaceAll(re, s, r, false),
  ),
  mustRegexReplaceAll: pure(['string', 'string', 'string'], (re: string, s: string, r: string) =>
    replaceAll(re, s, r, false),
  ),
  regexReplaceAllLiteral: pure(['string', 'string', 'string'], (re: string, s: string, r: string) =>
    replaceAll(re, s, r, true),
  ),
  mustRegexReplaceAllLiteral: pure(['string', 'string', 'string'], (re: string, s: string, r: string) =>
    replaceAll(re, s, r, true),
  ),
  regexSplit: pure(['string', 'string', 'int'], (re: string, s: string, n: number) => strs(split(re, s, n))),
  mustRegexSplit: pure(['string', 'string', 'int'], (re: string, s: string, n: number) => strs(split(re, s, n))),
  regexQuoteMeta: pure(['string'], quoteMeta),
};
