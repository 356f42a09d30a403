/**
 * Whether Go's strconv.ParseFloat(s, 64) accepts a string (syntax and range).
 * go-jsonnet quotes a YAML key when it would parse as a float, so the exact
 * grammar matters: optional sign, `inf`/`infinity`/`nan` in any case, decimal
 * digits with one `.` and an optional exponent, hex mantissas with a
 * mandatory `p` exponent, and `_` only between digits. Overflow (1e400) is an
 * error in Go, so it counts as "not a float".
 */

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isHexDigit(c: string | undefined): boolean {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c);
}

/** Go strconv's underscoreOK: `_` must sit between digits (or after a base prefix). */
export function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'box'.includes(s[1]!.toLowerCase())) {
    i = 2;
    saw = '0';
    hex = s[1]!.toLowerCase() === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (isDigit(c) || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** Whether strconv.ParseFloat(s, 64) succeeds. */
export function parseFloatOk(s: string): boolean {
  if (s.length === 0) return false;
  let i = 0;
  if (s[0] === '+' || s[0] === '-') i = 1;
  const rest = s.slice(i).toLowerCase();
  if (rest === 'inf' || rest === 'infinity') return true;
  if (i === 0 && rest === 'nan') return true;
  let underscores = false;
  if (rest.startsWith('0x')) {
    i += 2;
    let mant = '';
    let sawDot = false;
    let fracDigits = 0;
    for (; i < s.length; i++) {
      const c = s[i]!;
      if (c === '_') {
        underscores = true;
        continue;
      }
      if (c === '.') {
        if (sawDot) return false;
        sawDot = true;
        continue;
      }
      if (!isHexDigit(c)) break;
      mant += c;
      if (sawDot) fracDigits++;
    }
    if (mant.length === 0) return false;
    if (i >= s.length || s[i]!.toLowerCase() !== 'p') return false;
    i++;
    let esign = 1;
    if (s[i] === '+' || s[i] === '-') {
      esign = s[i] === '-' ? -1 : 1;
      i++;
    }
    if (!isDigit(s[i])) return false;
    let exp = 0;
    for (; i < s.length && (isDigit(s[i]) || s[i] === '_'); i++) {
      if (s[i] === '_') {
        underscores = true;
        continue;
      }
      if (exp < 100000) exp = exp * 10 + Number(s[i]);
    }
    if (i !== s.length) return false;
    if (underscores && !underscoreOK(s)) return false;
    const value =
      parseInt(mant.slice(0, 15), 16) *
      Math.pow(2, esign * exp + 4 * (mant.length - Math.min(mant.length, 15)) - 4 * fracDigits);
    return Number.isFinite(value);
  }
  let sawDigits = false;
  let sawDot = false;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === '_') {
      underscores = true;
      continue;
    }
    if (c === '.') {
      if (sawDot) return false;
      sawDot = true;
      continue;
    }
    if (!isDigit(c)) break;
    sawDigits = true;
  }
  if (!sawDigits) return false;
  if (i < s.length && s[i]!.toLowerCase() === 'e') {
    i++;
    if (s[i] === '+' || s[i] === '-') i++;
    if (!isDigit(s[i])) return false;
    for (; i < s.length && (isDigit(s[i]) || s[i] === '_'); i++) if (s[i] === '_') underscores = true;
  }
  if (i !== s.length) return false;
  if (underscores && !underscoreOK(s)) return false;
  return Number.isFinite(Number(s.replace(/_/g, '')));
}

/** The value of a hex mantissa and binary exponent, rounded once by BigInt → Number (exact unless subnormal). */
function hexFloatValue(s: string): number {
  const m = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(s.replace(/_/g, ''))!;
  const [, sign, int = '', frac = '', exp] = m;
  const mant = Number(BigInt('0x' + (int + frac || '0')));
  const v = mant * 2 ** (Number(exp) - 4 * frac.length);
  return sign === '-' ? -v : v;
}

/** strconv.ParseFloat(s, 64): the value, or null where Go returns an error (syntax, or overflow). */
export function strconvParseFloat(s: string): number | null {
  if (!parseFloatOk(s)) return null;
  const body = s.replace(/^[+-]/, '').toLowerCase();
  const negative = s[0] === '-';
  if (body === 'inf' || body === 'infinity') return negative ? -Infinity : Infinity;
  if (body === 'nan') return NaN;
  if (body.startsWith('0x')) {
    const v = hexFloatValue(s);
    return Number.isFinite(v) ? v : null;
  }
  return Number(s.replace(/_/g, ''));
}
