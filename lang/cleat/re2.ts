/**
 * RE2 regular expressions on a JS engine: translates RE2 syntax to an
 * equivalent JS RegExp (flag `u`) and rejects what RE2 rejects
 * (backreferences, lookaround, atomic groups, repeat counts over 1000).
 * Matching is unanchored, as Go's regexp.MatchString. RE2 features whose JS
 * translation we do not do (flag groups other than a leading `(?flags)`) are
 * rejected with a message saying so, never silently changed.
 */
const cache = new Map<string, RegExp | string>();

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));

/** Compiles an RE2 pattern, or returns the reason RE2 (or this translation) rejects it. */
export function compileRe2(pattern: string): RegExp | string {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let result: RegExp | string;
  try {
    const { source, flags } = translate(pattern);
    result = new RegExp(source, `u${flags}`);
  } catch (e) {
    result = e instanceof Re2Error ? e.message : `invalid regular expression: ${(e as Error).message}`;
  }
  if (cache.size > 500) cache.clear();
  cache.set(pattern, result);
  return result;
}

class Re2Error extends Error {}

function translate(p: string): { source: string; flags: string } {
  let i = 0;
  let flags = '';
  const lead = /^\(\?([imsU]+)\)/.exec(p);
  if (lead) {
    if (lead[1]!.includes('U')) throw new Re2Error('the RE2 flag `U` (ungreedy) is not supported');
    flags = [...new Set(lead[1]!.split(''))].join('');
    i = lead[0].length;
  }
  let out = '';
  let depth = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '\\') {
      const r = escape(p, i, false);
      out += r.text;
      i = r.next;
      continue;
    }
    if (c === '[') {
      const r = charClass(p, i);
      out += r.text;
      i = r.next;
      continue;
    }
    if (c === '(') {
      depth++;
      if (p[i + 1] === '?') {
        const rest = p.slice(i + 2);
        if (rest.startsWith(':')) {
          out += '(?:';
          i += 3;
          continue;
        }
        const named = /^P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
        if (named) {
          out += `(?<${named[1]}>`;
          i += 2 + named[0].length;
          continue;
        }
        if (/^[=!]|^<[=!]/.test(rest))
          throw new Re2Error(
            'invalid regular expression: lookaround `(?=`, `(?!`, `(?<=`, `(?<!` is not supported by RE2',
          );
        if (rest.startsWith('>'))
          throw new Re2Error('invalid regular expression: atomic groups are not supported by RE2');
        if (/^[imsU-]+[:)]/.test(rest))
          throw new Re2Error('RE2 flag groups are only supported at the start of the pattern, as `(?i)`');
        throw new Re2Error(`invalid regular expression: bad group \`(?${rest.slice(0, 2)}\``);
      }
      out += '(';
      i++;
      continue;
    }
    if (c === ')') {
      if (--depth < 0) throw new Re2Error('invalid regular expression: unexpected `)`');
      out += ')';
      i++;
      continue;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
      if (m) {
        const lo = Number(m[1]);
        const hi = m[3] ? Number(m[3]) : lo;
        if (lo > 1000 || hi > 1000) throw new Re2Error('invalid regular expression: repeat count over 1000');
        if (m[3] && hi < lo) throw new Re2Error('invalid regular expression: bad repeat range');
        out += m[0];
        i += m[0].length;
        if (p[i] === '+') throw new Re2Error('invalid regular expression: possessive repeats are not supported by RE2');
        continue;
      }
      out += '\\{'; // RE2 reads a `{` that starts no repeat as a literal
      i++;
      continue;
    }
    if (c === '}') {
      out += '\\}';
      i++;
      continue;
    }
    if ((c === '*' || c === '+' || c === '?') && p[i + 1] === '+')
      throw new Re2Error('invalid regular expression: possessive repeats are not supported by RE2');
    if ((c === '*' || c === '+' || c === '?') && /[*+]/.test(p[i + 1] ?? ''))
      throw new Re2Error(`invalid regular expression: bad repetition operator \`${c}${p[i + 1]}\``);
    out += c;
    i++;
  }
  if (depth !== 0) throw new Re2Error('invalid regular expression: missing `)`');
  return { source: out, flags };
}

