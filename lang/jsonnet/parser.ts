/**
 * Jsonnet parser: tokens to AST with go-jsonnet's grammar, precedences, error
 * wording and error locations. Binary operators are parsed by precedence
 * climbing (not one recursion per level) and nesting is capped at
 * MAX_NESTING, so hostile input such as 100k `(` gives a clean static error
 * instead of overflowing the JS stack. Nodes get `ctx` later (analyzer).
 * It reads the scanner's typed arrays by token index (no token objects), and
 * builds each node type with one literal shape so that the analyzer's and the
 * evaluator's property reads stay monomorphic. Node fodder is attached only
 * when asked for ({ fodder: true }): the evaluator never reads it.
 */
import type { SourceFile, Span } from '../common/source.js';
import type {
  Bind,
  BinaryOp,
  CompSpec,
  Hide,
  LiteralString,
  NamedArg,
  Node,
  ObjAssert,
  ObjField,
  Param,
  UnaryOp,
} from './ast.js';
import { JsonnetError, staticError } from './errors.js';
import { describeKind, describeToken, gapFodder } from './lexer.js';
import { scanTokens, type TokenBuffer } from './scanner.js';
import {
  KIND_NAMES,
  T_ASSERT,
  T_COMMA,
  T_DOLLAR,
  T_DOT,
  T_ELSE,
  T_EOF,
  T_ERROR,
  T_FALSE,
  T_FOR,
  T_FUNCTION,
  T_IDENTIFIER,
  T_IF,
  T_IMPORT,
  T_IMPORTBIN,
  T_IMPORTSTR,
  T_IN,
  T_LBRACE,
  T_LBRACKET,
  T_LOCAL,
  T_LPAREN,
  T_NULL,
  T_NUMBER,
  T_OPERATOR,
  T_RBRACE,
  T_RBRACKET,
  T_RPAREN,
  T_SELF,
  T_SEMICOLON,
  T_STRING_BLOCK,
  T_STRING_DOUBLE,
  T_STRING_SINGLE,
  T_SUPER,
  T_TAILSTRICT,
  T_THEN,
  T_TRUE,
  T_VERBATIM_DOUBLE,
  T_VERBATIM_SINGLE,
} from './token-kinds.js';

const MAX_NESTING = 1000;

/** Jsonnet's operator precedences (lower binds tighter): shared with the formatter's parser. */
export const MAX_PREC = 16;
export const BINARY_PREC: Readonly<Record<string, number>> = {
  '*': 5,
  '/': 5,
  '%': 5,
  '+': 6,
  '-': 6,
  '<<': 7,
  '>>': 7,
  '>': 8,
  '>=': 8,
  '<': 8,
  '<=': 8,
  in: 8,
  '==': 9,
  '!=': 9,
  '&': 10,
  '^': 11,
  '|': 12,
  '&&': 13,
  '||': 14,
};
export const UNARY_OPS: ReadonlySet<string> = new Set(['!', '~', '+', '-']);
/** BINARY_PREC as a Map: operator strings are interned by the scanner, so `get` is a hash hit. */
const PREC_OF: ReadonlyMap<string, number> = new Map(Object.entries(BINARY_PREC));

/** Decodes the escapes of a "..." or '...' literal (go-jsonnet's StringUnescape). */
export function unescapeString(s: string, fail: (msg: string) => never): string {
  // Most literals have no escapes: return them as they are instead of rebuilding them
  // one character at a time as a rope (parse leg of the bench: a tenth of parse time).
  if (s.indexOf('\\') < 0) return s;
  let out = '';
  for (let i = 0; i < s.length;) {
    // The text up to the next escape is copied in one slice, not one character at a time.
    const next = s.indexOf('\\', i);
    if (next < 0) {
      out += s.slice(i);
      break;
    }
    if (next > i) out += s.slice(i, next);
    i = next + 1;
    if (i >= s.length) fail('Truncated escape sequence in string literal.');
    const e = s[i++]!;
    switch (e) {
      case '"':
      case "'":
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        if (i + 4 > s.length) fail('Truncated unicode escape sequence in string literal.');
        const hex = s.slice(i, i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(`Unicode escape sequence was malformed: ${s.slice(0, 4)}`);
        i += 4;
        let code = parseInt(hex, 16);
        if (code >= 0xd800 && code <= 0xdfff) {
          if (i + 6 > s.length) fail('Truncated unicode surrogate pair escape sequence in string literal.');
          if (s.slice(i, i + 2) !== '\\u')
            fail('Unicode surrogate pair escape sequence missing low surrogate in string literal.');
          i += 2;
          const lowHex = s.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(lowHex))
            fail(`Unicode low surrogate escape sequence was malformed: ${s.slice(0, 4)}`);
          i += 4;
          const low = parseInt(lowHex, 16);
          code =
            code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff
              ? 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)
              : 0xfffd;
        }
        out += String.fromCodePoint(code);
        break;
      }
      default: {
        const cp = s.codePointAt(i - 1)!;
        fail(`Unknown escape sequence in string literal: \\${String.fromCodePoint(cp)}`);
      }
    }
  }
  return out;
}

