/**
 * The template lexer, a state-function lexer as in Go's text/template/parse
 * lex.go: each state consumes input and returns the next state. Items carry
 * their UTF-16 offset; lines/columns are derived later. Trim markers `{{- `
 * and ` -}}` are applied here (the whitespace never reaches the parser), and
 * comments are dropped. A lexical error becomes an 'error' item and ends lexing.
 */

export type ItemType =
  | 'error'
  | 'bool'
  | 'char'
  | 'charConstant'
  | 'complex'
  | 'assign'
  | 'declare'
  | 'eof'
  | 'field'
  | 'identifier'
  | 'leftDelim'
  | 'leftParen'
  | 'number'
  | 'pipe'
  | 'rawString'
  | 'rightDelim'
  | 'rightParen'
  | 'space'
  | 'string'
  | 'text'
  | 'variable'
  // Keywords (Go's items above itemKeyword).
  | 'block'
  | 'break'
  | 'continue'
  | 'dot'
  | 'define'
  | 'else'
  | 'end'
  | 'if'
  | 'nil'
  | 'range'
  | 'template'
  | 'with';

export interface Item {
  type: ItemType;
  /** UTF-16 offset of the item's start in the input. */
  pos: number;
  val: string;
}

const keywords: ReadonlySet<string> = new Set([
  'block',
  'break',
  'continue',
  'define',
  'else',
  'end',
  'if',
  'nil',
  'range',
  'template',
  'with',
]);

function isKeyword(t: ItemType): boolean {
  return keywords.has(t) || t === 'dot';
}

/** Go's item.String(), used in "unexpected X in Y" messages. */
export function itemString(i: Item): string {
  if (i.type === 'eof') return 'EOF';
  if (i.type === 'error') return i.val;
  if (isKeyword(i.type)) return `<${i.val}>`;
  const runes = Array.from(i.val);
  if (runes.length > 10) return goQuoteShort(runes.slice(0, 10).join('')) + '...';
  return goQuoteShort(i.val);
}

function goQuoteShort(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, '\\x$1');
}

const EOF = -1;
const spaceChars = ' \t\r\n';

function isSpace(r: number): boolean {
  return r === 0x20 || r === 0x09 || r === 0x0d || r === 0x0a;
}

const letterOrDigit = /^[\p{L}\p{Nd}_]$/u;

function isAlphaNumeric(r: number): boolean {
  if (r < 0) return false;
  if (r < 0x80) return r === 0x5f || (r >= 0x30 && r <= 0x39) || (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a);
  return letterOrDigit.test(String.fromCodePoint(r));
}

/** "U+0021 '!'" as Go's %#U prints a rune. */
function runeU(r: number): string {
  if (r === EOF) return 'U+FFFFFFFFFFFFFFFF';
  const hex = r.toString(16).toUpperCase().padStart(4, '0');
  return `U+${hex} '${String.fromCodePoint(r)}'`;
}

function leftTrimLength(s: string, from: number): number {
  let i = from;
  while (i < s.length && spaceChars.includes(s[i]!)) i++;
  return i - from;
}

function rightTrimLength(s: string, start: number, end: number): number {
  let i = end;
  while (i > start && spaceChars.includes(s[i - 1]!)) i--;
  return end - i;
}

type StateFn = (() => StateFn) | null;

class Lexer {
  readonly items: Item[] = [];
  private pos = 0;
  private start = 0;
  private parenDepth = 0;

  constructor(
    private readonly input: string,
    private readonly leftDelim = '{{',
    private readonly rightDelim = '}}',
  ) {}

  /** Runs the lexer to completion; the last item is 'eof' or 'error'. */
  run(): Item[] {
    let state: StateFn = () => this.lexText();
    while (state) state = state();
    return this.items;
  }

  private next(): number {
    if (this.pos >= this.input.length) {
      this.pos = this.input.length + 1; // so backup() returns to the end
      return EOF;
    }
    const r = this.input.codePointAt(this.pos)!;
    this.pos += r > 0xffff ? 2 : 1;
    return r;
  }

  private lastWidth(r: number): number {
    return r === EOF ? 1 : r > 0xffff ? 2 : 1;
  }

  private peek(): number {
    if (this.pos >= this.input.length) return EOF;
    return this.input.codePointAt(this.pos)!;
  }

  private backupRune(r: number): void {
    this.pos -= this.lastWidth(r);
  }

  private emit(type: ItemType): StateFn {
    this.items.push({ type, pos: this.start, val: this.input.slice(this.start, this.pos) });
    this.start = this.pos;
    return this.stateAfter(type);
  }

  private stateAfter(type: ItemType): StateFn {
    if (type === 'eof') return null;
    if (type === 'rightDelim' || type === 'text') return () => this.lexText();
    return () => this.lexInsideAction();
  }

  private ignore(): void {
    this.start = this.pos;
  }