function escape(p: string, i: number, inClass: boolean): { text: string; next: number } {
  const e = p[i + 1];
  if (e === undefined) throw new Re2Error('invalid regular expression: trailing `\\`');
  if (/[1-9]/.test(e)) throw new Re2Error('invalid regular expression: backreferences are not supported by RE2');
  if (!inClass) {
    if (e === 'A') return { text: '(?<![\\s\\S])', next: i + 2 };
    if (e === 'z') return { text: '(?![\\s\\S])', next: i + 2 };
    if (e === 'b' || e === 'B') return { text: `\\${e}`, next: i + 2 };
  }
  if (e === 'Q') {
    const end = p.indexOf('\\E', i + 2);
    const lit = p.slice(i + 2, end < 0 ? p.length : end);
    return { text: [...lit].map(literal).join(''), next: end < 0 ? p.length : end + 2 };
  }
  if (e === 's') return { text: inClass ? '\\t\\n\\f\\r ' : '[\\t\\n\\f\\r ]', next: i + 2 };
  if (e === 'S') {
    if (inClass) throw new Re2Error('`\\S` inside a character class is not supported');
    return { text: '[^\\t\\n\\f\\r ]', next: i + 2 };
  }
  if ('dDwW'.includes(e)) return { text: `\\${e}`, next: i + 2 };
  if ('ntrfv'.includes(e)) return { text: `\\${e}`, next: i + 2 };
  if (e === 'a') return { text: '\\x07', next: i + 2 };
  if (e === '0') return { text: '\\x00', next: i + 2 };
  if (e === 'x') {
    if (p[i + 2] === '{') {
      const end = p.indexOf('}', i + 3);
      const hex = end < 0 ? '' : p.slice(i + 3, end);
      if (!/^[0-9A-Fa-f]{1,6}$/.test(hex) || parseInt(hex, 16) > 0x10ffff)
        throw new Re2Error('invalid regular expression: bad `\\x{...}` escape');
      return { text: `\\u{${hex}}`, next: end + 1 };
    }
    const hex = p.slice(i + 2, i + 4);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Re2Error('invalid regular expression: bad `\\x` escape');
    return { text: `\\x${hex}`, next: i + 4 };
  }
  if (e === 'p' || e === 'P') {
    let name: string;
    let next: number;
    if (p[i + 2] === '{') {
      const end = p.indexOf('}', i + 3);
      if (end < 0) throw new Re2Error('invalid regular expression: bad `\\p{` escape');
      name = p.slice(i + 3, end);
      next = end + 1;
    } else {
      name = p[i + 2] ?? '';
      next = i + 3;
    }
    const neg = name.startsWith('^');
    if (neg) name = name.slice(1);
    const kind = (e === 'P') !== neg ? 'P' : 'p';
    if (name === 'Any') return { text: kind === 'p' ? '[\\s\\S]' : '[^\\s\\S]', next };
    const prop = name.length <= 2 ? name : `Script=${name}`;
    try {
      new RegExp(`\\p{${prop}}`, 'u');
    } catch {
      throw new Re2Error(`invalid regular expression: unknown Unicode class \`${name}\``);
    }
    return { text: `\\${kind}{${prop}}`, next };
  }
  if (/[A-Za-z0-9]/.test(e)) throw new Re2Error(`invalid regular expression: invalid escape \`\\${e}\``);
  return { text: literal(e), next: i + 2 };
}

/** One literal character, escaped for a JS `u` pattern. */
function literal(c: string): string {
  if (JS_SYNTAX.has(c) || c === '-') return c === '-' ? '\\x2d' : `\\${c}`;
  if (/[A-Za-z0-9\s]/.test(c) || c.codePointAt(0)! > 0x7f) return c;
  return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

function charClass(p: string, i: number): { text: string; next: number } {
  let j = i + 1;
  let out = '[';
  if (p[j] === '^') {
    out += '^';
    j++;
  }
  let first = true;
  while (j < p.length) {
    const c = p[j]!;
    if (c === ']' && !first) return { text: `${out}]`, next: j + 1 };
    first = false;
    if (c === '[' && p[j + 1] === ':') {
      const end = p.indexOf(':]', j + 2);
      const name = end < 0 ? '' : p.slice(j + 2, end);
      const neg = name.startsWith('^');
      const body = POSIX[neg ? name.slice(1) : name];
      if (body === undefined || neg)
        throw new Re2Error(`invalid regular expression: bad character class \`[:${name}:]\``);
      out += body;
      j = end + 2;
      continue;
    }
    if (c === '\\') {
      const r = escape(p, j, true);
      out += r.text;
      j = r.next;
      continue;
    }
    if (c === '[') {
      out += '\\[';
      j++;
      continue;
    }
    if (c === '-') {
      out += '-';
      j++;
      continue;
    }
    out += JS_SYNTAX.has(c) ? `\\${c}` : c;
    j++;
  }
  throw new Re2Error('invalid regular expression: missing `]`');
}
