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
import type { TokenKind } from '../lexer.js';
import { BINARY_PREC, MAX_PREC, parseTokens as validate, UNARY_OPS } from '../parser.js';
import { scanTokens, type TokenBuffer } from '../scanner.js';
import { KIND_NAMES } from '../token-kinds.js';
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
} from './tree.js';

const APPLY_PREC = 2;
const UNARY_PREC = 4;
const STRING_KINDS: Readonly<Partial<Record<TokenKind, LiteralString['kind']>>> = {
  STRING_SINGLE: 'single',
  STRING_DOUBLE: 'double',
  STRING_BLOCK: 'block',
  VERBATIM_STRING_DOUBLE: 'verbatimDouble',
  VERBATIM_STRING_SINGLE: 'verbatimSingle',
};

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

interface Tok {
  kind: TokenKind;
  data: string;
  fodder: Fodder;
  /** Index in the scanner's arrays (for offsets and text block indents). */
  index: number;
}

class TreeParser {
  private i = 0;
  private readonly toks: Tok[];

  constructor(
    private readonly file: SourceFile,
    private readonly tokens: TokenBuffer,
    fodders: Fodder[],
  ) {
    this.toks = new Array<Tok>(tokens.count);
    for (let k = 0; k < tokens.count; k++) {
      this.toks[k] = { kind: KIND_NAMES[tokens.kinds[k]!]!, data: tokens.data[k]!, fodder: fodders[k]!, index: k };
    }
  }

  parseFile(): ParsedFile {
    const body = this.parse(MAX_PREC);
    const eof = this.pop();
    if (eof.kind !== 'end of file') throw this.fail(eof);
    return { body, finalFodder: eof.fodder };
  }