function endOf(n: Node): number {
  return n.parenEnd ?? n.span.end;
}

export interface ParseOptions {
  /** Attach to nodes the comments and whitespace before their first token (as `fodder`). */
  fodder?: boolean;
}

/** Parses a whole file; throws a located static JsonnetError on bad input. */
export function parse(file: SourceFile, options: ParseOptions = {}): Node {
  return parseTokens(scanTokens(file), options);
}

/** Parses an already scanned file (the formatter scans once and parses twice). */
export function parseTokens(tokens: TokenBuffer, options: ParseOptions = {}): Node {
  return new Parser(tokens, options.fodder === true).parseFile();
}

class Parser {
  private i = 0;
  private depth = 0;
  private readonly file: SourceFile;
  private readonly kinds: Uint8Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly data: readonly string[];
  /** Index of the end-of-file token: `pop` never moves past it. */
  private readonly last: number;
  /**
   * The items of the lists being parsed (arguments, elements, fields,
   * parameters, binds, clauses), innermost list on top: a list is complete
   * before the list around it gets its next item, so one stack serves all,
   * and `take` copies each list out at its exact length. Why: building each
   * list in its own array and copying it (arrays built by push keep room for
   * 16 more items) made some 200,000 short-lived arrays per parse of the
   * bench's 5.6 MiB library. With this and the other garbage gone (see
   * docs/performance.md, "Third round"), a parseModule of it allocates 77
   * instead of 134 MB, with fewer scavenges (22 instead of 37 in 5 runs), and
   * takes 152 instead of 205 ms of CPU (one GC thread, best runs).
   */
  private readonly items: unknown[] = [];
  private top = 0;
  /** The raw names of the static fields of the objects being parsed (a stack like `items`). */
  private readonly fieldNames: string[] = [];
  private fieldNamesTop = 0;
  /** Sets of the names of objects with over 32 static fields, by their start on `fieldNames`. */
  private readonly bigObjectNames = new Map<number, Set<string>>();
  /** The closing `}` of the object parseObjectRemainder just parsed. */
  private objectEnd = 0;
  /** Where parseArguments' named arguments start on `items`. */
  private namedMark = 0;

  constructor(
    private readonly tokens: TokenBuffer,
    private readonly keepFodder: boolean,
  ) {
    this.file = tokens.file;
    this.kinds = tokens.kinds;
    this.starts = tokens.starts;
    this.ends = tokens.ends;
    this.data = tokens.data;
    this.last = tokens.count - 1;
  }

  parseFile(): Node {
    const expr = this.parse(MAX_PREC);
    if (this.kinds[this.i] !== T_EOF) throw this.err(`Did not expect: ${this.describe(this.i)}`, this.i);
    return expr;
  }

  // ---- token helpers (tokens are indexes into the scanner's arrays) ----
  private peekKind(): number {
    return this.kinds[this.i]!;
  }
  private peekIsOp(op: string): boolean {
    return this.kinds[this.i] === T_OPERATOR && this.data[this.i] === op;
  }
  private pop(): number {
    const t = this.i;
    if (t < this.last) this.i = t + 1;
    return t;
  }
  private describe(t: number): string {
    return describeToken({ kind: KIND_NAMES[this.kinds[t]!]!, data: this.data[t]! });
  }
  private err(msg: string, t: number): JsonnetError {
    return staticError(msg, this.file, this.starts[t]!, this.ends[t]!);
  }
  private errSpan(msg: string, s: Span): JsonnetError {
    return staticError(msg, this.file, s.start, s.end);
  }
  private popExpect(kind: number, context?: string): number {
    const t = this.pop();
    if (this.kinds[t] !== kind) {
      const msg = `Expected token ${describeKind(KIND_NAMES[kind]!)} but got ${this.describe(t)}`;
      throw this.err(context ? `${msg} while ${context}` : msg, t);
    }
    return t;
  }
  private popExpectOp(op: string): number {
    const t = this.pop();
    if (this.kinds[t] !== T_OPERATOR || this.data[t] !== op)
      throw this.err(`Expected operator ${op} but got ${this.describe(t)}`, t);
    return t;
  }
  private span(start: number, end: number): Span {
    return { file: this.file, start, end };
  }
  private push(item: unknown): void {
    this.items[this.top++] = item;
  }
  /** The items pushed since `mark`, as an array of their exact length; pops them. */
  private take<T>(mark: number): T[] {
    const items = mark === this.top ? (NO_ITEMS as unknown as T[]) : (this.items.slice(mark, this.top) as T[]);
    this.top = mark;
    return items;
  }
  private enter(t: number): void {
    if (++this.depth > MAX_NESTING) throw this.err(`Input too deeply nested (more than ${MAX_NESTING} levels)`, t);
  }
  /** Adds the fodder of token `t` to `node` when the caller asked for it. */
  private withFodder<N extends Node>(node: N, t: number): N {
    if (this.keepFodder) {
      node.fodder = gapFodder(this.file.text, t === 0 ? 0 : this.ends[t - 1]!, this.starts[t]!);
    }
    return node;
  }

