/**
 * What libyaml's emitter needs to know about a scalar before choosing its
 * style (yaml_emitter_analyze_scalar), read on Unicode code points: which
 * styles are allowed, whether it spans lines. Also the character classes of
 * yamlprivateh.go (is_break, is_blank, is_printable; astral characters are
 * not printable for libyaml) and small code point helpers.
 */

export interface ScalarAnalysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

export const SPACE = 0x20;
export const LF = 0x0a;

export function isBreak(cp: number | undefined): boolean {
  return cp === 0x0d || cp === LF || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
}
function isBlank(cp: number | undefined): boolean {
  return cp === SPACE || cp === 0x09;
}
/** libyaml's is_printable, read as code points (astral characters are not printable). */
export function isPrintable(cp: number): boolean {
  return (
    cp === LF ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

/** Code points in a well-formed string (surrogate pairs count once). */
export function codePointCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--;
  }
  return n;
}

export function utf8Length(cps: number[]): number {
  let n = 0;
  for (const cp of cps) n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  return n;
}

/** yaml_emitter_analyze_scalar (the flow-context flags are not needed: we never emit non-empty flow collections). */
export function analyzeScalar(v: number[]): ScalarAnalysis {
  if (v.length === 0)
    return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  let blockIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  if (
    v.length >= 3 &&
    ((v[0] === 0x2d && v[1] === 0x2d && v[2] === 0x2d) || (v[0] === 0x2e && v[1] === 0x2e && v[2] === 0x2e))
  ) {
    blockIndicators = true;
  }
  let precededByWhitespace = true;
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    const followedByWhitespace = i + 1 >= v.length || isBlank(v[i + 1]);
    if (i === 0) {
      switch (String.fromCodePoint(c)) {
        case '#':
        case ',':
        case '[':
        case ']':
        case '{':
        case '}':
        case '&':
        case '*':
        case '!':
        case '|':
        case '>':
        case "'":
        case '"':
        case '%':
        case '@':
        case '`':
          blockIndicators = true;
          break;
        case '?':
        case ':':
          if (followedByWhitespace) blockIndicators = true;
          break;
        case '-':
          if (followedByWhitespace) blockIndicators = true;
          break;
      }
    } else if (c === 0x3a /* : */) {
      if (followedByWhitespace) blockIndicators = true;
    } else if (c === 0x23 /* # */) {
      if (precededByWhitespace) blockIndicators = true;
    }
    if (!isPrintable(c)) specialCharacters = true;
    if (c === SPACE) {
      if (i === 0) leadingSpace = true;
      if (i === v.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === v.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlank(c) || isBreak(c) || c === 0;
  }
  const a: ScalarAnalysis = {
    multiline: lineBreaks,
    blockPlainAllowed: true,
    singleQuotedAllowed: true,
    blockAllowed: true,
  };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.blockPlainAllowed = false;
  if (trailingSpace) a.blockAllowed = false;
  if (breakSpace) {
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
    a.blockAllowed = false;
  }
  if (lineBreaks) a.blockPlainAllowed = false;
  if (blockIndicators) a.blockPlainAllowed = false;
  return a;
}
