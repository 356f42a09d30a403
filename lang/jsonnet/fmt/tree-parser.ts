/**
 * Parses Jsonnet into the formatter's tree (./tree.ts), over the scanner's
 * tokens (one scan per file), recording the fodder of every token in its slot. Syntax is
 * validated first by the evaluator's parser (../parser.ts), so errors carry the
 * same located messages as everywhere else; this parser then only rebuilds the
 * shape, following go-jsonnet's grammar and precedence (which jsonnetfmt's
 * passes rely on). Invariant: on valid input it consumes every token.
 */
import type { SourceFile } from '../../common/source.js';
import { staticError } from '../errors.js';
import { BINARY_PREC, MAX_PREC, parseTokens as validate, UNARY_OPS } from '../parser.js';
import { scanTokens, type TokenBuffer } from '../scanner.js';
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
} from '../token-kinds.js';
import type { Fodder } from './fodder.js';
import { tokenFodders } from './fodder-lexer.js';
import type {
  CommaSeparatedExpr,
  ForSpec,
  IfSpec,
  LiteralString,
  NamedArgument,
  Node,
  ObjectField,
  ObjectNode,
  ObjectComp,
  Parameter,
  Params,
  LocalBind,
  Hide,
  Import,
} from './tree.js';

const APPLY_PREC = 2;
const UNARY_PREC = 4;
/** String literal kind by token code (undefined: not a string token). */
const STRING_KINDS: (LiteralString['kind'] | undefined)[] = [];
STRING_KINDS[T_STRING_SINGLE] = 'single';
STRING_KINDS[T_STRING_DOUBLE] = 'double';
STRING_KINDS[T_STRING_BLOCK] = 'block';
STRING_KINDS[T_VERBATIM_DOUBLE] = 'verbatimDouble';
STRING_KINDS[T_VERBATIM_SINGLE] = 'verbatimSingle';

export interface ParsedFile {
  body: Node;
  /** Fodder after the last token. */
  finalFodder: Fodder;
}

/** Parses a whole file; throws a located JsonnetError on syntax errors. */
export function parseForFormat(file: SourceFile): ParsedFile {
  // One scan serves both parses: lexing twice was a third of formatting time.
  const tokens = scanTokens(file);
  validate(tokens);
  return new TreeParser(file, tokens, tokenFodders(tokens)).parseFile();
}

/**
 * Tokens are referred to by their index in the scanner's arrays (no object
 * per token): `kind(t)`, `data(t)`, `fodder(t)`.
 */
type Tok = number;

class TreeParser {
  private i = 0;
  private readonly kinds: Uint8Array;
  private readonly datas: readonly string[];
  private readonly last: number;

  constructor(
    private readonly file: SourceFile,
    private readonly tokens: TokenBuffer,
    private readonly fodders: Fodder[],
  ) {
    this.kinds = tokens.kinds;
    this.datas = tokens.data;
    this.last = tokens.count - 1;
  }

  parseFile(): ParsedFile {
    const body = this.parse(MAX_PREC);
    const eof = this.pop();
    if (this.kind(eof) !== T_EOF) throw this.fail(eof);
    return { body, finalFodder: this.fodder(eof) };
  }

  private kind(t: Tok): number {
    return this.kinds[t]!;
  }
  private data(t: Tok): string {
    return this.datas[t]!;
  }
  private fodder(t: Tok): Fodder {
    return this.fodders[t]!;
  }
  private peek(): Tok {
    return this.i;
  }
  private peekKind(): number {
    return this.kinds[this.i]!;
  }
  private peekAt(k: number): Tok {
    return Math.min(this.i + k, this.last);
  }
  private pop(): Tok {
    const t = this.i;
    if (t < this.last) this.i++;
    return t;
  }
  private isOp(t: Tok, op: string): boolean {
    return this.kinds[t] === T_OPERATOR && this.datas[t] === op;
  }
  /** Unreachable on input the validating parser accepted; kept so bad input never crashes. */
  private fail(t: Tok): Error {
    const { starts, ends } = this.tokens;
    return staticError(
      `Unexpected token while formatting: ${KIND_NAMES[this.kind(t)]!}`,
      this.file,
      starts[t]!,
      ends[t]!,
    );
  }
  private expect(kind: number): Tok {
    const t = this.pop();
    if (this.kind(t) !== kind) throw this.fail(t);
    return t;
  }
  private expectOp(op: string): Tok {
    const t = this.pop();
    if (!this.isOp(t, op)) throw this.fail(t);
    return t;
  }

