/**
 * Jsonnet parser: tokens to AST with go-jsonnet's grammar, precedences, error
 * wording and error locations. Binary operators are parsed by precedence
 * climbing (not one recursion per level) and nesting is capped at
 * MAX_NESTING, so hostile input such as 100k `(` gives a clean static error
 * instead of overflowing the JS stack. Nodes get `ctx` later (analyzer).
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
import { describeKind, describeToken, lex, type Token, type TokenKind } from './lexer.js';

export const MAX_NESTING = 1000;

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

/** Decodes the escapes of a "..." or '...' literal (go-jsonnet's StringUnescape). */
export function unescapeString(s: string, fail: (msg: string) => never): string {
  // Most literals have no escapes: return them as they are instead of rebuilding them
  // one character at a time as a rope (parse leg of the bench: a tenth of parse time).
  if (s.indexOf('\\') < 0) return s;
  let out = '';
  for (let i = 0; i < s.length;) {
    const c = s[i++]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
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

export function parse(file: SourceFile): Node {
  const tokens = lex(file);
  return new Parser(file, tokens).parseFile();
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(
    private readonly file: SourceFile,
    private readonly t: Token[],
  ) {}

  parseFile(): Node {
    const expr = this.parse(MAX_PREC);
    const eof = this.peek();
    if (eof.kind !== 'end of file') throw this.err(`Did not expect: ${describeToken(eof)}`, eof);
    return expr;
  }

  // ---- token helpers ----
  private peek(): Token {
    return this.t[this.i]!;
  }
  private doublePeek(): Token {
    return this.t[Math.min(this.i + 1, this.t.length - 1)]!;
  }
  private pop(): Token {
    const t = this.t[this.i]!;
    if (this.i < this.t.length - 1) this.i++;
    return t;
  }
  private err(msg: string, t: Token): JsonnetError {
    return staticError(msg, this.file, t.start, t.end);
  }
  private errSpan(msg: string, s: Span): JsonnetError {
    return staticError(msg, this.file, s.start, s.end);
  }
  private popExpect(kind: TokenKind, context?: string): Token {
    const t = this.pop();
    if (t.kind !== kind) {
      const msg = `Expected token ${describeKind(kind)} but got ${describeToken(t)}`;
      throw this.err(context ? `${msg} while ${context}` : msg, t);
    }
    return t;
  }
  private popExpectOp(op: string): Token {
    const t = this.pop();
    if (t.kind !== 'OPERATOR' || t.data !== op)
      throw this.err(`Expected operator ${op} but got ${describeToken(t)}`, t);
    return t;
  }
  private span(start: number, end: number): Span {
    return { file: this.file, start, end };
  }
  private enter(t: Token): void {
    if (++this.depth > MAX_NESTING) throw this.err(`Input too deeply nested (more than ${MAX_NESTING} levels)`, t);
  }

  // ---- expressions ----
  /** Parses an expression whose binary operators bind no looser than `prec`. */
  private parse(prec: number): Node {
    const begin = this.peek();
    this.enter(begin);
    let lhs = this.parseUnary();
    for (;;) {
      const next = this.peek();
      let op: string;
      if (next.kind === 'in') op = 'in';
      else if (next.kind === 'OPERATOR') {
        if (next.data === ':' || next.data === '::') break;
        op = next.data;
        if (!(op in BINARY_PREC)) throw this.err(`Not a binary operator: ${op}`, next);
      } else break;
      const p = BINARY_PREC[op]!;
      if (p > prec) break;
      this.pop();
      if (op === 'in' && this.peek().kind === 'super') {
        const sup = this.pop();
        lhs = { type: 'InSuper', index: lhs, span: this.span(begin.start, sup.end), ctx: '' };
        continue;
      }
      const rhs = this.parse(p - 1);
      lhs = {
        type: 'Binary',
        op: op as BinaryOp,
        left: lhs,
        right: rhs,
        span: this.span(begin.start, endOf(rhs)),
        ctx: '',
      };
    }
    this.depth--;
    return lhs;
  }

  private parseUnary(): Node {
    const begin = this.peek();
    switch (begin.kind) {
      case 'assert':
      case 'error':
      case 'if':
      case 'function':
      case 'import':
      case 'importstr':
      case 'importbin':
      case 'local':
        return this.parseKeywordLed();
      case 'OPERATOR': {
        if (!UNARY_OPS.has(begin.data)) throw this.err(`Not a unary operator: ${begin.data}`, begin);
        this.pop();
        this.enter(begin);
        const expr = this.parseUnary();
        this.depth--;
        return {
          type: 'Unary',
          op: begin.data as UnaryOp,
          expr,
          span: this.span(begin.start, endOf(expr)),
          fodder: begin.fodder,
          ctx: '',
        };
      }
    }
    return this.parsePostfix(begin, this.parseTerminal());
  }

  private parsePostfix(begin: Token, first: Node): Node {
    let lhs = first;
    for (;;) {
      const op = this.peek();
      switch (op.kind) {
        case '.': {
          this.pop();
          const id = this.popExpect('IDENTIFIER');
          const index: LiteralString = {
            type: 'String',
            value: id.data,
            style: 'id',
            span: this.span(id.start, id.end),
            ctx: '',
          };
          lhs = { type: 'Index', target: lhs, index, id: id.data, span: this.span(begin.start, id.end), ctx: '' };
          break;
        }
        case '[':
          this.pop();
          lhs = this.parseIndexOrSlice(begin, lhs);
          break;
        case '(': {
          this.pop();
          const { end, positional, named } = this.parseArguments();
          let tailstrict = false;
          if (this.peek().kind === 'tailstrict') {
            this.pop();
            tailstrict = true;
          }
          lhs = {
            type: 'Apply',
            target: lhs,
            positional,
            named,
            tailstrict,
            span: this.span(begin.start, end.end),
            ctx: '',
          };
          break;
        }
        case '{': {
          this.pop();
          const { node, end } = this.parseObjectRemainder(op);
          lhs = { type: 'Binary', op: '+', left: lhs, right: node, span: this.span(begin.start, end.end), ctx: '' };
          break;
        }
        default:
          return lhs;
      }
    }
  }

  private parseIndexOrSlice(begin: Token, target: Node): Node {
    const indexes: (Node | null)[] = [null, null, null];
    let colons = 0;
    let ready = true;
    let end: Token | undefined;
    while (colons < 3) {
      const p = this.peek();
      if (p.kind === ']') {
        end = this.pop();
        break;
      } else if (p.data === ':' && p.kind === 'OPERATOR') {
        end = this.pop();
        colons++;
        ready = true;
      } else if (p.data === '::' && p.kind === 'OPERATOR') {
        end = this.pop();
        colons += 2;
        ready = true;
      } else if (ready) {
        indexes[colons] = this.parse(MAX_PREC);
        ready = false;
      } else {
        throw this.err(`Expected token "]" but got ${describeToken(p)}`, p);
      }
    }
    end = end!;
    if (colons > 2) throw this.err('Invalid slice: too many colons', end);
    if (colons === 0 && ready) throw this.err('ast.Index requires an expression', end);
    const span = this.span(begin.start, end.end);
    if (colons > 0)
      return { type: 'Slice', target, begin: indexes[0]!, end: indexes[1]!, step: indexes[2]!, span, ctx: '' };
    return { type: 'Index', target, index: indexes[0]!, id: null, span, ctx: '' };
  }

  private parseArguments(): { end: Token; positional: Node[]; named: NamedArg[] } {
    const positional: Node[] = [];
    const named: NamedArg[] = [];
    let gotComma = false;
    let first = true;
    for (;;) {
      const next = this.peek();
      if (next.kind === ')') return { end: this.pop(), positional, named };
      if (!first && !gotComma)
        throw this.err(`Expected a comma before next function argument, got ${describeToken(next)}`, next);
      let name: Token | null = null;
      if (next.kind === 'IDENTIFIER' && this.doublePeek().kind === 'OPERATOR' && this.doublePeek().data === '=') {
        name = this.pop();
        this.pop();
      }
      const expr = this.parse(MAX_PREC);
      gotComma = this.peek().kind === ',';
      if (gotComma) this.pop();
      if (name === null) {
        if (named.length > 0) throw this.err('Positional argument after a named argument is not allowed', next);
        positional.push(expr);
      } else {
        named.push({ name: name.data, span: this.span(name.start, name.end), value: expr });
      }
      first = false;
    }
  }

  private parseParameters(kind: string): { end: Token; params: Param[] } {
    const params: Param[] = [];
    let gotComma = false;
    let first = true;
    for (;;) {
      const next = this.peek();
      if (next.kind === ')') return { end: this.pop(), params };
      if (!first && !gotComma) throw this.err(`Expected a comma before next ${kind}, got ${describeToken(next)}`, next);
      const id = this.popExpect('IDENTIFIER', 'parsing parameter');
      let defaultValue: Node | null = null;
      let end = id.end;
      if (this.peek().kind === 'OPERATOR' && this.peek().data === '=') {
        this.pop();
        defaultValue = this.parse(MAX_PREC);
        end = endOf(defaultValue);
      }
      params.push({ name: id.data, span: this.span(id.start, end), defaultValue });
      gotComma = this.peek().kind === ',';
      if (gotComma) this.pop();
      first = false;
    }
  }

  private parseBind(binds: Bind[]): Token {
    const id = this.popExpect('IDENTIFIER');
    if (binds.some((b) => b.name === id.data)) throw this.err(`Duplicate local var: ${id.data}`, id);
    let params: Param[] | null = null;
    if (this.peek().kind === '(') {
      this.pop();
      params = this.parseParameters('function parameter').params;
    }
    this.popExpectOp('=');
    let body = this.parse(MAX_PREC);
    const delim = this.pop();
    if (delim.kind !== ';' && delim.kind !== ',')
      throw this.err(`Expected , or ; but got ${describeToken(delim)}`, delim);
    const span = this.span(id.start, endOf(body));
    if (params) body = { type: 'Function', params, body, span, ctx: '' };
    binds.push({ name: id.data, span, body });
    return delim;
  }

  private parseKeywordLed(): Node {
    const begin = this.pop();
    const from = (end: Node): Span => this.span(begin.start, endOf(end));
    switch (begin.kind) {
      case 'assert': {
        const cond = this.parse(MAX_PREC);
        let msg: Node | null = null;
        if (this.peek().kind === 'OPERATOR' && this.peek().data === ':') {
          this.pop();
          msg = this.parse(MAX_PREC);
        }
        this.popExpect(';');
        const rest = this.parse(MAX_PREC);
        return { type: 'Assert', cond, msg, rest, span: from(rest), fodder: begin.fodder, ctx: '' };
      }
      case 'error': {
        const expr = this.parse(MAX_PREC);
        return { type: 'Error', expr, span: from(expr), fodder: begin.fodder, ctx: '' };
      }
      case 'if': {
        const cond = this.parse(MAX_PREC);
        this.popExpect('then');
        const thenB = this.parse(MAX_PREC);
        let elseB: Node | null = null;
        if (this.peek().kind === 'else') {
          this.pop();
          elseB = this.parse(MAX_PREC);
        }
        return {
          type: 'Conditional',
          cond,
          then: thenB,
          else: elseB,
          span: from(elseB ?? thenB),
          fodder: begin.fodder,
          ctx: '',
        };
      }
      case 'function': {
        const next = this.pop();
        if (next.kind !== '(') throw this.err(`Expected ( but got ${describeToken(next)}`, next);
        const { params } = this.parseParameters('function parameter');
        const body = this.parse(MAX_PREC);
        return { type: 'Function', params, body, span: from(body), fodder: begin.fodder, ctx: '' };
      }
      case 'import':
      case 'importstr':
      case 'importbin': {
        const body = this.parse(MAX_PREC);
        const bodySpan = this.span(body.parenStart ?? body.span.start, endOf(body));
        if (body.type !== 'String') throw this.errSpan('Computed imports are not allowed', bodySpan);
        if (body.style === 'block') throw this.errSpan('Block string literals not allowed in imports', bodySpan);
        return { type: 'Import', kind: begin.kind, path: body.value, span: from(body), fodder: begin.fodder, ctx: '' };
      }
      case 'local': {
        const binds: Bind[] = [];
        while (this.parseBind(binds).kind !== ';');
        const body = this.parse(MAX_PREC);
        return { type: 'Local', binds, body, span: from(body), fodder: begin.fodder, ctx: '' };
      }
    }
    throw this.err(`Unexpected: ${describeToken(begin)}`, begin);
  }

  private stringLiteral(tok: Token): LiteralString {
    const span = this.span(tok.start, tok.end);
    let value = tok.data;
    let style: LiteralString['style'];
    switch (tok.kind) {
      case 'STRING_DOUBLE':
      case 'STRING_SINGLE':
        value = unescapeString(tok.data, (m) => {
          throw this.err(m, tok);
        });
        style = tok.kind === 'STRING_DOUBLE' ? 'double' : 'single';
        break;
      case 'STRING_BLOCK':
        style = 'block';
        break;
      case 'VERBATIM_STRING_DOUBLE':
        style = 'verbatimDouble';
        break;
      default:
        style = 'verbatimSingle';
    }
    // One literal shape instead of an object spread: spreads were a tenth of parse time (parse leg).
    return { type: 'String', span, fodder: tok.fodder, ctx: '', value, style };
  }

  private parseTerminal(): Node {
    const tok = this.pop();
    const span = this.span(tok.start, tok.end);
    const fodder = tok.fodder;
    switch (tok.kind) {
      case 'end of file':
        throw this.err('Unexpected end of file', tok);
      case '{':
        return this.parseObjectRemainder(tok).node;
      case '[':
        return this.parseArray(tok);
      case '(': {
        const inner = this.parse(MAX_PREC);
        const close = this.popExpect(')');
        // go-jsonnet drops parentheses when desugaring, but enclosing spans include them.
        inner.parenEnd = close.end;
        inner.parenStart = tok.start;
        return inner;
      }
      case 'NUMBER':
        return { type: 'Number', value: Number(tok.data), text: tok.data, span, fodder, ctx: '' };
      case 'STRING_DOUBLE':
      case 'STRING_SINGLE':
      case 'STRING_BLOCK':
      case 'VERBATIM_STRING_DOUBLE':
      case 'VERBATIM_STRING_SINGLE':
        return this.stringLiteral(tok);
      case 'false':
      case 'true':
        return { type: 'Bool', value: tok.kind === 'true', span, fodder, ctx: '' };
      case 'null':
        return { type: 'Null', span, fodder, ctx: '' };
      case '$':
        return { type: 'Dollar', depth: -1, index: -1, span, fodder, ctx: '' };
      case 'IDENTIFIER':
        return { type: 'Var', name: tok.data, depth: -1, index: -1, span, fodder, ctx: '' };
      case 'self':
        return { type: 'Self', span, fodder, ctx: '' };
      case 'super': {
        const next = this.pop();
        let index: Node;
        let end: number;
        if (next.kind === '.') {
          const id = this.popExpect('IDENTIFIER');
          index = { type: 'String', value: id.data, style: 'id', span: this.span(id.start, id.end), ctx: '' };
          end = id.end;
        } else if (next.kind === '[') {
          index = this.parse(MAX_PREC);
          end = this.popExpect(']').end;
        } else {
          throw this.err('Expected . or [ after super', tok);
        }
        // go-jsonnet gives super.x the location of the `super` token only.
        void end;
        return { type: 'SuperIndex', index, span, fodder, ctx: '' };
      }
    }
    throw this.err(`Unexpected: ${describeToken(tok)} while parsing terminal`, tok);
  }

  private parseArray(open: Token): Node {
    if (this.peek().kind === ']') {
      const close = this.pop();
      return { type: 'Array', elements: [], span: this.span(open.start, close.end), fodder: open.fodder, ctx: '' };
    }
    const first = this.parse(MAX_PREC);
    let gotComma = false;
    if (this.peek().kind === ',') {
      this.pop();
      gotComma = true;
    }
    if (this.peek().kind === 'for') {
      const forTok = this.pop();
      const { specs, end } = this.parseCompSpecs(forTok, ']');
      return {
        type: 'ArrayComp',
        body: first,
        specs,
        span: this.span(open.start, end.end),
        fodder: open.fodder,
        ctx: '',
      };
    }
    const elements = [first];
    for (;;) {
      const next = this.peek();
      if (next.kind === ']') {
        const close = this.pop();
        return { type: 'Array', elements, span: this.span(open.start, close.end), fodder: open.fodder, ctx: '' };
      }
      if (!gotComma) throw this.err('Expected a comma before next array element', next);
      elements.push(this.parse(MAX_PREC));
      gotComma = this.peek().kind === ',';
      if (gotComma) this.pop();
    }
  }

  private parseCompSpecs(forTok: Token, end: TokenKind): { specs: CompSpec[]; end: Token } {
    const specs: CompSpec[] = [];
    let forT = forTok;
    for (;;) {
      const id = this.popExpect('IDENTIFIER');
      this.popExpect('in');
      const expr = this.parse(MAX_PREC);
      specs.push({ kind: 'for', varName: id.data, span: this.span(forT.start, endOf(expr)), expr });
      let maybeIf = this.pop();
      while (maybeIf.kind === 'if') {
        const cond = this.parse(MAX_PREC);
        specs.push({ kind: 'if', span: this.span(maybeIf.start, endOf(cond)), cond });
        maybeIf = this.pop();
      }
      if (maybeIf.kind === end) return { specs, end: maybeIf };
      if (maybeIf.kind !== 'for') {
        throw this.err(
          `Expected for, if or ${describeKind(end)} after for clause, got: ${describeToken(maybeIf)}`,
          maybeIf,
        );
      }
      forT = maybeIf;
    }
  }

  private parseAssignOp(): { plus: boolean; hide: Hide } {
    const op = this.popExpect('OPERATOR');
    let s = op.data;
    let plus = false;
    if (s[0] === '+') {
      plus = true;
      s = s.slice(1);
    }
    const bad = (): never => {
      throw this.err(`Expected one of :, ::, :::, +:, +::, +:::, got: ${op.data}`, op);
    };
    if (!/^:+$/.test(s)) bad();
    const hide: Hide | undefined =
      s.length === 1 ? 'inherit' : s.length === 2 ? 'hidden' : s.length === 3 ? 'visible' : undefined;
    if (hide === undefined) return bad();
    return { plus, hide };
  }

  private parseObjectRemainder(open: Token): { node: Node; end: Token } {
    const fields: ObjField[] = [];
    const locals: Bind[] = [];
    const asserts: ObjAssert[] = [];
    const literalNames = new Set<string>();
    const localNames = new Set<string>();
    let gotComma = false;
    let first = true;
    let next = this.pop();
    for (;;) {
      if (next.kind === '}') {
        const node: Node = {
          type: 'Object',
          fields,
          locals,
          asserts,
          frameSize: -1,
          dollarIndex: -1,
          span: this.span(open.start, next.end),
          fodder: open.fodder,
          ctx: '',
        };
        return { node, end: next };
      }
      if (next.kind === 'for') return this.parseObjectComp(open, next, fields, locals, asserts);
      if (!gotComma && !first) throw this.err('Expected a comma before next field', next);
      switch (next.kind) {
        case '[':
        case 'IDENTIFIER':
        case 'STRING_DOUBLE':
        case 'STRING_SINGLE':
        case 'STRING_BLOCK':
        case 'VERBATIM_STRING_DOUBLE':
        case 'VERBATIM_STRING_SINGLE':
          fields.push(this.parseField(next, literalNames));
          break;
        case 'local': {
          const id = this.popExpect('IDENTIFIER');
          if (localNames.has(id.data)) throw this.err(`Duplicate local var: ${id.data}`, id);
          let params: Param[] | null = null;
          if (this.peek().kind === '(') {
            this.pop();
            params = this.parseParameters('function parameter').params;
          }
          this.popExpectOp('=');
          let body = this.parse(MAX_PREC);
          const span = this.span(id.start, endOf(body));
          if (params) body = { type: 'Function', params, body, span, ctx: '' };
          localNames.add(id.data);
          locals.push({ name: id.data, span, body });
          break;
        }
        case 'assert': {
          const cond = this.parse(MAX_PREC);
          let msg: Node | null = null;
          if (this.peek().kind === 'OPERATOR' && this.peek().data === ':') {
            this.pop();
            msg = this.parse(MAX_PREC);
          }
          asserts.push({ cond, msg, span: this.span(next.start, endOf(msg ?? cond)) });
          break;
        }
        default:
          throw this.err(`Unexpected: ${describeToken(next)} while parsing field definition`, next);
      }
      next = this.pop();
      gotComma = next.kind === ',';
      if (gotComma) next = this.pop();
      first = false;
    }
  }

  private parseField(next: Token, literalNames: Set<string>): ObjField {
    let name: string | null = null;
    let nameExpr: Node | null = null;
    if (next.kind === 'IDENTIFIER') name = next.data;
    else if (next.kind === '[') {
      nameExpr = this.parse(MAX_PREC);
      this.popExpect(']');
    } else name = this.stringLiteral(next).value;
    let params: Param[] | null = null;
    if (this.peek().kind === '(') {
      this.pop();
      params = this.parseParameters('method parameter').params;
    }
    const { plus, hide } = this.parseAssignOp();
    if (plus && params) throw this.err(`Cannot use +: syntax sugar in a method: ${next.data}`, next);
    if (name !== null) {
      // go-jsonnet compares the raw token text here.
      if (literalNames.has(next.data)) throw this.err(`Duplicate field: ${next.data}`, next);
      literalNames.add(next.data);
    }
    let body = this.parse(MAX_PREC);
    const span = this.span(next.start, endOf(body));
    if (params) body = { type: 'Function', params, body, span, ctx: '' };
    return { name, nameExpr, hide, plus, body, span };
  }

  private parseObjectComp(
    open: Token,
    forTok: Token,
    fields: ObjField[],
    locals: Bind[],
    asserts: ObjAssert[],
  ): { node: Node; end: Token } {
    if (asserts.length > 0) throw this.err('Object comprehension cannot have asserts', forTok);
    if (fields.length !== 1) throw this.err('Object comprehension can only have one field', forTok);
    const field = fields[0]!;
    if (field.hide !== 'inherit') throw this.err('Object comprehensions cannot have hidden fields', forTok);
    if (field.nameExpr === null) throw this.err('Object comprehensions can only have [e] fields', forTok);
    const { specs, end } = this.parseCompSpecs(forTok, '}');
    const node: Node = {
      type: 'ObjectComp',
      field,
      locals,
      specs,
      frameSize: -1,
      dollarIndex: -1,
      span: this.span(open.start, end.end),
      fodder: open.fodder,
      ctx: '',
    };
    return { node, end };
  }
}