  private peek(): Tok {
    return this.toks[this.i]!;
  }
  private peekAt(k: number): Tok {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)]!;
  }
  private pop(): Tok {
    const t = this.toks[this.i]!;
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }
  private isOp(t: Tok, op: string): boolean {
    return t.kind === 'OPERATOR' && t.data === op;
  }
  /** Unreachable on input the validating parser accepted; kept so bad input never crashes. */
  private fail(t: Tok): Error {
    const { starts, ends } = this.tokens;
    return staticError(`Unexpected token while formatting: ${t.kind}`, this.file, starts[t.index]!, ends[t.index]!);
  }
  private expect(kind: TokenKind): Tok {
    const t = this.pop();
    if (t.kind !== kind) throw this.fail(t);
    return t;
  }
  private expectOp(op: string): Tok {
    const t = this.pop();
    if (!this.isOp(t, op)) throw this.fail(t);
    return t;
  }

  private stringLiteral(t: Tok): LiteralString {
    const kind = STRING_KINDS[t.kind];
    if (!kind) throw this.fail(t);
    const block = this.tokens.blockIndents.get(t.index);
    return {
      type: 'string',
      fodder: t.fodder,
      kind,
      value: t.data,
      blockIndent: block?.[0] ?? '',
      blockTermIndent: block?.[1] ?? '',
    };
  }

  private parseParams(parenLeft: Tok): Params {
    const params: Parameter[] = [];
    let gotComma = false;
    for (;;) {
      if (this.peek().kind === ')') break;
      const name = this.expect('IDENTIFIER');
      const param: Parameter = {
        nameFodder: name.fodder,
        name: name.data,
        eqFodder: [],
        defaultArg: null,
        commaFodder: [],
      };
      if (this.isOp(this.peek(), '=')) {
        param.eqFodder = this.pop().fodder;
        param.defaultArg = this.parse(MAX_PREC);
      }
      gotComma = this.peek().kind === ',';
      if (gotComma) param.commaFodder = this.pop().fodder;
      params.push(param);
      if (!gotComma && this.peek().kind !== ')') throw this.fail(this.peek());
    }
    const parenRight = this.pop();
    return { parenLeftFodder: parenLeft.fodder, params, trailingComma: gotComma, parenRightFodder: parenRight.fodder };
  }

  private parseBind(binds: LocalBind[]): Tok {
    const v = this.expect('IDENTIFIER');
    let fun: Params | null = null;
    if (this.peek().kind === '(') fun = this.parseParams(this.pop());
    const eq = this.expectOp('=');
    const body = this.parse(MAX_PREC);
    const delim = this.pop();
    if (delim.kind !== ';' && delim.kind !== ',') throw this.fail(delim);
    binds.push({ varFodder: v.fodder, variable: v.data, fun, eqFodder: eq.fodder, body, closeFodder: delim.fodder });
    return delim;
  }

  private parseHide(): { opFodder: Fodder; superSugar: boolean; hide: Hide } {
    const op = this.pop();
    if (op.kind !== 'OPERATOR') throw this.fail(op);
    let s = op.data;
    const superSugar = s.startsWith('+');
    if (superSugar) s = s.slice(1);
    if (s !== ':' && s !== '::' && s !== ':::') throw this.fail(op);
    return { opFodder: op.fodder, superSugar, hide: s };
  }

  private commaFodderAhead(): Fodder {
    return this.peek().kind === ',' ? this.peek().fodder : [];
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
    if (next.kind === 'IDENTIFIER') {
      field.id = next.data;
      field.fodder1 = next.fodder;
    } else if (next.kind === '[') {
      field.kind = 'expr';
      field.fodder1 = next.fodder;
      field.expr1 = this.parse(MAX_PREC);
      field.fodder2 = this.expect(']').fodder;
    } else {
      field.kind = 'str';
      field.expr1 = this.stringLiteral(next);
    }
    if (this.peek().kind === '(') field.method = this.parseParams(this.pop());
    const { opFodder, superSugar, hide } = this.parseHide();
    field.opFodder = opFodder;
    field.superSugar = superSugar;
    field.hide = hide;
    field.expr2 = this.parse(MAX_PREC);
    field.commaFodder = this.commaFodderAhead();
    return field;
  }

  private parseObjectLocal(next: Tok): ObjectField {
    const v = this.expect('IDENTIFIER');
    let method: Params | null = null;
    if (this.peek().kind === '(') method = this.parseParams(this.pop());
    const eq = this.expectOp('=');
    const body = this.parse(MAX_PREC);
    return {
      kind: 'local',
      hide: ':::',
      superSugar: false,
      method,
      fodder1: next.fodder,
      fodder2: v.fodder,
      id: v.data,
      expr1: null,
      opFodder: eq.fodder,
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
      colonFodder = this.pop().fodder;
      msg = this.parse(MAX_PREC);
    }
    return {
      kind: 'assert',
      hide: ':::',
      superSugar: false,
      method: null,
      fodder1: next.fodder,
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
      if (next.kind === '}') {
        return { type: 'object', fodder: open.fodder, fields, trailingComma: gotComma, closeFodder: next.fodder };
      }
      if (next.kind === 'for') {
        const { spec, last } = this.parseSpecs(next, '}');
        return {
          type: 'objectComp',
          fodder: open.fodder,
          fields,
          trailingComma: gotComma,
          spec,
          closeFodder: last.fodder,
        };
      }
      if (fields.length > 0 && !gotComma) throw this.fail(next);
      if (next.kind === 'local') fields.push(this.parseObjectLocal(next));
      else if (next.kind === 'assert') fields.push(this.parseObjectAssert(next));
      else fields.push(this.parseField(next));
      next = this.pop();
      gotComma = next.kind === ',';
      if (gotComma) next = this.pop();
    }
  }

  private parseSpecs(forTok: Tok, end: TokenKind): { spec: ForSpec; last: Tok } {
    let outer: ForSpec | null = null;
    let forToken = forTok;
    for (;;) {
      const v = this.expect('IDENTIFIER');
      const inTok = this.expect('in');
      const expr = this.parse(MAX_PREC);
      const conditions: IfSpec[] = [];
      let maybeIf = this.pop();
      while (maybeIf.kind === 'if') {
        conditions.push({ ifFodder: maybeIf.fodder, expr: this.parse(MAX_PREC) });
        maybeIf = this.pop();
      }
      const spec: ForSpec = {
        forFodder: forToken.fodder,
        varFodder: v.fodder,
        varName: v.data,
        inFodder: inTok.fodder,
        expr,
        conditions,
        outer,
      };
      if (maybeIf.kind === end) return { spec, last: maybeIf };
      if (maybeIf.kind !== 'for') throw this.fail(maybeIf);
      outer = spec;
      forToken = maybeIf;
    }
  }

  private parseArray(open: Tok): Node {
    if (this.peek().kind === ']') {
      return { type: 'array', fodder: open.fodder, elements: [], trailingComma: false, closeFodder: this.pop().fodder };
    }
    const first = this.parse(MAX_PREC);
    let gotComma = false;
    let commaFodder: Fodder = [];
    if (this.peek().kind === ',') {
      gotComma = true;
      commaFodder = this.pop().fodder;
    }
    if (this.peek().kind === 'for') {
      const { spec, last } = this.parseSpecs(this.pop(), ']');
      return {
        type: 'arrayComp',
        fodder: open.fodder,
        body: first,
        trailingComma: gotComma,
        trailingCommaFodder: commaFodder,
        spec,
        closeFodder: last.fodder,
      };
    }
    const elements: CommaSeparatedExpr[] = [{ expr: first, commaFodder }];
    while (this.peek().kind !== ']') {
      if (!gotComma) throw this.fail(this.peek());
      const el: CommaSeparatedExpr = { expr: this.parse(MAX_PREC), commaFodder: [] };
      gotComma = this.peek().kind === ',';
      if (gotComma) el.commaFodder = this.pop().fodder;
      elements.push(el);
    }
    const close = this.pop();
    return { type: 'array', fodder: open.fodder, elements, trailingComma: gotComma, closeFodder: close.fodder };
  }

  private parseTerminal(): Node {
    const tok = this.pop();
    switch (tok.kind) {
      case '{':
        return this.parseObjectRemainder(tok);
      case '[':
        return this.parseArray(tok);
      case '(': {
        const inner = this.parse(MAX_PREC);
        const close = this.expect(')');
        return { type: 'parens', fodder: tok.fodder, inner, closeFodder: close.fodder };
      }
      case 'NUMBER':
        return { type: 'number', fodder: tok.fodder, text: tok.data };
      case 'STRING_SINGLE':
      case 'STRING_DOUBLE':
      case 'STRING_BLOCK':
      case 'VERBATIM_STRING_DOUBLE':
      case 'VERBATIM_STRING_SINGLE':
        return this.stringLiteral(tok);
      case 'true':
      case 'false':
        return { type: 'boolean', fodder: tok.fodder, value: tok.kind === 'true' };
      case 'null':
        return { type: 'null', fodder: tok.fodder };
      case '$':
        return { type: 'dollar', fodder: tok.fodder };
      case 'IDENTIFIER':
        return { type: 'var', fodder: tok.fodder, id: tok.data };
      case 'self':
        return { type: 'self', fodder: tok.fodder };
      case 'super': {
        const next = this.pop();
        if (next.kind === '.') {
          const id = this.expect('IDENTIFIER');
          return {
            type: 'superIndex',
            fodder: tok.fodder,
            dotFodder: next.fodder,
            index: null,
            id: id.data,
            idFodder: id.fodder,
          };
        }
        if (next.kind !== '[') throw this.fail(next);
        const index = this.parse(MAX_PREC);
        const close = this.expect(']');
        return {
          type: 'superIndex',
          fodder: tok.fodder,
          dotFodder: next.fodder,
          index,
          id: null,
          idFodder: close.fodder,
        };
      }
      default:
        throw this.fail(tok);
    }
  }

  private parseImport(begin: Tok, keyword: 'import' | 'importstr' | 'importbin'): Node {
    const body = this.parse(MAX_PREC);
    if (body.type !== 'string') throw this.fail(begin);
    return { type: 'import', fodder: begin.fodder, keyword, file: body };
  }

  private parse(prec: number): Node {
    const begin = this.peek();
    switch (begin.kind) {
      case 'assert': {
        this.pop();
        const cond = this.parse(MAX_PREC);
        let message: Node | null = null;
        let colonFodder: Fodder = [];
        if (this.isOp(this.peek(), ':')) {
          colonFodder = this.pop().fodder;
          message = this.parse(MAX_PREC);
        }
        const semi = this.expect(';');
        const rest = this.parse(MAX_PREC);
        return { type: 'assert', fodder: begin.fodder, cond, colonFodder, message, semicolonFodder: semi.fodder, rest };
      }
      case 'error':
        this.pop();
        return { type: 'error', fodder: begin.fodder, expr: this.parse(MAX_PREC) };
      case 'if': {
        this.pop();
        const cond = this.parse(MAX_PREC);
        const thenTok = this.expect('then');
        const branchTrue = this.parse(MAX_PREC);
        let elseFodder: Fodder = [];
        let branchFalse: Node | null = null;
        if (this.peek().kind === 'else') {
          elseFodder = this.pop().fodder;
          branchFalse = this.parse(MAX_PREC);
        }
        return {
          type: 'conditional',
          fodder: begin.fodder,
          cond,
          thenFodder: thenTok.fodder,
          branchTrue,
          elseFodder,
          branchFalse,
        };
      }
      case 'function': {
        this.pop();
        const params = this.parseParams(this.expect('('));
        const body = this.parse(MAX_PREC);
        return { type: 'function', fodder: begin.fodder, params, body };
      }
      case 'import':
      case 'importstr':
      case 'importbin':
        this.pop();
        return this.parseImport(begin, begin.kind);
      case 'local': {
        this.pop();
        const binds: LocalBind[] = [];
        while (this.parseBind(binds).kind !== ';');
        const body = this.parse(MAX_PREC);
        return { type: 'local', fodder: begin.fodder, binds, body };
      }
      default:
        break;
    }
    let lhs: Node;
    if (begin.kind === 'OPERATOR' && UNARY_OPS.has(begin.data) && prec >= UNARY_PREC) {
      const op = this.pop();
      lhs = { type: 'unary', fodder: begin.fodder, op: op.data, expr: this.parse(UNARY_PREC) };
    } else {
      lhs = this.parseTerminal();
    }
    // Precedence climbing: builds the same left-associative tree as
    // go-jsonnet's one-level-per-precedence recursion, with far fewer frames.
    for (;;) {
      const next = this.peek();
      let opPrec: number;
      if (next.kind === 'in') {
        opPrec = BINARY_PREC.in!;
      } else if (next.kind === 'OPERATOR') {
        if (next.data === ':' || next.data === '::') return lhs;
        const p = BINARY_PREC[next.data];
        if (p === undefined) throw this.fail(next);
        opPrec = p;
      } else if (next.kind === '.' || next.kind === '[' || next.kind === '(' || next.kind === '{') {
        opPrec = APPLY_PREC;
      } else {
        return lhs;
      }
      if (opPrec > prec) return lhs;
      const op = this.pop();
      switch (op.kind) {
        case '[':
          lhs = this.parseIndexOrSlice(lhs, op);
          break;
        case '.': {
          const id = this.expect('IDENTIFIER');
          lhs = {
            type: 'index',
            fodder: [],
            target: lhs,
            leftBracketFodder: op.fodder,
            index: null,
            id: id.data,
            rightBracketFodder: id.fodder,
          };
          break;
        }
        case '(':
          lhs = this.parseApply(lhs, op);
          break;
        case '{': {
          const right = this.parseObjectRemainder(op);
          if (right.type !== 'object') throw this.fail(op);
          lhs = { type: 'applyBrace', fodder: [], left: lhs, right };
          break;
        }
        default:
          if (op.kind === 'in' && this.peek().kind === 'super') {
            const sup = this.pop();
            lhs = { type: 'inSuper', fodder: [], index: lhs, inFodder: op.fodder, superFodder: sup.fodder };
          } else {
            const right = this.parse(opPrec - 1);
            lhs = {
              type: 'binary',
              fodder: [],
              left: lhs,
              opFodder: op.fodder,
              op: op.kind === 'in' ? 'in' : op.data,
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
      if (t.kind === ']') {
        rightBracketFodder = this.pop().fodder;
        break;
      } else if (this.isOp(t, ':')) {
        colonFodders[colons] = this.pop().fodder;
        colons++;
        ready = true;
      } else if (this.isOp(t, '::')) {
        colonFodders[colons] = this.pop().fodder;
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
        leftBracketFodder: open.fodder,
        index: indexes[0]!,
        id: null,
        rightBracketFodder,
      };
    }
    return {
      type: 'slice',
      fodder: [],
      target,
      leftBracketFodder: open.fodder,
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
    while (this.peek().kind !== ')') {
      let nameTok: Tok | null = null;
      let eqTok: Tok | null = null;
      if (this.peek().kind === 'IDENTIFIER' && this.isOp(this.peekAt(1), '=')) {
        nameTok = this.pop();
        eqTok = this.pop();
      }
      const expr = this.parse(MAX_PREC);
      let commaFodder: Fodder = [];
      gotComma = this.peek().kind === ',';
      if (gotComma) commaFodder = this.pop().fodder;
      if (nameTok && eqTok) {
        named.push({ nameFodder: nameTok.fodder, name: nameTok.data, eqFodder: eqTok.fodder, arg: expr, commaFodder });
      } else {
        positional.push({ expr, commaFodder });
      }
      if (!gotComma && this.peek().kind !== ')') throw this.fail(this.peek());
    }
    const close = this.pop();
    let tailStrict = false;
    let tailStrictFodder: Fodder = [];
    if (this.peek().kind === 'tailstrict') {
      tailStrict = true;
      tailStrictFodder = this.pop().fodder;
    }
    return {
      type: 'apply',
      fodder: [],
      target,
      fodderLeft: open.fodder,
      positional,
      named,
      trailingComma: gotComma,
      fodderRight: close.fodder,
      tailStrict,
      tailStrictFodder,
    };
  }
}
