/**
 * Go RE2 syntax → JS RegExp (with the `u` flag). RE2 features are
 * translated (\A \z \Q..\E, [[:alpha:]], \pN / \p{Greek}, \x{10FFFF}, octal,
 * escaped punctuation, literal `{`, leading (?ims) flags, (?P<name>...)); what
 * RE2 rejects is rejected with Go's message ("error parsing regexp: invalid
 * or unsupported Perl syntax: `(?=`", backreferences, nested repetition,
 * repeat counts over 1000). Go's ASCII `\s` is kept ASCII. Flag groups in the
 * middle of a pattern (`a(?i)b`, `(?i:x)`) are refused: JS (Node 20) has no
 * equivalent, so we fail instead of matching differently.
 */

export interface Translated {
  source: string;
  flags: string;
}

const posix: Record<string, string> = {
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

const syntaxChars = new Set('^$\\.*+?()[]{}|/'.split(''));
const ASCII_SPACE = '\\t\\n\\f\\r ';

export class RegexSyntaxError extends Error {}

function fail(code: string, expr: string): never {
  throw new RegexSyntaxError(`error parsing regexp: ${code}: \`${expr}\``);
}

function unicodeClass(name: string, negated: boolean): string {
  let n = name;
  let neg = negated;
  if (n.startsWith('^')) {
    neg = !neg;
    n = n.slice(1);
  }
  const body = n === 'Any' ? 'Any' : n.length <= 2 ? n : `Script=${n}`;
  try {
    new RegExp(`\\p{${body}}`, 'u');
  } catch {
    fail('invalid character class range', `\\p{${name}}`);
  }
  return `\\${neg ? 'P' : 'p'}{${body}}`;
}

export function translateRe2(pattern: string): Translated {
  const rs = Array.from(pattern);
  let i = 0;
  let out = '';
  let flags = 'u';
  // Leading flag group such as (?i) or (?ms).
  const lead = /^\(\?([imsU]+)\)/.exec(pattern);
  if (lead) {
    if (lead[1]!.includes('U')) fail('invalid or unsupported Perl syntax', '(?U');
    for (const f of new Set(lead[1]!.split(''))) flags += f;
    i = Array.from(lead[0]).length;
  }
  const multiline = flags.includes('m');
  // Whether the previous item can take a repetition operator, and whether it was one.
  let canRepeat = false;
  let lastWasRepeat = false;
  let depth = 0;

  const escapeLiteral = (c: string) => (syntaxChars.has(c) || c === '-' ? '\\' + c : c);

  /** Parses an escape at rs[i] === '\\'; returns the JS text. inClass changes \s and allowed escapes. */
  const escape = (inClass: boolean): string => {
    const c = rs[i + 1];
    if (c === undefined) fail('trailing backslash at end of expression', '');
    i += 2;
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        return '\\' + c;
      case 's':
        return inClass ? ASCII_SPACE : `[${ASCII_SPACE}]`;
      case 'S':
        if (inClass) fail('invalid escape sequence', '\\S');
        return `[^${ASCII_SPACE}]`;
      case 'b':
      case 'B':
        if (inClass) fail('invalid escape sequence', '\\' + c);
        return '\\' + c;
      case 'A':
        if (inClass) fail('invalid escape sequence', '\\A');
        return multiline ? '(?<![\\s\\S])' : '^';
      case 'z':
        if (inClass) fail('invalid escape sequence', '\\z');
        return multiline ? '(?![\\s\\S])' : '$';
      case 'a':
        return '\\x07';
      case 'f':
      case 't':
      case 'n':
      case 'r':
      case 'v':
        return '\\' + c;
      case 'p':
      case 'P': {
        let name: string;
        if (rs[i] === '{') {
          const close = rs.indexOf('}', i);
          if (close < 0) fail('invalid character class range', '\\' + c + rs.slice(i).join(''));
          name = rs.slice(i + 1, close).join('');
          i = close + 1;
        } else {
          name = rs[i] ?? '';
          i++;
        }
        return unicodeClass(name, c === 'P');
      }
      case 'x': {
        if (rs[i] === '{') {
          const close = rs.indexOf('}', i);
          const hex = close < 0 ? '' : rs.slice(i + 1, close).join('');
          if (!/^[0-9a-fA-F]{1,8}$/.test(hex) || parseInt(hex, 16) > 0x10ffff) fail('invalid escape sequence', '\\x{' + hex);
          i = close + 1;
          return `\\u{${hex}}`;
        }
        const hex = rs.slice(i, i + 2).join('');
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) fail('invalid escape sequence', '\\x' + hex);
        i += 2;
        return '\\x' + hex;
      }
      case 'Q': {
        let j = i;
        while (j < rs.length && !(rs[j] === '\\' && rs[j + 1] === 'E')) j++;
        const text = rs.slice(i, j);
        i = j < rs.length ? j + 2 : rs.length;
        return text.map((ch) => escapeLiteral(ch)).join('');
      }
    }
    if (c >= '0' && c <= '7') {
      // Octal: \0 plus up to two digits, or \1-\7 followed by at least one more octal digit.
      let digits = c;
      while (digits.length < 3 && rs[i] !== undefined && rs[i]! >= '0' && rs[i]! <= '7') digits += rs[i++];
      if (c !== '0' && digits.length === 1) fail('invalid escape sequence', '\\' + c);
      return '\\u{' + parseInt(digits, 8).toString(16) + '}';
    }
    if (c.charCodeAt(0) < 0x80 && !/[0-9A-Za-z]/.test(c)) return escapeLiteral(c);
    fail('invalid escape sequence', '\\' + c);
  };

  const parseClass = (): string => {
    const start = i;
    i++;
    let body = '[';
    if (rs[i] === '^') {
      body += '^';
      i++;
    }
    let first = true;
    for (;;) {
      const c = rs[i];
      if (c === undefined) fail('missing closing ]', rs.slice(start).join(''));
      if (c === ']' && !first) {
        i++;
        break;
      }
      first = false;
      if (c === '[' && rs[i + 1] === ':') {
        let close = i + 2;
        while (close < rs.length && !(rs[close] === ':' && rs[close + 1] === ']')) close++;
        if (close < rs.length) {
          const name = rs.slice(i + 2, close).join('');
          const neg = name.startsWith('^');
          const set = posix[neg ? name.slice(1) : name];
          if (set === undefined) fail('invalid character class range', `[:${name}:]`);
          body += neg ? `&&NEG${set}` : set;
          i = close + 2;
          continue;
        }
      }
      if (c === '\\') {
        body += escape(true);
        continue;
      }
      if (c === '[' || c === '/' || c === '{' || c === '}' || c === '(' || c === ')' || c === '|') body += '\\' + c;
      else body += c;
      i++;
    }
    body += ']';
    const neg = /&&NEG(.*?)(?=&&NEG|\]$)/.exec(body);
    if (neg) {
      if (body !== `[&&NEG${neg[1]}]` && body !== `[^&&NEG${neg[1]}]`) fail('invalid character class range', rs.slice(start, i).join(''));
      return body.startsWith('[^') ? `[${neg[1]}]` : `[^${neg[1]}]`;
    }
    try {
      new RegExp(body, 'u');
    } catch {
      fail('invalid character class range', rs.slice(start, i).join(''));
    }
    return body;
  };

  while (i < rs.length) {
    const c = rs[i]!;
    switch (c) {
      case '\\': {
        const e = escape(false);
        out += e;
        canRepeat = !['^', '$', '\\b', '\\B', '(?<![\\s\\S])', '(?![\\s\\S])'].includes(e);
        lastWasRepeat = false;
        continue;
      }
      case '[':
        out += parseClass();
        canRepeat = true;
        lastWasRepeat = false;
        continue;
      case '(': {
        const rest = rs.slice(i, i + 4).join('');
        if (rest.startsWith('(?P<') || (rest.startsWith('(?<') && rs[i + 3] !== '=' && rs[i + 3] !== '!')) {
          const nameStart = i + (rest.startsWith('(?P<') ? 4 : 3);
          const close = rs.indexOf('>', nameStart);
          const name = close < 0 ? '' : rs.slice(nameStart, close).join('');
          if (!/^[A-Za-z0-9_]+$/.test(name)) fail('invalid named capture', rs.slice(i, close < 0 ? rs.length : close + 1).join(''));
          if (/^[0-9]/.test(name)) fail('invalid named capture', rs.slice(i, close + 1).join(''));
          out += `(?<${name}>`;
          i = close + 1;
        } else if (rest.startsWith('(?:')) {
          out += '(?:';
          i += 3;
        } else if (rest.startsWith('(?')) {
          const m = /^\(\?[imsU-]*[:)]?/.exec(rs.slice(i).join(''));
          const shown = m && /[:)]$/.test(m[0]) ? m[0] : rs.slice(i, i + 3).join('');
          if (m && /^\(\?[imsU-]+[:)]$/.test(m[0])) fail('flag groups other than a leading (?flags) are not supported', shown);
          fail('invalid or unsupported Perl syntax', rs.slice(i, i + 3).join(''));
        } else {
          out += '(';
          i++;
        }
        depth++;
        canRepeat = false;
        lastWasRepeat = false;
        continue;
      }
      case ')':
        if (depth === 0) fail('unexpected )', pattern);
        depth--;
        out += ')';
        i++;
        canRepeat = true;
        lastWasRepeat = false;
        continue;
      case '|':
        out += '|';
        i++;
        canRepeat = false;
        lastWasRepeat = false;
        continue;
      case '*':
      case '+':
      case '?': {
        let op = c;
        i++;
        if (rs[i] === '?') {
          op += '?';
          i++;
        }
        if (lastWasRepeat) fail('invalid nested repetition operator', rs.slice(i - op.length - 1, i).join('').replace(/^[^*+?}]*/, '') || op);
        if (!canRepeat) fail('missing argument to repetition operator', op);
        out += op;
        lastWasRepeat = true;
        continue;
      }
      case '{': {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(rs.slice(i).join(''));
        if (!m) {
          out += '\\{';
          i++;
          canRepeat = true;
          lastWasRepeat = false;
          continue;
        }
        const min = Number(m[1]);
        const max = m[3] ? Number(m[3]) : undefined;
        if (min > 1000 || (max !== undefined && (max > 1000 || max < min))) fail('invalid repeat count', m[0]);
        let op = m[0];
        i += op.length;
        if (rs[i] === '?') {
          op += '?';
          i++;
        }
        if (lastWasRepeat) fail('invalid nested repetition operator', op);
        if (!canRepeat) fail('missing argument to repetition operator', op);
        out += op;
        lastWasRepeat = true;
        continue;
      }
      case '}':
        out += '\\}';
        i++;
        canRepeat = true;
        lastWasRepeat = false;
        continue;
      case '^':
      case '$':
        out += c;
        i++;
        canRepeat = false;
        lastWasRepeat = false;
        continue;
      case '/':
        out += '\\/';
        i++;
        canRepeat = true;
        lastWasRepeat = false;
        continue;
      default:
        out += c;
        i++;
        canRepeat = true;
        lastWasRepeat = false;
    }
  }
  if (depth > 0) fail('missing closing )', pattern);
  try {
    new RegExp(out, flags);
  } catch (e) {
    fail('invalid regexp', `${pattern}: ${(e as Error).message}`);
  }
  return { source: out, flags };
}

const cache = new Map<string, RegExp>();

/** A compiled RE2 pattern (global + unicode); throws RegexSyntaxError with Go's message. */
export function compileRe2(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    const t = translateRe2(pattern);
    re = new RegExp(t.source, t.flags + 'g');
    if (cache.size > 500) cache.clear();
    cache.set(pattern, re);
  }
  re.lastIndex = 0;
  return re;
}
