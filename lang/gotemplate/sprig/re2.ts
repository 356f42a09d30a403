/**
 * Go RE2 syntax → JS RegExp (with the `u` flag). RE2 features are
 * translated (\A \z \Q..\E, [[:alpha:]], \pN / \p{Greek}, \x{10FFFF}, octal,
 * escaped punctuation, literal `{`, leading (?ims) flags, (?P<name>...)); what
 * RE2 rejects is rejected with Go's message ("error parsing regexp: invalid
 * or unsupported Perl syntax: `(?=`", backreferences, nested repetition,
 * repeat counts over 1000). Go's ASCII `\s` is kept ASCII, `.` excludes only
 * `\n`, and `(?m)` lines end only at `\n`, all spelled out explicitly. Flags
 * may change mid-pattern (`a(?i)b`, `(?s:.)`): JS (Node 20) has no inline
 * modifiers, so case-insensitive parts are expanded into case-variant classes
 * (simple case folding, checked against the engine's own `iu` folding).
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

interface FlagState {
  i: boolean;
  m: boolean;
  s: boolean;
}

/** Applies a flag string such as "i", "ms" or "i-s"; Go rejects U here only in our port, and empty or dangling '-'. */
function applyFlags(cur: FlagState, spec: string, shown: string): FlagState {
  if (spec === '' || spec.endsWith('-') || spec.split('-').length > 2 || spec.includes('U')) {
    fail('invalid or unsupported Perl syntax', shown);
  }
  const next = { ...cur };
  let on = true;
  for (const f of spec) {
    if (f === '-') on = false;
    else next[f as keyof FlagState] = on;
  }
  return next;
}

// Case-fold orbits that toLowerCase/toUpperCase alone do not connect.
const extraOrbits = [
  [0x4b, 0x6b, 0x212a],
  [0x53, 0x73, 0x17f],
  [0xc5, 0xe5, 0x212b],
  [0xb5, 0x39c, 0x3bc],
  [0x398, 0x3b8, 0x3d1, 0x3f4],
  [0x392, 0x3b2, 0x3d0],
  [0x395, 0x3b5, 0x3f5],
  [0x39a, 0x3ba, 0x3f0],
  [0x3a0, 0x3c0, 0x3d6],
  [0x3a1, 0x3c1, 0x3f1],
  [0x3a3, 0x3c2, 0x3c3],
  [0x3a6, 0x3c6, 0x3d5],
  [0x3a9, 0x3c9, 0x2126],
  [0x1e60, 0x1e61, 0x1e9b],
  [0x399, 0x3b9, 0x345, 0x1fbe],
];

const foldCache = new Map<number, number[]>();

function cpClassItem(cp: number): string {
  const ch = String.fromCodePoint(cp);
  return /[\\\]\[^-]/.test(ch) ? '\\' + ch : ch;
}

/** Code points equal to cp under simple case folding (as the `iu` flags fold). */
function foldVariants(cp: number): number[] {
  const hit = foldCache.get(cp);
  if (hit) return hit;
  const cands = new Set<number>([cp]);
  const add = (t: string) => {
    const a = Array.from(t);
    if (a.length === 1) cands.add(a[0]!.codePointAt(0)!);
  };
  const ch = String.fromCodePoint(cp);
  for (const t of [ch.toLowerCase(), ch.toUpperCase()]) {
    add(t);
    if (Array.from(t).length === 1) {
      add(t.toLowerCase());
      add(t.toUpperCase());
    }
  }
  for (const orbit of extraOrbits) if (orbit.includes(cp)) orbit.forEach((x) => cands.add(x));
  const re = new RegExp(`^[${cpClassItem(cp)}]$`, 'iu');
  const out = [...cands].filter((x) => re.test(String.fromCodePoint(x))).sort((a, b) => a - b);
  foldCache.set(cp, out);
  return out;
}

function foldLiteral(c: string): string {
  const vs = foldVariants(c.codePointAt(0)!);
  return vs.length > 1 ? '[' + vs.map(cpClassItem).join('') + ']' : c;
}

// Blocks holding every cased letter we fold for classes.
const casedBlocks: [number, number][] = [
  [0x41, 0x24f],
  [0x345, 0x345],
  [0x370, 0x58f],
  [0x10a0, 0x10ff],
  [0x13a0, 0x13ff],
  [0x1c80, 0x1cbf],
  [0x1e00, 0x1fff],
  [0x2100, 0x2184],
  [0x24b6, 0x24e9],
  [0x2c00, 0x2d2f],
  [0xa640, 0xa7ff],
  [0xab70, 0xabbf],
  [0xff21, 0xff5a],
  [0x10400, 0x1044f],
  [0x104b0, 0x104fb],
  [0x10c80, 0x10cff],
  [0x118a0, 0x118df],
  [0x1e900, 0x1e943],
];