  // ---- expressions ----
  /** Parses an expression whose binary operators bind no looser than `prec`. */
  private parse(prec: number): Node {
    const begin = this.i;
    this.enter(begin);
    let lhs = this.parseUnary();
    for (;;) {
      const next = this.i;
      const kind = this.kinds[next];
      let op: string;
      let p: number | undefined;
      if (kind === T_IN) {
        op = 'in';
        p = BINARY_PREC.in!;
      } else if (kind === T_OPERATOR) {
        op = this.data[next]!;
        if (op === ':' || op === '::') break;
        p = PREC_OF.get(op);
        if (p === undefined) throw this.err(`Not a binary operator: ${op}`, next);
      } else break;
      if (p > prec) break;
      this.pop();
      if (kind === T_IN && this.kinds[this.i] === T_SUPER) {
        const sup = this.pop();
        lhs = { type: 'InSuper', index: lhs, span: this.span(this.starts[begin]!, this.ends[sup]!), ctx: '' };
        continue;
      }
      const rhs = this.parse(p - 1);
      lhs = {
        type: 'Binary',
        op: op as BinaryOp,
        left: lhs,
        right: rhs,
        span: this.span(this.starts[begin]!, endOf(rhs)),
        ctx: '',
      };
    }
    this.depth--;
    return lhs;
  }

  private parseUnary(): Node {
    const begin = this.i;
    switch (this.kinds[begin]) {
      case T_ASSERT:
      case T_ERROR:
      case T_IF:
      case T_FUNCTION:
      case T_IMPORT:
      case T_IMPORTSTR:
      case T_IMPORTBIN:
      case T_LOCAL:
        return this.parseKeywordLed();
      case T_OPERATOR: {
        const op = this.data[begin]!;
        if (!UNARY_OPS.has(op)) throw this.err(`Not a unary operator: ${op}`, begin);
        this.pop();
        this.enter(begin);
        const expr = this.parseUnary();
        this.depth--;
        const node: Node = {
          type: 'Unary',
          op: op as UnaryOp,
          expr,
          span: this.span(this.starts[begin]!, endOf(expr)),
          ctx: '',
        };
        return this.withFodder(node, begin);
      }
    }
    return this.parsePostfix(begin, this.parseTerminal());
  }

  private idString(id: number): LiteralString {
    return {
      type: 'String',
      value: this.data[id]!,
      style: 'id',
      span: this.span(this.starts[id]!, this.ends[id]!),
      ctx: '',
    };
  }

  private parsePostfix(begin: number, first: Node): Node {
    const start = this.starts[begin]!;
    let lhs = first;
    for (;;) {
      const op = this.i;
      switch (this.kinds[op]) {
        case T_DOT: {
          this.pop();
          const id = this.popExpect(T_IDENTIFIER);
          lhs = {
            type: 'Index',
            target: lhs,
            index: this.idString(id),
            id: this.data[id]!,
            span: this.span(start, this.ends[id]!),
            ctx: '',
          };
          break;
        }
        case T_LBRACKET:
          this.pop();
          lhs = this.parseIndexOrSlice(start, lhs);
          break;
        case T_LPAREN: {
          this.pop();
          const mark = this.top;
          const end = this.parseArguments();
          // Positional arguments come first (parseArguments checks it), then the named ones.
          const named = this.take<NamedArg>(this.namedMark);
          const positional = this.take<Node>(mark);
          let tailstrict = false;
          if (this.kinds[this.i] === T_TAILSTRICT) {
            this.pop();
            tailstrict = true;
          }
          lhs = {
            type: 'Apply',
            target: lhs,
            positional,
            named,
            tailstrict,
            span: this.span(start, this.ends[end]!),
            ctx: '',
          };
          break;
        }
        case T_LBRACE: {
          this.pop();
          const node = this.parseObjectRemainder(op);
          const end = this.ends[this.objectEnd]!;
          lhs = { type: 'Binary', op: '+', left: lhs, right: node, span: this.span(start, end), ctx: '' };
          break;
        }
        default:
          return lhs;
      }
    }
  }