  private stringLiteral(t: Tok): LiteralString {
    const kind = STRING_KINDS[this.kind(t)];
    if (!kind) throw this.fail(t);
    const block = this.tokens.blockIndents.get(t);
    return {
      type: 'string',
      fodder: this.fodder(t),
      kind,
      value: this.data(t),
      blockIndent: block?.[0] ?? '',
      blockTermIndent: block?.[1] ?? '',
    };
  }

  private parseParams(parenLeft: Tok): Params {
    const params: Parameter[] = [];
    let gotComma = false;
    for (;;) {
      if (this.peekKind() === T_RPAREN) break;
      const name = this.expect(T_IDENTIFIER);
      const param: Parameter = {
        nameFodder: this.fodder(name),
        name: this.data(name),
        eqFodder: [],
        defaultArg: null,
        commaFodder: [],
      };
      if (this.isOp(this.peek(), '=')) {
        param.eqFodder = this.fodder(this.pop());
        param.defaultArg = this.parse(MAX_PREC);
      }
      gotComma = this.peekKind() === T_COMMA;
      if (gotComma) param.commaFodder = this.fodder(this.pop());
      params.push(param);
      if (!gotComma && this.peekKind() !== T_RPAREN) throw this.fail(this.peek());
    }
    const parenRight = this.pop();
    return {
      parenLeftFodder: this.fodder(parenLeft),
      params,
      trailingComma: gotComma,
      parenRightFodder: this.fodder(parenRight),
    };
  }

  private parseBind(binds: LocalBind[]): Tok {
    const v = this.expect(T_IDENTIFIER);
    let fun: Params | null = null;
    if (this.peekKind() === T_LPAREN) fun = this.parseParams(this.pop());
    const eq = this.expectOp('=');
    const body = this.parse(MAX_PREC);
    const delim = this.pop();
    if (this.kind(delim) !== T_SEMICOLON && this.kind(delim) !== T_COMMA) throw this.fail(delim);
    binds.push({
      varFodder: this.fodder(v),
      variable: this.data(v),
      fun,
      eqFodder: this.fodder(eq),
      body,
      closeFodder: this.fodder(delim),
    });
    return delim;
  }

  private parseHide(): { opFodder: Fodder; superSugar: boolean; hide: Hide } {
    const op = this.pop();
    if (this.kind(op) !== T_OPERATOR) throw this.fail(op);
    let s = this.data(op);
    const superSugar = s.startsWith('+');
    if (superSugar) s = s.slice(1);
    if (s !== ':' && s !== '::' && s !== ':::') throw this.fail(op);
    return { opFodder: this.fodder(op), superSugar, hide: s };
  }

  private commaFodderAhead(): Fodder {
    return this.peekKind() === T_COMMA ? this.fodder(this.peek()) : [];
  }

  private parseField(next: Tok): ObjectField {
    const field: ObjectField = {
      kind: 'id',
      hide: ':',
      superSugar: false,
      method: null,
      fodder1: [],
      fodder2: [],
      id: null,
      expr1: null,
      opFodder: [],
      expr2: null as unknown as Node,
      expr3: null,
      commaFodder: [],
    };
    if (this.kind(next) === T_IDENTIFIER) {
      field.id = this.data(next);
      field.fodder1 = this.fodder(next);
    } else if (this.kind(next) === T_LBRACKET) {
      field.kind = 'expr';
      field.fodder1 = this.fodder(next);
      field.expr1 = this.parse(MAX_PREC);
      field.fodder2 = this.fodder(this.expect(T_RBRACKET));
    } else {
      field.kind = 'str';
      field.expr1 = this.stringLiteral(next);
    }
    if (this.peekKind() === T_LPAREN) field.method = this.parseParams(this.pop());
    const { opFodder, superSugar, hide } = this.parseHide();
    field.opFodder = opFodder;
    field.superSugar = superSugar;
    field.hide = hide;
    field.expr2 = this.parse(MAX_PREC);
    field.commaFodder = this.commaFodderAhead();
    return field;
  }