  private errorf(msg: string): StateFn {
    this.items.push({ type: 'error', pos: this.start, val: msg });
    return null;
  }

  private accept(valid: string): boolean {
    const r = this.peek();
    if (r !== EOF && r < 0x80 && valid.includes(String.fromCharCode(r))) {
      this.pos++;
      return true;
    }
    return false;
  }

  private acceptRun(valid: string): void {
    while (this.accept(valid));
  }

  private hasLeftTrimMarker(at: number): boolean {
    return this.input[at] === '-' && at + 1 < this.input.length && spaceChars.includes(this.input[at + 1]!);
  }

  private hasRightTrimMarker(at: number): boolean {
    return at + 1 < this.input.length && spaceChars.includes(this.input[at]!) && this.input[at + 1] === '-';
  }

  private atRightDelim(): { delim: boolean; trim: boolean } {
    if (this.hasRightTrimMarker(this.pos) && this.input.startsWith(this.rightDelim, this.pos + 2))
      return { delim: true, trim: true };
    if (this.input.startsWith(this.rightDelim, this.pos)) return { delim: true, trim: false };
    return { delim: false, trim: false };
  }

  private lexText(): StateFn {
    const x = this.input.indexOf(this.leftDelim, this.pos);
    if (x >= 0) {
      if (x > this.pos) {
        this.pos = x;
        let trim = 0;
        if (this.hasLeftTrimMarker(this.pos + this.leftDelim.length))
          trim = rightTrimLength(this.input, this.start, this.pos);
        const val = this.input.slice(this.start, this.pos - trim);
        if (val.length > 0) this.items.push({ type: 'text', pos: this.start, val });
        this.ignore();
      }
      return () => this.lexLeftDelim();
    }
    this.pos = this.input.length;
    if (this.pos > this.start) {
      this.items.push({ type: 'text', pos: this.start, val: this.input.slice(this.start) });
      this.start = this.pos;
    }
    return this.emit('eof');
  }

  private lexLeftDelim(): StateFn {
    this.pos += this.leftDelim.length;
    const trim = this.hasLeftTrimMarker(this.pos);
    const after = trim ? 2 : 0;
    if (this.input.startsWith('/*', this.pos + after)) {
      this.pos += after;
      this.ignore();
      return () => this.lexComment();
    }
    this.items.push({ type: 'leftDelim', pos: this.start, val: this.leftDelim });
    this.pos += after;
    this.ignore();
    this.parenDepth = 0;
    return () => this.lexInsideAction();
  }

  private lexComment(): StateFn {
    this.pos += 2;
    const x = this.input.indexOf('*/', this.pos);
    if (x < 0) return this.errorf('unclosed comment');
    this.pos = x + 2;
    const { delim, trim } = this.atRightDelim();
    if (!delim) return this.errorf('comment ends before closing delimiter');
    if (trim) this.pos += 2;
    this.pos += this.rightDelim.length;
    if (trim) this.pos += leftTrimLength(this.input, this.pos);
    this.ignore();
    return () => this.lexText();
  }

  private lexRightDelim(): StateFn {
    const { trim } = this.atRightDelim();
    if (trim) {
      this.pos += 2;
      this.ignore();
    }
    this.pos += this.rightDelim.length;
    this.items.push({ type: 'rightDelim', pos: this.start, val: this.rightDelim });
    if (trim) this.pos += leftTrimLength(this.input, this.pos);
    this.ignore();
    return () => this.lexText();
  }

  private lexInsideAction(): StateFn {
    const { delim } = this.atRightDelim();
    if (delim) {
      if (this.parenDepth === 0) return () => this.lexRightDelim();
      return this.errorf('unclosed left paren');
    }
    const r = this.next();
    if (r === EOF) return this.errorf('unclosed action');
    if (isSpace(r)) {
      this.backupRune(r);
      return () => this.lexSpace();
    }
    switch (r) {
      case 0x3d: // =
        return this.emit('assign');
      case 0x3a: // :
        if (this.next() !== 0x3d) return this.errorf('expected :=');
        return this.emit('declare');
      case 0x7c: // |
        return this.emit('pipe');
      case 0x22: // "
        return () => this.lexQuote();
      case 0x60: // `
        return () => this.lexRawQuote();
      case 0x24: // $
        return () => this.lexVariable();
      case 0x27: // '
        return () => this.lexChar();
      case 0x28: // (
        this.parenDepth++;
        return this.emit('leftParen');
      case 0x29: // )
        this.parenDepth--;
        if (this.parenDepth < 0) return this.errorf('unexpected right paren');
        return this.emit('rightParen');
    }
    if (r === 0x2e) {
      // '.' followed by a non-digit is a field; otherwise it may start a number.
      const n = this.peek();
      if (this.pos < this.input.length && (n < 0x30 || n > 0x39)) return () => this.lexFieldOrVariable('field');
    }
    if (r === 0x2e || r === 0x2b || r === 0x2d || (r >= 0x30 && r <= 0x39)) {
      this.backupRune(r);
      return () => this.lexNumber();
    }
    if (isAlphaNumeric(r)) {
      this.backupRune(r);
      return () => this.lexIdentifier();
    }
    if (r < 0x7f && r >= 0x20) return this.emit('char');
    return this.errorf(`unrecognized character in action: ${runeU(r)}`);
  }