  private parseIndexOrSlice(start: number, target: Node): Node {
    // The three parts in locals, not an array: every `[` would make one.
    let index0: Node | null = null;
    let index1: Node | null = null;
    let index2: Node | null = null;
    let colons = 0;
    let ready = true;
    let end = -1;
    while (colons < 3) {
      const p = this.i;
      const kind = this.kinds[p];
      if (kind === T_RBRACKET) {
        end = this.pop();
        break;
      } else if (kind === T_OPERATOR && this.data[p] === ':') {
        end = this.pop();
        colons++;
        ready = true;
      } else if (kind === T_OPERATOR && this.data[p] === '::') {
        end = this.pop();
        colons += 2;
        ready = true;
      } else if (ready) {
        const index = this.parse(MAX_PREC);
        if (colons === 0) index0 = index;
        else if (colons === 1) index1 = index;
        else index2 = index;
        ready = false;
      } else {
        throw this.err(`Expected token "]" but got ${this.describe(p)}`, p);
      }
    }
    if (colons > 2) throw this.err('Invalid slice: too many colons', end);
    if (colons === 0 && ready) throw this.err('ast.Index requires an expression', end);
    const span = this.span(start, this.ends[end]!);
    if (colons > 0) return { type: 'Slice', target, begin: index0, end: index1, step: index2, span, ctx: '' };
    return { type: 'Index', target, index: index0!, id: null, span, ctx: '' };
  }

  /**
   * Pushes the arguments (positional ones, then named ones from `namedMark`
   * on); returns the closing `)`.
   */
  private parseArguments(): number {
    let gotComma = false;
    let first = true;
    let namedMark = -1;
    for (;;) {
      const next = this.i;
      if (this.kinds[next] === T_RPAREN) {
        this.namedMark = namedMark < 0 ? this.top : namedMark;
        return this.pop();
      }
      if (!first && !gotComma)
        throw this.err(`Expected a comma before next function argument, got ${this.describe(next)}`, next);
      let name = -1;
      const after = Math.min(next + 1, this.last);
      if (this.kinds[next] === T_IDENTIFIER && this.kinds[after] === T_OPERATOR && this.data[after] === '=') {
        name = this.pop();
        this.pop();
      }
      const expr = this.parse(MAX_PREC);
      gotComma = this.kinds[this.i] === T_COMMA;
      if (gotComma) this.pop();
      if (name < 0) {
        if (namedMark >= 0) throw this.err('Positional argument after a named argument is not allowed', next);
        this.push(expr);
      } else {
        if (namedMark < 0) namedMark = this.top;
        this.push({ name: this.data[name]!, span: this.span(this.starts[name]!, this.ends[name]!), value: expr });
      }
      first = false;
    }
  }

  private parseParameters(kind: string): Param[] {
    const mark = this.top;
    let gotComma = false;
    let first = true;
    for (;;) {
      const next = this.i;
      if (this.kinds[next] === T_RPAREN) {
        this.pop();
        return this.take<Param>(mark);
      }
      if (!first && !gotComma) throw this.err(`Expected a comma before next ${kind}, got ${this.describe(next)}`, next);
      const id = this.popExpect(T_IDENTIFIER, 'parsing parameter');
      let defaultValue: Node | null = null;
      let end = this.ends[id]!;
      if (this.peekIsOp('=')) {
        this.pop();
        defaultValue = this.parse(MAX_PREC);
        end = endOf(defaultValue);
      }
      this.push({ name: this.data[id]!, span: this.span(this.starts[id]!, end), defaultValue });
      gotComma = this.kinds[this.i] === T_COMMA;
      if (gotComma) this.pop();
      first = false;
    }
  }

  /** Parses one bind of a `local` whose binds start at `mark` on `items`; returns the `,` or `;` after it. */
  private parseBind(mark: number): number {
    const id = this.popExpect(T_IDENTIFIER);
    const name = this.data[id]!;
    for (let k = mark; k < this.top; k++)
      if ((this.items[k] as Bind).name === name) throw this.err(`Duplicate local var: ${name}`, id);
    let params: Param[] | null = null;
    if (this.kinds[this.i] === T_LPAREN) {
      this.pop();
      params = this.parseParameters('function parameter');
    }
    this.popExpectOp('=');
    let body = this.parse(MAX_PREC);
    const delim = this.pop();
    const dk = this.kinds[delim];
    if (dk !== T_SEMICOLON && dk !== T_COMMA) throw this.err(`Expected , or ; but got ${this.describe(delim)}`, delim);
    const span = this.span(this.starts[id]!, endOf(body));
    if (params) body = { type: 'Function', params, body, span, ctx: '' };
    this.push({ name, span, body });
    return delim;
  }