  private parseObjectLocal(next: Tok): ObjectField {
    const v = this.expect(T_IDENTIFIER);
    let method: Params | null = null;
    if (this.peekKind() === T_LPAREN) method = this.parseParams(this.pop());
    const eq = this.expectOp('=');
    const body = this.parse(MAX_PREC);
    return {
      kind: 'local',
      hide: ':::',
      superSugar: false,
      method,
      fodder1: this.fodder(next),
      fodder2: this.fodder(v),
      id: this.data(v),
      expr1: null,
      opFodder: this.fodder(eq),
      expr2: body,
      expr3: null,
      commaFodder: this.commaFodderAhead(),
    };
  }

  private parseObjectAssert(next: Tok): ObjectField {
    const cond = this.parse(MAX_PREC);
    let msg: Node | null = null;
    let colonFodder: Fodder = [];
    if (this.isOp(this.peek(), ':')) {
      colonFodder = this.fodder(this.pop());
      msg = this.parse(MAX_PREC);
    }
    return {
      kind: 'assert',
      hide: ':::',
      superSugar: false,
      method: null,
      fodder1: this.fodder(next),
      fodder2: [],
      id: null,
      expr1: null,
      opFodder: colonFodder,
      expr2: cond,
      expr3: msg,
      commaFodder: this.commaFodderAhead(),
    };
  }

  /** After `{`: an object or an object comprehension, through the closing `}`. */
  private parseObjectRemainder(open: Tok): ObjectNode | ObjectComp {
    const fields: ObjectField[] = [];
    let gotComma = false;
    let next = this.pop();
    for (;;) {
      if (this.kind(next) === T_RBRACE) {
        return {
          type: 'object',
          fodder: this.fodder(open),
          fields,
          trailingComma: gotComma,
          closeFodder: this.fodder(next),
        };
      }
      if (this.kind(next) === T_FOR) {
        const { spec, last } = this.parseSpecs(next, T_RBRACE);
        return {
          type: 'objectComp',
          fodder: this.fodder(open),
          fields,
          trailingComma: gotComma,
          spec,
          closeFodder: this.fodder(last),
        };
      }
      if (fields.length > 0 && !gotComma) throw this.fail(next);
      if (this.kind(next) === T_LOCAL) fields.push(this.parseObjectLocal(next));
      else if (this.kind(next) === T_ASSERT) fields.push(this.parseObjectAssert(next));
      else fields.push(this.parseField(next));
      next = this.pop();
      gotComma = this.kind(next) === T_COMMA;
      if (gotComma) next = this.pop();
    }
  }

  private parseSpecs(forTok: Tok, end: number): { spec: ForSpec; last: Tok } {
    let outer: ForSpec | null = null;
    let forToken = forTok;
    for (;;) {
      const v = this.expect(T_IDENTIFIER);
      const inTok = this.expect(T_IN);
      const expr = this.parse(MAX_PREC);
      const conditions: IfSpec[] = [];
      let maybeIf = this.pop();
      while (this.kind(maybeIf) === T_IF) {
        conditions.push({ ifFodder: this.fodder(maybeIf), expr: this.parse(MAX_PREC) });
        maybeIf = this.pop();
      }
      const spec: ForSpec = {
        forFodder: this.fodder(forToken),
        varFodder: this.fodder(v),
        varName: this.data(v),
        inFodder: this.fodder(inTok),
        expr,
        conditions,
        outer,
      };
      if (this.kind(maybeIf) === end) return { spec, last: maybeIf };
      if (this.kind(maybeIf) !== T_FOR) throw this.fail(maybeIf);
      outer = spec;
      forToken = maybeIf;
    }
  }