  private lexSpace(): StateFn {
    let numSpaces = 0;
    while (isSpace(this.peek())) {
      this.next();
      numSpaces++;
    }
    // A space may begin a trim-marked right delimiter (" -}}").
    if (this.hasRightTrimMarker(this.pos - 1) && this.input.startsWith(this.rightDelim, this.pos + 1)) {
      this.pos--;
      if (numSpaces === 1) return () => this.lexInsideAction();
    }
    return this.emit('space');
  }

  private lexIdentifier(): StateFn {
    let r: number;
    for (;;) {
      r = this.next();
      if (!isAlphaNumeric(r)) {
        this.backupRune(r);
        break;
      }
    }
    const word = this.input.slice(this.start, this.pos);
    if (!this.atTerminator()) return this.errorf(`bad character ${runeU(this.peek())}`);
    if (keywords.has(word)) return this.emit(word as ItemType);
    if (word === 'true' || word === 'false') return this.emit('bool');
    return this.emit('identifier');
  }

  private lexFieldOrVariable(type: 'field' | 'variable'): StateFn {
    if (this.atTerminator()) return this.emit(type === 'variable' ? 'variable' : 'dot');
    for (;;) {
      const r = this.next();
      if (!isAlphaNumeric(r)) {
        this.backupRune(r);
        break;
      }
    }
    if (!this.atTerminator()) return this.errorf(`bad character ${runeU(this.peek())}`);
    return this.emit(type);
  }

  private lexVariable(): StateFn {
    if (this.atTerminator()) return this.emit('variable');
    return this.lexFieldOrVariable('variable');
  }

  private atTerminator(): boolean {
    const r = this.peek();
    if (isSpace(r)) return true;
    switch (r) {
      case EOF:
      case 0x2e:
      case 0x2c:
      case 0x7c:
      case 0x3a:
      case 0x29:
      case 0x28:
        return true;
    }
    return this.input.startsWith(this.rightDelim, this.pos);
  }

  private lexQuotedUntil(close: number, unterminated: string, type: ItemType): StateFn {
    for (;;) {
      let r = this.next();
      if (r === 0x5c) {
        r = this.next();
        if (r !== EOF && r !== 0x0a) continue;
      }
      if (r === EOF || r === 0x0a) return this.errorf(unterminated);
      if (r === close) break;
    }
    return this.emit(type);
  }

  private lexQuote(): StateFn {
    return this.lexQuotedUntil(0x22, 'unterminated quoted string', 'string');
  }

  private lexChar(): StateFn {
    return this.lexQuotedUntil(0x27, 'unterminated character constant', 'charConstant');
  }

  private lexRawQuote(): StateFn {
    const x = this.input.indexOf('`', this.pos);
    if (x < 0) return this.errorf('unterminated raw quoted string');
    this.pos = x + 1;
    return this.emit('rawString');
  }

  private lexNumber(): StateFn {
    if (!this.scanNumber())
      return this.errorf(`bad number syntax: ${goQuoteShort(this.input.slice(this.start, this.pos))}`);
    const sign = this.peek();
    if (sign === 0x2b || sign === 0x2d) {
      if (!this.scanNumber() || this.input[this.pos - 1] !== 'i')
        return this.errorf(`bad number syntax: ${goQuoteShort(this.input.slice(this.start, this.pos))}`);
      return this.emit('complex');
    }
    return this.emit('number');
  }

  private scanNumber(): boolean {
    this.accept('+-');
    let digits = '0123456789_';
    if (this.accept('0')) {
      if (this.accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (this.accept('oO')) digits = '01234567_';
      else if (this.accept('bB')) digits = '01_';
    }
    this.acceptRun(digits);
    if (this.accept('.')) this.acceptRun(digits);
    if (digits.length === 11 && this.accept('eE')) {
      this.accept('+-');
      this.acceptRun('0123456789_');
    }
    if (digits.length === 23 && this.accept('pP')) {
      this.accept('+-');
      this.acceptRun('0123456789_');
    }
    this.accept('i');
    if (isAlphaNumeric(this.peek())) {
      this.next();
      return false;
    }
    return true;
  }
}

export function lex(input: string, leftDelim?: string, rightDelim?: string): Item[] {
  return new Lexer(input, leftDelim || '{{', rightDelim || '}}').run();
}