  private parseKeywordLed(): Node {
    const begin = this.pop();
    const start = this.starts[begin]!;
    switch (this.kinds[begin]) {
      case T_ASSERT: {
        const cond = this.parse(MAX_PREC);
        let msg: Node | null = null;
        if (this.peekIsOp(':')) {
          this.pop();
          msg = this.parse(MAX_PREC);
        }
        this.popExpect(T_SEMICOLON);
        const rest = this.parse(MAX_PREC);
        return this.withFodder(
          { type: 'Assert', cond, msg, rest, span: this.span(start, endOf(rest)), ctx: '' },
          begin,
        );
      }
      case T_ERROR: {
        const expr = this.parse(MAX_PREC);
        return this.withFodder({ type: 'Error', expr, span: this.span(start, endOf(expr)), ctx: '' }, begin);
      }
      case T_IF: {
        const cond = this.parse(MAX_PREC);
        this.popExpect(T_THEN);
        const thenB = this.parse(MAX_PREC);
        let elseB: Node | null = null;
        if (this.kinds[this.i] === T_ELSE) {
          this.pop();
          elseB = this.parse(MAX_PREC);
        }
        const node: Node = {
          type: 'Conditional',
          cond,
          then: thenB,
          else: elseB,
          span: this.span(start, endOf(elseB ?? thenB)),
          ctx: '',
        };
        return this.withFodder(node, begin);
      }
      case T_FUNCTION: {
        const next = this.pop();
        if (this.kinds[next] !== T_LPAREN) throw this.err(`Expected ( but got ${this.describe(next)}`, next);
        const params = this.parseParameters('function parameter');
        const body = this.parse(MAX_PREC);
        return this.withFodder({ type: 'Function', params, body, span: this.span(start, endOf(body)), ctx: '' }, begin);
      }
      case T_IMPORT:
      case T_IMPORTSTR:
      case T_IMPORTBIN: {
        const body = this.parse(MAX_PREC);
        const bodySpan = this.span(body.parenStart ?? body.span.start, endOf(body));
        if (body.type !== 'String') throw this.errSpan('Computed imports are not allowed', bodySpan);
        if (body.style === 'block') throw this.errSpan('Block string literals not allowed in imports', bodySpan);
        const kind = KIND_NAMES[this.kinds[begin]] as 'import' | 'importstr' | 'importbin';
        const node: Node = { type: 'Import', kind, path: body.value, span: this.span(start, endOf(body)), ctx: '' };
        return this.withFodder(node, begin);
      }
      case T_LOCAL: {
        const mark = this.top;
        while (this.kinds[this.parseBind(mark)] !== T_SEMICOLON);
        const binds = this.take<Bind>(mark);
        const body = this.parse(MAX_PREC);
        return this.withFodder({ type: 'Local', binds, body, span: this.span(start, endOf(body)), ctx: '' }, begin);
      }
    }
    throw this.err(`Unexpected: ${this.describe(begin)}`, begin);
  }

  private stringLiteral(tok: number): LiteralString {
    const span = this.span(this.starts[tok]!, this.ends[tok]!);
    const value = this.stringValue(tok);
    let style: LiteralString['style'];
    switch (this.kinds[tok]) {
      case T_STRING_DOUBLE:
        style = 'double';
        break;
      case T_STRING_SINGLE:
        style = 'single';
        break;
      case T_STRING_BLOCK:
        style = 'block';
        break;
      case T_VERBATIM_DOUBLE:
        style = 'verbatimDouble';
        break;
      default:
        style = 'verbatimSingle';
    }
    // One literal shape for every string node (the same as idString's).
    return this.withFodder<LiteralString>({ type: 'String', value, style, span, ctx: '' }, tok);
  }

  /** The value of string token `tok` (field names need no node: `'#withX': ...` is common in libraries). */
  private stringValue(tok: number): string {
    const kind = this.kinds[tok];
    const raw = this.data[tok]!;
    return kind === T_STRING_DOUBLE || kind === T_STRING_SINGLE ? this.unescape(raw, tok) : raw;
  }