  private parseArray(open: Tok): Node {
    if (this.peekKind() === T_RBRACKET) {
      return {
        type: 'array',
        fodder: this.fodder(open),
        elements: [],
        trailingComma: false,
        closeFodder: this.fodder(this.pop()),
      };
    }
    const first = this.parse(MAX_PREC);
    let gotComma = false;
    let commaFodder: Fodder = [];
    if (this.peekKind() === T_COMMA) {
      gotComma = true;
      commaFodder = this.fodder(this.pop());
    }
    if (this.peekKind() === T_FOR) {
      const { spec, last } = this.parseSpecs(this.pop(), T_RBRACKET);
      return {
        type: 'arrayComp',
        fodder: this.fodder(open),
        body: first,
        trailingComma: gotComma,
        trailingCommaFodder: commaFodder,
        spec,
        closeFodder: this.fodder(last),
      };
    }
    const elements: CommaSeparatedExpr[] = [{ expr: first, commaFodder }];
    while (this.peekKind() !== T_RBRACKET) {
      if (!gotComma) throw this.fail(this.peek());
      const el: CommaSeparatedExpr = { expr: this.parse(MAX_PREC), commaFodder: [] };
      gotComma = this.peekKind() === T_COMMA;
      if (gotComma) el.commaFodder = this.fodder(this.pop());
      elements.push(el);
    }
    const close = this.pop();
    return {
      type: 'array',
      fodder: this.fodder(open),
      elements,
      trailingComma: gotComma,
      closeFodder: this.fodder(close),
    };
  }

  private parseTerminal(): Node {
    const tok = this.pop();
    switch (this.kind(tok)) {
      case T_LBRACE:
        return this.parseObjectRemainder(tok);
      case T_LBRACKET:
        return this.parseArray(tok);
      case T_LPAREN: {
        const inner = this.parse(MAX_PREC);
        const close = this.expect(T_RPAREN);
        return { type: 'parens', fodder: this.fodder(tok), inner, closeFodder: this.fodder(close) };
      }
      case T_NUMBER:
        return { type: 'number', fodder: this.fodder(tok), text: this.data(tok) };
      case T_STRING_SINGLE:
      case T_STRING_DOUBLE:
      case T_STRING_BLOCK:
      case T_VERBATIM_DOUBLE:
      case T_VERBATIM_SINGLE:
        return this.stringLiteral(tok);
      case T_TRUE:
      case T_FALSE:
        return { type: 'boolean', fodder: this.fodder(tok), value: this.kind(tok) === T_TRUE };
      case T_NULL:
        return { type: 'null', fodder: this.fodder(tok) };
      case T_DOLLAR:
        return { type: 'dollar', fodder: this.fodder(tok) };
      case T_IDENTIFIER:
        return { type: 'var', fodder: this.fodder(tok), id: this.data(tok) };
      case T_SELF:
        return { type: 'self', fodder: this.fodder(tok) };
      case T_SUPER: {
        const next = this.pop();
        if (this.kind(next) === T_DOT) {
          const id = this.expect(T_IDENTIFIER);
          return {
            type: 'superIndex',
            fodder: this.fodder(tok),
            dotFodder: this.fodder(next),
            index: null,
            id: this.data(id),
            idFodder: this.fodder(id),
          };
        }
        if (this.kind(next) !== T_LBRACKET) throw this.fail(next);
        const index = this.parse(MAX_PREC);
        const close = this.expect(T_RBRACKET);
        return {
          type: 'superIndex',
          fodder: this.fodder(tok),
          dotFodder: this.fodder(next),
          index,
          id: null,
          idFodder: this.fodder(close),
        };
      }
      default:
        throw this.fail(tok);
    }
  }

  private parseImport(begin: Tok, keyword: 'import' | 'importstr' | 'importbin'): Node {
    const body = this.parse(MAX_PREC);
    if (body.type !== 'string') throw this.fail(begin);
    return { type: 'import', fodder: this.fodder(begin), keyword, file: body };
  }

