/**
 * `.helmignore` as Helm's pkg/ignore reads it when loading a chart
 * directory: one pattern per line, `#` comments and blank lines skipped,
 * `!` negates, a trailing `/` matches directories only, a leading `/`
 * anchors at the chart root, a pattern with a `/` matches the whole
 * relative path, one without matches the base name only; matching is Go's
 * filepath.Match (`*` and `?` stay within a segment, `[...]` classes, `\`
 * escapes). Helm's default rule `templates/.?*` is always added. `**` is
 * refused with Helm's error. As in Helm, a negated rule ignores every path
 * it does NOT match. Archives are not filtered: Helm applies the file when
 * packaging, not when loading a .tgz.
 * Invariant: pure; a malformed pattern never matches (Helm logs and skips it).
 */

import { compileGoRegexp, type GoRegexp } from '../go/regexp/go-regexp.js';
import { ChartError } from './chart-error.js';

interface Rule {
  negate: boolean;
  mustDir: boolean;
  anchored: boolean;
  structural: boolean;
  regex: GoRegexp | null;
}

/**
 * Go's filepath.Match pattern as an anchored RE2 expression on the linear-time engine (filepath.Match
 * never backtracks exponentially, and `*a*a*a...` would in a JS RegExp), or null for ErrBadPattern.
 */
export function goMatchRegex(pattern: string): GoRegexp | null {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\') {
      i++;
      if (i >= pattern.length) return null;
      re += escapeRegex(pattern[i]!);
    } else if (c === '[') {
      let j = i + 1;
      let cls = '';
      if (pattern[j] === '^') {
        cls += '^';
        j++;
      }
      let first = true;
      for (;;) {
        if (j >= pattern.length) return null;
        let ch = pattern[j]!;
        if (ch === ']' && !first) break;
        first = false;
        if (ch === ']') return null;
        if (ch === '\\') {
          j++;
          if (j >= pattern.length) return null;
          ch = pattern[j]!;
        } else if (ch === '-') return null;
        let item = escapeClass(ch);
        if (pattern[j + 1] === '-' && pattern[j + 2] !== undefined && pattern[j + 2] !== ']') {
          let hi = pattern[j + 2]!;
          j += 2;
          if (hi === '\\') {
            j++;
            if (j >= pattern.length) return null;
            hi = pattern[j]!;
          }
          if (hi < ch) return null;
          item += '-' + escapeClass(hi);
        }
        cls += item;
        j++;
      }
      re += `[${cls}]`;
      i = j;
    } else re += escapeRegex(c);
  }
  try {
    return compileGoRegexp(`^${re}$`);
  } catch {
    return null; // a class range RE2 refuses (e.g. on surrogate halves): malformed, as Go would find it
  }
}

function escapeRegex(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function escapeClass(c: string): string {
  return c.replace(/[[\]\\^-]/g, '\\$&');
}

function parseRule(line: string, lineNo: number): Rule | null {
  let rule = line.trim();
  if (rule === '' || rule.startsWith('#')) return null;
  if (rule.includes('**')) throw new ChartError(`.helmignore:${lineNo}: double-star (**) syntax is not supported`);
  const negate = rule.startsWith('!');
  if (negate) rule = rule.slice(1);
  const mustDir = rule.endsWith('/');
  if (mustDir) rule = rule.slice(0, -1);
  const anchored = rule.startsWith('/');
  if (anchored) rule = rule.slice(1);
  return { negate, mustDir, anchored, structural: anchored || rule.includes('/'), regex: goMatchRegex(rule) };
}

export class HelmIgnore {
  private readonly rules: Rule[];

  constructor(text: string) {
    this.rules = [];
    text.split('\n').forEach((line, i) => {
      const r = parseRule(line, i + 1);
      if (r) this.rules.push(r);
    });
    // Helm's AddDefaults: hidden files under templates/.
    this.rules.push(parseRule('templates/.?*', 0)!);
  }

  /** Helm's Rules.Ignore for a relative slash path. */
  ignores(path: string, isDir: boolean): boolean {
    if (path === '' || path === '.' || path === './') return false;
    for (const r of this.rules) {
      if (!r.regex) continue;
      const subject = r.structural ? path : path.slice(path.lastIndexOf('/') + 1);
      const matched = r.regex.test(subject);
      if (r.negate) {
        if (r.mustDir && !isDir) return true;
        if (!matched) return true;
        continue;
      }
      if (r.mustDir && !isDir) continue;
      if (matched) return true;
    }
    return false;
  }

  /** The files a directory walk keeps: a file is dropped when it or any directory above it is ignored. */
  filter(files: Map<string, Uint8Array>): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    const dirVerdict = new Map<string, boolean>();
    const dirIgnored = (dir: string): boolean => {
      let v = dirVerdict.get(dir);
      if (v === undefined) {
        const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
        v = (parent !== '' && dirIgnored(parent)) || this.ignores(dir, true);
        dirVerdict.set(dir, v);
      }
      return v;
    };
    for (const [path, data] of files) {
      const slash = path.lastIndexOf('/');
      if (slash > 0 && dirIgnored(path.slice(0, slash))) continue;
      if (this.ignores(path, false)) continue;
      out.set(path, data);
    }
    return out;
  }
}