  /** The error callback (a closure) is made only for literals that have escapes, not for every string. */
  private unescape(raw: string, tok: number): string {
    if (raw.indexOf('\\') < 0) return raw;
    return unescapeString(raw, (m) => {
      throw this.err(m, tok);
    });
  }

  private parseTerminal(): Node {
    const tok = this.pop();
    const kind = this.kinds[tok]!;
    switch (kind) {
      case T_IDENTIFIER: {
        const node: Node = {
          type: 'Var',
          name: this.data[tok]!,
          depth: -1,
          index: -1,
          span: this.span(this.starts[tok]!, this.ends[tok]!),
          ctx: '',
        };
        return this.withFodder(node, tok);
      }
      case T_STRING_DOUBLE:
      case T_STRING_SINGLE:
      case T_STRING_BLOCK:
      case T_VERBATIM_DOUBLE:
      case T_VERBATIM_SINGLE:
        return this.stringLiteral(tok);
      case T_LBRACE:
        return this.parseObjectRemainder(tok);
      case T_LBRACKET:
        return this.parseArray(tok);
      case T_LPAREN: {
        const inner = this.parse(MAX_PREC);
        const close = this.popExpect(T_RPAREN);
        // go-jsonnet drops parentheses when desugaring, but enclosing spans include them.
        inner.parenEnd = this.ends[close]!;
        inner.parenStart = this.starts[tok]!;
        return inner;
      }
      case T_EOF:
        throw this.err('Unexpected end of file', tok);
    }
    const span = this.span(this.starts[tok]!, this.ends[tok]!);
    let node: Node;
    switch (kind) {
      case T_NUMBER: {
        const text = this.data[tok]!;
        node = { type: 'Number', value: Number(text), text, span, ctx: '' };
        break;
      }
      case T_FALSE:
      case T_TRUE:
        node = { type: 'Bool', value: kind === T_TRUE, span, ctx: '' };
        break;
      case T_NULL:
        node = { type: 'Null', span, ctx: '' };
        break;
      case T_DOLLAR:
        node = { type: 'Dollar', depth: -1, index: -1, span, ctx: '' };
        break;
      case T_SELF:
        node = { type: 'Self', span, ctx: '' };
        break;
      case T_SUPER: {
        const next = this.pop();
        let index: Node;
        if (this.kinds[next] === T_DOT) {
          index = this.idString(this.popExpect(T_IDENTIFIER));
        } else if (this.kinds[next] === T_LBRACKET) {
          index = this.parse(MAX_PREC);
          this.popExpect(T_RBRACKET);
        } else {
          throw this.err('Expected . or [ after super', tok);
        }
        // go-jsonnet gives super.x the location of the `super` token only.
        node = { type: 'SuperIndex', index, span, ctx: '' };
        break;
      }
      default:
        throw this.err(`Unexpected: ${this.describe(tok)} while parsing terminal`, tok);
    }
    return this.withFodder(node, tok);
  }

  private parseArray(open: number): Node {
    const start = this.starts[open]!;
    if (this.kinds[this.i] === T_RBRACKET) {
      const close = this.pop();
      return this.withFodder({ type: 'Array', elements: [], span: this.span(start, this.ends[close]!), ctx: '' }, open);
    }
    const first = this.parse(MAX_PREC);
    let gotComma = false;
    if (this.kinds[this.i] === T_COMMA) {
      this.pop();
      gotComma = true;
    }
    if (this.kinds[this.i] === T_FOR) {
      const forTok = this.pop();
      const mark = this.top;
      const end = this.parseCompSpecs(forTok, T_RBRACKET);
      const node: Node = {
        type: 'ArrayComp',
        body: first,
        specs: this.take<CompSpec>(mark),
        span: this.span(start, this.ends[end]!),
        ctx: '',
      };
      return this.withFodder(node, open);
    }
    const mark = this.top;
    this.push(first);
    for (;;) {
      const next = this.i;
      if (this.kinds[next] === T_RBRACKET) {
        const close = this.pop();
        const elements = this.take<Node>(mark);
        return this.withFodder({ type: 'Array', elements, span: this.span(start, this.ends[close]!), ctx: '' }, open);
      }
      if (!gotComma) throw this.err('Expected a comma before next array element', next);
      this.push(this.parse(MAX_PREC));
      gotComma = this.kinds[this.i] === T_COMMA;
      if (gotComma) this.pop();
    }
  }