  private parse(prec: number): Node {
    const begin = this.peek();
    switch (this.kind(begin)) {
      case T_ASSERT: {
        this.pop();
        const cond = this.parse(MAX_PREC);
        let message: Node | null = null;
        let colonFodder: Fodder = [];
        if (this.isOp(this.peek(), ':')) {
          colonFodder = this.fodder(this.pop());
          message = this.parse(MAX_PREC);
        }
        const semi = this.expect(T_SEMICOLON);
        const rest = this.parse(MAX_PREC);
        return {
          type: 'assert',
          fodder: this.fodder(begin),
          cond,
          colonFodder,
          message,
          semicolonFodder: this.fodder(semi),
          rest,
        };
      }
      case T_ERROR:
        this.pop();
        return { type: 'error', fodder: this.fodder(begin), expr: this.parse(MAX_PREC) };
      case T_IF: {
        this.pop();
        const cond = this.parse(MAX_PREC);
        const thenTok = this.expect(T_THEN);
        const branchTrue = this.parse(MAX_PREC);
        let elseFodder: Fodder = [];
        let branchFalse: Node | null = null;
        if (this.peekKind() === T_ELSE) {
          elseFodder = this.fodder(this.pop());
          branchFalse = this.parse(MAX_PREC);
        }
        return {
          type: 'conditional',
          fodder: this.fodder(begin),
          cond,
          thenFodder: this.fodder(thenTok),
          branchTrue,
          elseFodder,
          branchFalse,
        };
      }
      case T_FUNCTION: {
        this.pop();
        const params = this.parseParams(this.expect(T_LPAREN));
        const body = this.parse(MAX_PREC);
        return { type: 'function', fodder: this.fodder(begin), params, body };
      }
      case T_IMPORT:
      case T_IMPORTSTR:
      case T_IMPORTBIN:
        this.pop();
        return this.parseImport(begin, KIND_NAMES[this.kind(begin)] as Import['keyword']);
      case T_LOCAL: {
        this.pop();
        const binds: LocalBind[] = [];
        while (this.kind(this.parseBind(binds)) !== T_SEMICOLON);
        const body = this.parse(MAX_PREC);
        return { type: 'local', fodder: this.fodder(begin), binds, body };
      }
      default:
        break;
    }
    let lhs: Node;
    if (this.kind(begin) === T_OPERATOR && UNARY_OPS.has(this.data(begin)) && prec >= UNARY_PREC) {
      const op = this.pop();
      lhs = { type: 'unary', fodder: this.fodder(begin), op: this.data(op), expr: this.parse(UNARY_PREC) };
    } else {
      lhs = this.parseTerminal();
    }
    // Precedence climbing: builds the same left-associative tree as
    // go-jsonnet's one-level-per-precedence recursion, with far fewer frames.
    for (;;) {
      const next = this.peek();
      let opPrec: number;
      if (this.kind(next) === T_IN) {
        opPrec = BINARY_PREC.in!;
      } else if (this.kind(next) === T_OPERATOR) {
        if (this.data(next) === ':' || this.data(next) === '::') return lhs;
        const p = BINARY_PREC[this.data(next)];
        if (p === undefined) throw this.fail(next);
        opPrec = p;
      } else if (
        this.kind(next) === T_DOT ||
        this.kind(next) === T_LBRACKET ||
        this.kind(next) === T_LPAREN ||
        this.kind(next) === T_LBRACE
      ) {
        opPrec = APPLY_PREC;
      } else {
        return lhs;
      }
      if (opPrec > prec) return lhs;
      const op = this.pop();
      switch (this.kind(op)) {
        case T_LBRACKET:
          lhs = this.parseIndexOrSlice(lhs, op);
          break;
        case T_DOT: {
          const id = this.expect(T_IDENTIFIER);
          lhs = {
            type: 'index',
            fodder: [],
            target: lhs,
            leftBracketFodder: this.fodder(op),
            index: null,
            id: this.data(id),
            rightBracketFodder: this.fodder(id),
          };
          break;
        }
        case T_LPAREN:
          lhs = this.parseApply(lhs, op);
          break;
        case T_LBRACE: {
          const right = this.parseObjectRemainder(op);
          if (right.type !== 'object') throw this.fail(op);
          lhs = { type: 'applyBrace', fodder: [], left: lhs, right };
          break;
        }
        default:
          if (this.kind(op) === T_IN && this.peekKind() === T_SUPER) {
            const sup = this.pop();
            lhs = { type: 'inSuper', fodder: [], index: lhs, inFodder: this.fodder(op), superFodder: this.fodder(sup) };
          } else {
            const right = this.parse(opPrec - 1);
            lhs = {
              type: 'binary',
              fodder: [],
              left: lhs,
              opFodder: this.fodder(op),
              op: this.kind(op) === T_IN ? 'in' : this.data(op),
              right,
            };
          }
      }
    }
  }