/** A JS class made case-insensitive: members plus every cased code point that folds to one (negation applies after). */
function foldClass(body: string): string {
  const negated = body.startsWith('[^');
  const positive = negated ? '[' + body.slice(2) : body;
  const re = new RegExp(`^${positive}$`, 'u');
  const extra: number[] = [];
  for (const [lo, hi] of casedBlocks) {
    for (let cp = lo; cp <= hi; cp++) {
      const ch = String.fromCodePoint(cp);
      if (re.test(ch)) continue;
      if (foldVariants(cp).some((v) => v !== cp && re.test(String.fromCodePoint(v)))) extra.push(cp);
    }
  }
  const inner = positive.slice(1, -1) + extra.map(cpClassItem).join('');
  return (negated ? '[^' : '[') + inner + ']';
}

export function translateRe2(pattern: string): Translated {
  const rs = Array.from(pattern);
  let i = 0;
  let out = '';
  let flags = 'u';
  let cur: FlagState = { i: false, m: false, s: false };
  const stack: FlagState[] = [];
  // A leading (?i) with no later flag group maps to the JS `i` flag; otherwise `i` is emulated.
  const lead = /^\(\?([imsU]+)\)/.exec(pattern);
  const leadLen = lead ? lead[0].length : 0;
  const emulateI = /\(\?[imsU-]*[:)]/.test(pattern.slice(leadLen));
  if (lead) {
    cur = applyFlags(cur, lead[1]!, lead[0]);
    if (cur.i && !emulateI) flags += 'i';
    i = Array.from(lead[0]).length;
  }
  const foldI = () => cur.i && emulateI;
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
        return '^';
      case 'z':
        if (inClass) fail('invalid escape sequence', '\\z');
        return '$';
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
          if (!/^[0-9a-fA-F]{1,8}$/.test(hex) || parseInt(hex, 16) > 0x10ffff)
            fail('invalid escape sequence', '\\x{' + hex);
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
      if (body !== `[&&NEG${neg[1]}]` && body !== `[^&&NEG${neg[1]}]`)
        fail('invalid character class range', rs.slice(start, i).join(''));
      return body.startsWith('[^') ? `[${neg[1]}]` : `[^${neg[1]}]`;
    }
    try {
      new RegExp(body, 'u');
    } catch {
      fail('invalid character class range', rs.slice(start, i).join(''));
    }
    return foldI() ? foldClass(body) : body;
  };

  while (i < rs.length) {
    const c = rs[i]!;
    switch (c) {
      case '\\': {
        const e = escape(false);
        out += e;
        canRepeat = !['^', '$', '\\b', '\\B'].includes(e);
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
          if (!/^[A-Za-z0-9_]+$/.test(name))
            fail('invalid named capture', rs.slice(i, close < 0 ? rs.length : close + 1).join(''));
          if (/^[0-9]/.test(name)) fail('invalid named capture', rs.slice(i, close + 1).join(''));
          out += `(?<${name}>`;
          i = close + 1;
        } else if (rest.startsWith('(?:')) {
          out += '(?:';
          i += 3;
        } else if (rest.startsWith('(?')) {
          const m = /^\(\?([imsU-]*)([:)])/.exec(rs.slice(i).join(''));
          if (!m) fail('invalid or unsupported Perl syntax', rs.slice(i, i + 3).join(''));
          const next = applyFlags(cur, m[1]!, m[0]);
          i += Array.from(m[0]).length;
          if (m[2] === ')') {
            // (?flags) changes the flags until the end of the current group.
            cur = next;
            canRepeat = false;
            lastWasRepeat = false;
            continue;
          }
          stack.push(cur);
          cur = next;
          out += '(?:';
          depth++;
          canRepeat = false;
          lastWasRepeat = false;
          continue;
        } else {
          out += '(';
          i++;
        }
        stack.push(cur);
        depth++;
        canRepeat = false;
        lastWasRepeat = false;
        continue;
      }
      case ')':
        if (depth === 0) fail('unexpected )', pattern);
        depth--;
        cur = stack.pop() ?? cur;
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
        if (lastWasRepeat)
          fail(
            'invalid nested repetition operator',
            rs
              .slice(i - op.length - 1, i)
              .join('')
              .replace(/^[^*+?}]*/, '') || op,
          );
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
        out += cur.m ? '(?:^|(?<=\\n))' : '^';
        i++;
        canRepeat = false;
        lastWasRepeat = false;
        continue;
      case '$':
        out += cur.m ? '(?:$|(?=\\n))' : '$';
        i++;
        canRepeat = false;
        lastWasRepeat = false;
        continue;
      case '.':
        out += cur.s ? '[\\s\\S]' : '[^\\n]';
        i++;
        canRepeat = true;
        lastWasRepeat = false;
        continue;
      case '/':
        out += '\\/';
        i++;
        canRepeat = true;
        lastWasRepeat = false;
        continue;
      default:
        out += foldI() ? foldLiteral(c) : c;
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