  /** Pushes the `for`/`if` clauses; returns the closing token. */
  private parseCompSpecs(forTok: number, end: number): number {
    let forT = forTok;
    for (;;) {
      const id = this.popExpect(T_IDENTIFIER);
      this.popExpect(T_IN);
      const expr = this.parse(MAX_PREC);
      this.push({ kind: 'for', varName: this.data[id]!, span: this.span(this.starts[forT]!, endOf(expr)), expr });
      let maybeIf = this.pop();
      while (this.kinds[maybeIf] === T_IF) {
        const cond = this.parse(MAX_PREC);
        this.push({ kind: 'if', span: this.span(this.starts[maybeIf]!, endOf(cond)), cond });
        maybeIf = this.pop();
      }
      if (this.kinds[maybeIf] === end) return maybeIf;
      if (this.kinds[maybeIf] !== T_FOR) {
        throw this.err(
          `Expected for, if or ${describeKind(KIND_NAMES[end]!)} after for clause, got: ${this.describe(maybeIf)}`,
          maybeIf,
        );
      }
      forT = maybeIf;
    }
  }

  private parseAssignOp(): { plus: boolean; hide: Hide } {
    const op = this.popExpect(T_OPERATOR);
    const text = this.data[op]!;
    switch (text) {
      case ':':
        return INHERIT;
      case '::':
        return HIDDEN;
      case ':::':
        return VISIBLE;
      case '+:':
        return PLUS_INHERIT;
      case '+::':
        return PLUS_HIDDEN;
      case '+:::':
        return PLUS_VISIBLE;
    }
    throw this.err(`Expected one of :, ::, :::, +:, +::, +:::, got: ${text}`, op);
  }

  /**
   * Parses an object after its `{` (token `open`): fields go on `items`,
   * locals and asserts (rarer) into arrays made when the first one comes.
   * Sets `objectEnd` to the closing `}`.
   */
  private parseObjectRemainder(open: number): Node {
    const mark = this.top;
    const namesMark = this.fieldNamesTop;
    let locals: Bind[] | null = null;
    let asserts: ObjAssert[] | null = null;
    let gotComma = false;
    let first = true;
    let next = this.pop();
    for (;;) {
      const kind = this.kinds[next];
      if (kind === T_RBRACE) {
        this.endNames(namesMark);
        const node: Node = {
          type: 'Object',
          fields: this.take<ObjField>(mark),
          locals: locals === null ? (NO_ITEMS as unknown as Bind[]) : locals.slice(),
          asserts: asserts === null ? (NO_ITEMS as unknown as ObjAssert[]) : asserts.slice(),
          frameSize: -1,
          dollarIndex: -1,
          span: this.span(this.starts[open]!, this.ends[next]!),
          ctx: '',
        };
        this.objectEnd = next;
        return this.withFodder(node, open);
      }
      if (kind === T_FOR) {
        this.endNames(namesMark);
        return this.parseObjectComp(open, next, this.take<ObjField>(mark), locals, asserts);
      }
      if (!gotComma && !first) throw this.err('Expected a comma before next field', next);
      switch (kind) {
        case T_LBRACKET:
        case T_IDENTIFIER:
        case T_STRING_DOUBLE:
        case T_STRING_SINGLE:
        case T_STRING_BLOCK:
        case T_VERBATIM_DOUBLE:
        case T_VERBATIM_SINGLE: {
          this.push(this.parseField(next, namesMark));
          break;
        }
        case T_LOCAL: {
          const id = this.popExpect(T_IDENTIFIER);
          const name = this.data[id]!;
          if (locals !== null)
            for (const l of locals) if (l.name === name) throw this.err(`Duplicate local var: ${name}`, id);
          let params: Param[] | null = null;
          if (this.kinds[this.i] === T_LPAREN) {
            this.pop();
            params = this.parseParameters('function parameter');
          }
          this.popExpectOp('=');
          let body = this.parse(MAX_PREC);
          const span = this.span(this.starts[id]!, endOf(body));
          if (params) body = { type: 'Function', params, body, span, ctx: '' };
          (locals ??= []).push({ name, span, body });
          break;
        }
        case T_ASSERT: {
          const cond = this.parse(MAX_PREC);
          let msg: Node | null = null;
          if (this.peekIsOp(':')) {
            this.pop();
            msg = this.parse(MAX_PREC);
          }
          (asserts ??= []).push({ cond, msg, span: this.span(this.starts[next]!, endOf(msg ?? cond)) });
          break;
        }
        default:
          throw this.err(`Unexpected: ${this.describe(next)} while parsing field definition`, next);
      }
      next = this.pop();
      gotComma = this.kinds[next] === T_COMMA;
      if (gotComma) next = this.pop();
      first = false;
    }
  }