  private parseIndexOrSlice(target: Node, open: Tok): Node {
    const indexes: (Node | null)[] = [null, null, null];
    const colonFodders: Fodder[] = [[], [], []];
    let colons = 0;
    let ready = true;
    let rightBracketFodder: Fodder = [];
    while (colons < 3) {
      const t = this.peek();
      if (this.kind(t) === T_RBRACKET) {
        rightBracketFodder = this.fodder(this.pop());
        break;
      } else if (this.isOp(t, ':')) {
        colonFodders[colons] = this.fodder(this.pop());
        colons++;
        ready = true;
      } else if (this.isOp(t, '::')) {
        colonFodders[colons] = this.fodder(this.pop());
        colons += 2;
        ready = true;
      } else if (ready) {
        indexes[colons] = this.parse(MAX_PREC);
        ready = false;
      } else {
        throw this.fail(t);
      }
    }
    if (colons === 0) {
      return {
        type: 'index',
        fodder: [],
        target,
        leftBracketFodder: this.fodder(open),
        index: indexes[0]!,
        id: null,
        rightBracketFodder,
      };
    }
    return {
      type: 'slice',
      fodder: [],
      target,
      leftBracketFodder: this.fodder(open),
      beginIndex: indexes[0]!,
      endColonFodder: colonFodders[0]!,
      endIndex: indexes[1]!,
      stepColonFodder: colonFodders[1]!,
      step: indexes[2]!,
      rightBracketFodder,
    };
  }

  private parseApply(target: Node, open: Tok): Node {
    const positional: CommaSeparatedExpr[] = [];
    const named: NamedArgument[] = [];
    let gotComma = false;
    while (this.peekKind() !== T_RPAREN) {
      let nameTok: Tok | null = null;
      let eqTok: Tok | null = null;
      if (this.peekKind() === T_IDENTIFIER && this.isOp(this.peekAt(1), '=')) {
        nameTok = this.pop();
        eqTok = this.pop();
      }
      const expr = this.parse(MAX_PREC);
      let commaFodder: Fodder = [];
      gotComma = this.peekKind() === T_COMMA;
      if (gotComma) commaFodder = this.fodder(this.pop());
      if (nameTok !== null && eqTok !== null) {
        named.push({
          nameFodder: this.fodder(nameTok),
          name: this.data(nameTok),
          eqFodder: this.fodder(eqTok),
          arg: expr,
          commaFodder,
        });
      } else {
        positional.push({ expr, commaFodder });
      }
      if (!gotComma && this.peekKind() !== T_RPAREN) throw this.fail(this.peek());
    }
    const close = this.pop();
    let tailStrict = false;
    let tailStrictFodder: Fodder = [];
    if (this.peekKind() === T_TAILSTRICT) {
      tailStrict = true;
      tailStrictFodder = this.fodder(this.pop());
    }
    return {
      type: 'apply',
      fodder: [],
      target,
      fodderLeft: this.fodder(open),
      positional,
      named,
      trailingComma: gotComma,
      fodderRight: this.fodder(close),
      tailStrict,
      tailStrictFodder,
    };
  }
}