  /** Parses a field starting at token `next`; the object's static field names so far are on `fieldNames` from `namesMark`. */
  private parseField(next: number, namesMark: number): ObjField {
    let name: string | null = null;
    let nameExpr: Node | null = null;
    const kind = this.kinds[next];
    if (kind === T_IDENTIFIER) name = this.data[next]!;
    else if (kind === T_LBRACKET) {
      nameExpr = this.parse(MAX_PREC);
      this.popExpect(T_RBRACKET);
    } else name = this.stringValue(next);
    let params: Param[] | null = null;
    if (this.kinds[this.i] === T_LPAREN) {
      this.pop();
      params = this.parseParameters('method parameter');
    }
    const { plus, hide } = this.parseAssignOp();
    if (plus && params) throw this.err(`Cannot use +: syntax sugar in a method: ${this.data[next]!}`, next);
    if (name !== null) {
      // go-jsonnet compares the raw token text here, before parsing the body.
      const raw = this.data[next]!;
      if (this.isDuplicateName(raw, namesMark)) throw this.err(`Duplicate field: ${raw}`, next);
      this.fieldNames[this.fieldNamesTop++] = raw;
    }
    let body = this.parse(MAX_PREC);
    const span = this.span(this.starts[next]!, endOf(body));
    if (params) body = { type: 'Function', params, body, span, ctx: '' };
    return { name, nameExpr, hide, plus, body, span };
  }

  /**
   * Whether the object whose names start at `namesMark` already has `raw`.
   * Objects have a few fields: a scan of the names stack, not a Set per
   * object (a Set per object literal was 37,000 short-lived hash tables in
   * the bench's library). Objects with many fields build a Set once they
   * pass 32 names, so huge objects stay linear.
   */
  private isDuplicateName(raw: string, namesMark: number): boolean {
    const count = this.fieldNamesTop - namesMark;
    if (count <= 32) {
      for (let k = namesMark; k < this.fieldNamesTop; k++) if (this.fieldNames[k] === raw) return true;
      return false;
    }
    let seen = this.bigObjectNames.get(namesMark);
    if (seen === undefined || seen.size !== count) {
      // Made (or brought up to date) for this object; keyed by its position on the stack.
      seen = new Set(this.fieldNames.slice(namesMark, this.fieldNamesTop));
      this.bigObjectNames.set(namesMark, seen);
    }
    if (seen.has(raw)) return true;
    seen.add(raw);
    // The caller pushes raw next, so the Set stays in step with the stack.
    return false;
  }

  /** Pops the names of the object whose names start at `namesMark`. */
  private endNames(namesMark: number): void {
    if (this.fieldNamesTop - namesMark > 32) this.bigObjectNames.delete(namesMark);
    this.fieldNamesTop = namesMark;
  }

  private parseObjectComp(
    open: number,
    forTok: number,
    fields: ObjField[],
    locals: Bind[] | null,
    asserts: ObjAssert[] | null,
  ): Node {
    if (asserts !== null) throw this.err('Object comprehension cannot have asserts', forTok);
    if (fields.length !== 1) throw this.err('Object comprehension can only have one field', forTok);
    const field = fields[0]!;
    if (field.hide !== 'inherit') throw this.err('Object comprehensions cannot have hidden fields', forTok);
    if (field.nameExpr === null) throw this.err('Object comprehensions can only have [e] fields', forTok);
    const mark = this.top;
    const end = this.parseCompSpecs(forTok, T_RBRACE);
    const node: Node = {
      type: 'ObjectComp',
      field,
      locals: locals === null ? (NO_ITEMS as unknown as Bind[]) : locals.slice(),
      specs: this.take<CompSpec>(mark),
      frameSize: -1,
      dollarIndex: -1,
      span: this.span(this.starts[open]!, this.ends[end]!),
      ctx: '',
    };
    this.objectEnd = end;
    return this.withFodder(node, open);
  }
}

/**
 * Arrays kept in the AST have no spare capacity (arrays built by push keep
 * room for 16 more elements, 136 bytes on 64-bit Node: the AST of the bench's
 * 5 MiB library went from 110 to 89 MiB without it), and the many empty ones
 * (locals, asserts, named arguments) share this frozen array (a push on it
 * throws instead of corrupting other nodes).
 */
const NO_ITEMS: readonly never[] = Object.freeze([]);

const INHERIT = { plus: false, hide: 'inherit' } as const;
const HIDDEN = { plus: false, hide: 'hidden' } as const;
const VISIBLE = { plus: false, hide: 'visible' } as const;
const PLUS_INHERIT = { plus: true, hide: 'inherit' } as const;
const PLUS_HIDDEN = { plus: true, hide: 'hidden' } as const;
const PLUS_VISIBLE = { plus: true, hide: 'visible' } as const;
