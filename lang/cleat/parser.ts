/**
 * The Cleat parser: tokens → Program. Recursive descent with one token of
 * lookahead. It never throws to its caller: a syntax error becomes a
 * CLEAT_PARSE diagnostic and the parser resumes at the next top-level keyword,
 * so one file can report several errors. Interpolations inside strings are
 * parsed by a nested parser over the same SourceFile.
 * Precedence, loosest first: if/let/match, `??`, `||`, `&&`, comparisons,
 * `+ -`, `* / %`, unary `- !`, postfix (`.f`, `[i]`, `(args)`, `T {}`, `with {}`).
 */
import type { Diagnostic, SourceFile, Span } from '../common/source.js';
import type * as A from './ast.js';
import { CleatCodes } from './diagnostics.js';
import { scan, type Token } from './lexer.js';

class ParseAbort extends Error {}

const ITEM_KEYWORDS = new Set(['type', 'input', 'let', 'fn', 'export', 'import', 'refine']);
const INT64_MAX = (1n << 63n) - 1n;

export interface ParseResult {
  program: A.Program;
  diagnostics: Diagnostic[];
}

/** Parses a whole file. */
export function parseProgram(file: SourceFile): ParseResult {
  const diagnostics: Diagnostic[] = [];
  const p = new Parser(file, scan(file, diagnostics), diagnostics);
  return { program: p.program(), diagnostics };
}

/** Parses one expression (used for `--set`-style snippets and tests). */
export function parseExpression(file: SourceFile): { expr?: A.Expr; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const p = new Parser(file, scan(file, diagnostics), diagnostics);
  try {
    const expr = p.expr();
    p.expectEof();
    return { expr, diagnostics };
  } catch (e) {
    if (e instanceof ParseAbort) return { diagnostics };
    throw e;
  }
}

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(
    private readonly file: SourceFile,
    private readonly toks: Token[],
    private readonly diags: Diagnostic[],
  ) {}

  // ---- token helpers ----
  private get tok(): Token {
    return this.toks[this.pos]!;
  }
  private atEof(): boolean {
    return this.toks[this.pos]!.kind === 'eof';
  }
  private peek(n = 1): Token {
    return this.toks[Math.min(this.pos + n, this.toks.length - 1)]!;
  }
  private next(): Token {
    const t = this.tok;
    if (t.kind !== 'eof') this.pos++;
    return t;
  }
  private is(text: string): boolean {
    return (this.tok.kind === 'punct' || this.tok.kind === 'keyword') && this.tok.text === text;
  }
  private eat(text: string): boolean {
    if (this.is(text)) {
      this.pos++;
      return true;
    }
    return false;
  }
  private span(start: number, end = this.toks[Math.max(0, this.pos - 1)]!.end): Span {
    return { file: this.file, start, end: Math.max(start, end) };
  }
  private fail(message: string, t: Token = this.tok): never {
    const what = t.kind === 'eof' ? 'end of file' : `\`${t.text}\``;
    this.diags.push({
      code: CleatCodes.PARSE,
      message: `${message}, found ${what}`,
      span: { file: this.file, start: t.start, end: t.end },
    });
    throw new ParseAbort();
  }
  private expect(text: string, what = `\`${text}\``): Token {
    if (!this.is(text)) this.fail(`expected ${what}`);
    return this.next();
  }
  private ident(what = 'a name'): Token {
    if (this.tok.kind !== 'ident') this.fail(`expected ${what}`);
    return this.next();
  }
  expectEof(): void {
    if (this.tok.kind !== 'eof') this.fail('expected end of input');
  }

  /** Guards against stack exhaustion on pathological nesting. */
  private enter(): void {
    if (++this.depth > 500) this.fail('nesting too deep');
  }
  private leave(): void {
    this.depth--;
  }

  // ---- program ----
  program(): A.Program {
    const items: A.Item[] = [];
    while (this.tok.kind !== 'eof') {
      const start = this.pos;
      try {
        items.push(this.item());
        if (!this.atEof() && !this.tok.nlBefore && !this.eat(';')) this.fail('expected a new line after the item');
      } catch (e) {
        if (!(e instanceof ParseAbort)) throw e;
        if (this.pos === start) this.pos++;
        while (!this.atEof() && !(this.tok.kind === 'keyword' && ITEM_KEYWORDS.has(this.tok.text) && this.tok.nlBefore))
          this.pos++;
        this.depth = 0;
      }
    }
    return { items };
  }

  private item(): A.Item {
    const t = this.tok;
    const s = t.start;
    if (t.kind !== 'keyword' || !ITEM_KEYWORDS.has(t.text))
      this.fail('expected `type`, `input`, `let`, `fn`, `export`, `import` or `refine`');
    this.next();
    switch (t.text) {
      case 'type': {
        const name = this.ident('a type name').text;
        this.expect('=');
        const type = this.type();
        return { kind: 'TypeDecl', name, type, span: this.span(s) };
      }
      case 'input': {
        const name = this.ident('an input name').text;
        this.expect(':');
        const type = this.type();
        const def = this.eat('=') ? this.expr() : undefined;
        return { kind: 'Input', name, type, ...(def ? { default: def } : {}), span: this.span(s) };
      }
      case 'let': {
        const name = this.ident().text;
        const type = this.eat(':') ? this.type() : undefined;
        this.expect('=');
        const value = this.expr();
        return { kind: 'LetDecl', name, ...(type ? { type } : {}), value, span: this.span(s) };
      }
      case 'fn':
        return this.fnDecl(s);
      case 'export':
        return this.exportItem(s);
      case 'import':
        return this.importItem(s);
      default: {
        const target = this.dottedName();
        this.expect('with');
        const entries = this.typeWithEntries();
        return { kind: 'Refine', target, entries, span: this.span(s) };
      }
    }
  }

  private fnDecl(s: number): A.Item {
    const name = this.ident('a function name').text;
    this.expect('(');
    const params: A.Param[] = [];
    while (!this.is(')')) {
      const ps = this.tok.start;
      const pname = this.ident('a parameter name').text;
      this.expect(':', '`:` and the parameter type');
      const type = this.type();
      const def = this.eat('=') ? this.expr() : undefined;
      params.push({ name: pname, type, ...(def ? { default: def } : {}), span: this.span(ps) });
      if (!this.eat(',')) break;
    }
    this.expect(')');
    const result = this.eat('->') ? this.type() : undefined;
    this.expect('=');
    const body = this.expr();
    return { kind: 'FnDecl', name, params, ...(result ? { result } : {}), body, span: this.span(s) };
  }

  private exportItem(s: number): A.Item {
    let name: string | undefined;
    const after: { name: string; span: Span }[] = [];
    if (
      this.tok.kind === 'ident' &&
      (this.peek().text === '=' || this.peek().text === 'after') &&
      this.peek().kind !== 'string'
    ) {
      name = this.next().text;
      if (this.eat('after')) {
        do {
          const t = this.ident('a component name');
          after.push({ name: t.text, span: this.span(t.start, t.end) });
        } while (this.eat(','));
      }
      this.expect('=');
    }
    const value = this.expr();
    return { kind: 'Export', ...(name !== undefined ? { name } : {}), after, value, span: this.span(s) };
  }

  private importItem(s: number): A.Item {
    let form: A.ImportForm;
    if (this.eat('*')) {
      this.expect('as');
      form = { kind: 'namespace', alias: this.ident('a namespace name').text };
    } else if (this.eat('{')) {
      const names: { path: string[]; alias: string; span: Span }[] = [];
      while (!this.is('}')) {
        const ns = this.tok.start;
        const path = this.dottedName();
        const alias = this.eat('as') ? this.ident().text : path[path.length - 1]!;
        names.push({ path, alias, span: this.span(ns) });
        if (!this.eat(',')) break;
      }
      this.expect('}');
      form = { kind: 'named', names };
    } else {
      form = { kind: 'default', alias: this.ident('`*`, `{` or a name').text };
    }
    this.expect('from');
    const pt = this.tok;
    if (pt.kind !== 'string') this.fail('expected the import path as a string');
    this.next();
    const path = this.plainString(pt);
    let attrType: string | undefined;
    let attrSpan: Span | undefined;
    if (this.eat('with')) {
      const as = this.tok.start;
      this.expect('{');
      while (!this.is('}')) {
        const key = this.tok;
        if (key.kind !== 'ident' && key.kind !== 'keyword' && key.kind !== 'string')
          this.fail('expected an attribute name');
        this.next();
        const keyName = key.kind === 'string' ? this.plainString(key) : key.text;
        this.expect(':');
        const vt = this.tok;
        if (vt.kind !== 'string') this.fail('expected a string attribute value');
        this.next();
        if (keyName !== 'type') {
          this.diags.push({
            code: CleatCodes.IMPORT,
            message: `unsupported import attribute \`${keyName}\`: \`type\` is the only attribute`,
            span: this.span(key.start, key.end),
          });
        } else attrType = this.plainString(vt);
        if (!this.eat(',')) break;
      }
      this.expect('}');
      attrSpan = this.span(as);
    }
    return {
      kind: 'Import',
      form,
      path,
      pathSpan: this.span(pt.start, pt.end),
      ...(attrType !== undefined ? { attrType } : {}),
      ...(attrSpan ? { attrSpan } : {}),
      span: this.span(s),
    };
  }

  private plainString(t: Token): string {
    let out = '';
    for (const p of t.parts ?? []) {
      if (p.kind === 'expr') {
        this.diags.push({
          code: CleatCodes.PARSE,
          message: 'interpolation is not allowed here',
          span: this.span(p.start, p.end),
        });
      } else out += p.value;
    }
    return out;
  }

  private dottedName(): string[] {
    const path = [this.ident().text];
    while (this.is('.') && this.peek().kind === 'ident') {
      this.next();
      path.push(this.next().text);
    }
    return path;
  }

  // ---- types ----
  type(): A.TypeExpr {
    const s = this.tok.start;
    let t = this.unionType();
    while (this.is('where') || this.is('with')) {
      if (this.eat('where')) {
        const pred = this.expr();
        t = { kind: 'TWhere', base: t, pred, span: this.span(s) };
      } else {
        this.next();
        const entries = this.typeWithEntries();
        t = { kind: 'TWith', base: t, entries, span: this.span(s) };
      }
    }
    return t;
  }

  private unionType(): A.TypeExpr {
    const s = this.tok.start;
    this.eat('|');
    const members = [this.primaryType()];
    while (this.eat('|')) members.push(this.primaryType());
    return members.length === 1 ? members[0]! : { kind: 'TUnion', members, span: this.span(s) };
  }

  private primaryType(): A.TypeExpr {
    const t = this.tok;
    const s = t.start;
    this.enter();
    try {
      if (t.kind === 'ident') return { kind: 'TName', path: this.dottedName(), span: this.span(s) };
      if (t.kind === 'string') {
        this.next();
        return { kind: 'TLit', value: this.plainString(t), span: this.span(s) };
      }
      if (t.kind === 'int' || t.kind === 'float' || this.is('-')) {
        const value = this.numberLiteral();
        return { kind: 'TLit', value, span: this.span(s) };
      }
      if (this.is('true') || this.is('false') || this.is('null')) {
        this.next();
        return { kind: 'TLit', value: t.text === 'null' ? null : t.text === 'true', span: this.span(s) };
      }
      if (this.eat('[')) {
        const elem = this.type();
        this.expect(']');
        return { kind: 'TList', elem, span: this.span(s) };
      }
      if (this.eat('(')) {
        const elems: A.TypeExpr[] = [];
        while (!this.is(')')) {
          elems.push(this.type());
          if (!this.eat(',')) break;
        }
        this.expect(')');
        return elems.length === 1 && !this.toks[this.pos - 2]!.text.startsWith(',')
          ? elems[0]!
          : { kind: 'TTuple', elems, span: this.span(s) };
      }
      if (this.eat('{')) return this.recordType(s);
      this.fail('expected a type');
    } finally {
      this.leave();
    }
  }

  private recordType(s: number): A.TypeExpr {
    if (this.is('[') && this.peek().text === 'Str' && this.peek(2).text === ']') {
      this.pos += 3;
      this.expect(':');
      const value = this.type();
      this.eat(',');
      this.expect('}');
      return { kind: 'TMap', value, span: this.span(s) };
    }
    const fields: A.FieldDecl[] = [];
    let open = false;
    while (!this.is('}')) {
      if (this.eat('..')) {
        open = true;
        this.eat(',');
        break;
      }
      const ft = this.tok;
      const fs = ft.start;
      let name: string;
      if (ft.kind === 'ident' || ft.kind === 'keyword') name = this.next().text;
      else if (ft.kind === 'string') {
        this.next();
        name = this.plainString(ft);
      } else this.fail('expected a field name');
      const nameSpan = this.span(ft.start, ft.end);
      const optional = this.eat('?');
      this.expect(':');
      const type = this.type();
      const def = this.eat('=') ? this.expr() : undefined;
      fields.push({ name, nameSpan, optional, type, ...(def ? { default: def } : {}), span: this.span(fs) });
      if (!this.eat(',') && !this.tok.nlBefore) break;
    }
    this.expect('}');
    return { kind: 'TRecord', fields, open, span: this.span(s) };
  }

  private typeWithEntries(): A.TypeWithEntry[] {
    this.expect('{');
    const entries: A.TypeWithEntry[] = [];
    while (!this.is('}')) {
      const s = this.tok.start;
      if (this.eat('-')) {
        entries.push({ kind: 'remove', path: this.path(true), span: this.span(s) });
      } else {
        const path = this.path(true);
        if (this.eat('where')) entries.push({ kind: 'predicate', path, pred: this.expr(), span: this.span(s) });
        else {
          this.expect(':', '`:` or `where`');
          const type = this.type();
          const def = this.eat('=') ? this.expr() : undefined;
          entries.push({ kind: 'replace', path, type, ...(def ? { default: def } : {}), span: this.span(s) });
        }
      }
      if (!this.eat(',') && !this.tok.nlBefore) break;
    }
    this.expect('}');
    return entries;
  }

  /** A `with` path: `a.b[].c`, `[kind: "Service"].spec`, `"x/y".z`, `items[0]`. */
  private path(allowEach: boolean): A.PathSeg[] {
    const segs: A.PathSeg[] = [];
    let first = true;
    for (;;) {
      const t = this.tok;
      const s = t.start;
      if (this.is('[')) {
        this.next();
        if (this.eat(']')) {
          if (!allowEach) this.fail('`[]` is only allowed in type refinements');
          segs.push({ kind: 'each', span: this.span(s) });
        } else if ((this.tok.kind === 'ident' || this.tok.kind === 'string') && this.peek().text === ':') {
          const keys: { name: string; value: A.Expr; span: Span }[] = [];
          while (!this.is(']')) {
            const kt = this.next();
            const name = kt.kind === 'string' ? this.plainString(kt) : kt.text;
            this.expect(':');
            const value = this.expr();
            keys.push({ name, value, span: this.span(kt.start) });
            if (!this.eat(',')) break;
          }
          this.expect(']');
          segs.push({ kind: 'select', keys, span: this.span(s) });
        } else {
          const index = this.expr();
          this.expect(']');
          segs.push({ kind: 'index', index, span: this.span(s) });
        }
      } else if (first || this.eat('.')) {
        const nt = this.tok;
        if (nt.kind === 'ident' || nt.kind === 'keyword')
          segs.push({ kind: 'field', name: this.next().text, span: this.span(nt.start) });
        else if (nt.kind === 'string') {
          this.next();
          segs.push({ kind: 'field', name: this.plainString(nt), span: this.span(nt.start) });
        } else this.fail('expected a field name in the path');
      } else break;
      first = false;
    }
    return segs;
  }

  // ---- expressions ----
  expr(noStruct = false): A.Expr {
    this.enter();
    try {
      const t = this.tok;
      const s = t.start;
      if (this.eat('if')) {
        const cond = this.expr();
        this.expect('then');
        const then = this.expr(noStruct);
        this.expect('else', '`else` (an `if` expression needs both branches)');
        const els = this.expr(noStruct);
        return { kind: 'If', cond, then, else: els, span: this.span(s) };
      }
      if (this.eat('let')) {
        const name = this.ident().text;
        const type = this.eat(':') ? this.type() : undefined;
        this.expect('=');
        const value = this.expr();
        this.expect(';', '`;` after the `let` binding');
        const body = this.expr(noStruct);
        return { kind: 'Let', name, ...(type ? { type } : {}), value, body, span: this.span(s) };
      }
      return this.binary(0, noStruct);
    } finally {
      this.leave();
    }
  }

  private static readonly LEVELS: string[][] = [
    ['??'],
    ['||'],
    ['&&'],
    ['==', '!=', '<', '<=', '>', '>='],
    ['+', '-'],
    ['*', '/', '%'],
  ];

  private binary(level: number, noStruct: boolean): A.Expr {
    if (level === Parser.LEVELS.length) return this.unary(noStruct);
    const s = this.tok.start;
    let left = this.binary(level + 1, noStruct);
    const ops = Parser.LEVELS[level]!;
    while (this.tok.kind === 'punct' && ops.includes(this.tok.text)) {
      const op = this.next().text as A.BinaryOp;
      // `-` at the start of a new line in a `with` block is a removal, not subtraction.
      const right = op === '??' ? this.binary(level, noStruct) : this.binary(level + 1, noStruct);
      left = { kind: 'Binary', op, left, right, span: this.span(s) };
      if (level === 3 && this.tok.kind === 'punct' && ops.includes(this.tok.text))
        this.fail('comparisons do not chain; use `&&`');
    }
    return left;
  }

  private unary(noStruct: boolean): A.Expr {
    const s = this.tok.start;
    if (this.is('-') || this.is('!')) {
      const op = this.next().text as '-' | '!';
      if (op === '-' && (this.tok.kind === 'int' || this.tok.kind === 'float')) {
        this.pos--;
        const value = this.numberLiteral();
        return this.postfix({ kind: 'Lit', value, span: this.span(s) }, s, noStruct);
      }
      this.enter();
      try {
        const operand = this.unary(noStruct);
        return { kind: 'Unary', op, operand, span: this.span(s) };
      } finally {
        this.leave();
      }
    }
    return this.postfix(this.primary(noStruct), s, noStruct);
  }

  /** An int (bigint, range-checked) or float literal, with an optional leading `-`. */
  private numberLiteral(): bigint | number {
    const neg = this.eat('-');
    const t = this.tok;
    if (t.kind !== 'int' && t.kind !== 'float') this.fail('expected a number');
    this.next();
    if (t.kind === 'int') {
      const v = BigInt(t.text) * (neg ? -1n : 1n);
      if (v > INT64_MAX || v < -INT64_MAX - 1n) {
        this.diags.push({
          code: CleatCodes.OVERFLOW,
          message: `integer literal ${neg ? '-' : ''}${t.text} does not fit in 64 bits`,
          span: this.span(t.start, t.end),
        });
        return 0n;
      }
      return v;
    }
    const f = Number(t.text) * (neg ? -1 : 1);
    if (!Number.isFinite(f)) {
      this.diags.push({
        code: CleatCodes.NON_FINITE,
        message: `float literal ${t.text} is out of range`,
        span: this.span(t.start, t.end),
      });
      return 0;
    }
    return f;
  }

  private postfix(e: A.Expr, s: number, noStruct: boolean): A.Expr {
    for (;;) {
      const t = this.tok;
      if (this.is('.')) {
        this.next();
        const nt = this.tok;
        if (nt.kind === 'int') {
          this.next();
          e = { kind: 'TupleIndex', target: e, index: Number(nt.text), span: this.span(s) };
        } else if (nt.kind === 'ident' || nt.kind === 'keyword' || nt.kind === 'string') {
          this.next();
          const name = nt.kind === 'string' ? this.plainString(nt) : nt.text;
          e = { kind: 'Field', target: e, name, nameSpan: this.span(nt.start, nt.end), span: this.span(s) };
        } else this.fail('expected a field name after `.`');
      } else if (this.is('[') && !t.nlBefore) {
        this.next();
        const index = this.expr();
        this.expect(']');
        e = { kind: 'Index', target: e, index, span: this.span(s) };
      } else if (this.is('(') && !t.nlBefore) {
        this.next();
        const args: A.Arg[] = [];
        while (!this.is(')')) {
          const as = this.tok.start;
          let name: string | undefined;
          if (this.tok.kind === 'ident' && this.peek().text === ':') {
            name = this.next().text;
            this.next();
          }
          const value = this.expr();
          args.push({ ...(name !== undefined ? { name } : {}), value, span: this.span(as) });
          if (!this.eat(',')) break;
        }
        this.expect(')');
        e = { kind: 'Call', callee: e, args, span: this.span(s) };
      } else if (this.is('{') && !noStruct && !t.nlBefore && isTypeName(e)) {
        const bodyStart = this.tok.start;
        this.next();
        const body = this.objectBody(bodyStart);
        e = { kind: 'Construct', type: { kind: 'TName', path: namePath(e), span: e.span }, body, span: this.span(s) };
      } else if (this.is('with') && this.peek().text === '{') {
        this.next();
        e = { kind: 'Patch', target: e, entries: this.patchEntries(), span: this.span(s) };
      } else return e;
    }
  }

  private patchEntries(): A.PatchEntry[] {
    this.expect('{');
    const entries: A.PatchEntry[] = [];
    while (!this.is('}')) {
      const s = this.tok.start;
      if (this.eat('-')) entries.push({ kind: 'remove', path: this.path(false), span: this.span(s) });
      else {
        const path = this.path(false);
        if (this.eat('+:')) entries.push({ kind: 'merge', path, value: this.expr(), span: this.span(s) });
        else {
          this.expect(':', '`:` or `+:`');
          entries.push({ kind: 'set', path, value: this.expr(), span: this.span(s) });
        }
      }
      if (!this.eat(',') && !this.tok.nlBefore) break;
    }
    this.expect('}');
    return entries;
  }

  private primary(noStruct: boolean): A.Expr {
    const t = this.tok;
    const s = t.start;
    switch (t.kind) {
      case 'int':
      case 'float':
        return { kind: 'Lit', value: this.numberLiteral(), span: this.span(s) };
      case 'string':
        this.next();
        return this.stringExpr(t);
      case 'ident':
        this.next();
        return { kind: 'Var', name: t.text, span: this.span(s) };
      case 'keyword':
        if (t.text === 'null' || t.text === 'true' || t.text === 'false') {
          this.next();
          return { kind: 'Lit', value: t.text === 'null' ? null : t.text === 'true', span: this.span(s) };
        }
        if (t.text === 'self') {
          this.next();
          return { kind: 'Self', span: this.span(s) };
        }
        if (t.text === 'match') return this.matchExpr();
        if (t.text === 'if' || t.text === 'let') return this.expr(noStruct);
        break;
      case 'punct':
        if (t.text === '[') return this.listExpr();
        if (t.text === '{') {
          this.next();
          return this.objectBody(s);
        }
        if (t.text === '(') {
          this.next();
          const elems: A.Expr[] = [];
          let trailingComma = false;
          while (!this.is(')')) {
            elems.push(this.expr());
            trailingComma = this.eat(',');
            if (!trailingComma) break;
          }
          this.expect(')');
          if (elems.length === 1 && !trailingComma) return elems[0]!;
          return { kind: 'Tuple', elems, span: this.span(s) };
        }
        break;
      default:
        break;
    }
    this.fail('expected an expression');
  }

  private stringExpr(t: Token): A.Expr {
    const parts: (string | A.Expr)[] = [];
    for (const p of t.parts ?? []) {
      if (p.kind === 'text') parts.push(p.value);
      else {
        const sub = new Parser(this.file, scan(this.file, this.diags, p.start, p.end), this.diags);
        try {
          const e = sub.expr();
          sub.expectEof();
          parts.push(e);
        } catch (err) {
          if (!(err instanceof ParseAbort)) throw err;
        }
      }
    }
    if (parts.every((x) => typeof x === 'string'))
      return { kind: 'Lit', value: parts.join(''), span: this.span(t.start, t.end) };
    return { kind: 'Str', parts, span: this.span(t.start, t.end) };
  }

  private listExpr(): A.Expr {
    const s = this.expect('[').start;
    const items: A.ListItem[] = [];
    while (!this.is(']')) {
      items.push(this.listItem());
      if (!this.eat(',') && !this.tok.nlBefore) break;
    }
    this.expect(']');
    return { kind: 'List', items, span: this.span(s) };
  }

  private listItem(): A.ListItem {
    const s = this.tok.start;
    if (this.eat('...')) return { kind: 'spread', value: this.expr(), span: this.span(s) };
    if (this.eat('for')) {
      const { key, name, source } = this.forHead();
      return {
        kind: 'for',
        ...(key !== undefined ? { key } : {}),
        name,
        source,
        body: this.listItem(),
        span: this.span(s),
      };
    }
    if (this.eat('if')) {
      const cond = this.expr();
      this.expect('then');
      const then = this.listItem();
      const els = this.eat('else') ? this.listItem() : undefined;
      return { kind: 'if', cond, then, ...(els ? { else: els } : {}), span: this.span(s) };
    }
    return { kind: 'item', value: this.expr(), span: this.span(s) };
  }

  private forHead(): { key?: string; name: string; source: A.Expr } {
    const first = this.ident('a loop variable').text;
    let key: string | undefined;
    let name = first;
    if (this.eat(',')) {
      key = first;
      name = this.ident('a loop variable').text;
    }
    this.expect('in');
    const source = this.expr(true);
    this.expect('=>');
    return { ...(key !== undefined ? { key } : {}), name, source };
  }

  /** Object literal members after the opening `{`. */
  private objectBody(s: number): A.Expr {
    const members: A.Member[] = [];
    while (!this.is('}')) {
      members.push(this.member());
      if (!this.eat(',') && !this.tok.nlBefore) break;
    }
    this.expect('}');
    return { kind: 'Object', members, span: this.span(s) };
  }

  private member(): A.Member {
    const s = this.tok.start;
    if (this.eat('...')) return { kind: 'spread', value: this.expr(), span: this.span(s) };
    if (this.eat('if')) {
      const cond = this.expr();
      this.expect('then');
      const then = this.expr();
      const els = this.eat('else') ? this.expr() : undefined;
      return { kind: 'if', cond, then, ...(els ? { else: els } : {}), span: this.span(s) };
    }
    if (this.eat('for')) {
      const { key, name, source } = this.forHead();
      return {
        kind: 'for',
        ...(key !== undefined ? { key } : {}),
        name,
        source,
        body: this.expr(),
        span: this.span(s),
      };
    }
    const path: A.KeySeg[] = [];
    do {
      const t = this.tok;
      if (t.kind === 'ident' || t.kind === 'keyword') {
        this.next();
        path.push({ kind: 'name', name: t.text, span: this.span(t.start) });
      } else if (t.kind === 'string') {
        this.next();
        const e = this.stringExpr(t);
        if (e.kind === 'Lit' && typeof e.value === 'string') path.push({ kind: 'name', name: e.value, span: e.span });
        else path.push({ kind: 'computed', expr: e, span: e.span });
      } else if (this.eat('[')) {
        const expr = this.expr();
        this.expect(']');
        path.push({ kind: 'computed', expr, span: this.span(t.start) });
      } else this.fail('expected a field name, `...`, `if` or `for`');
    } while (this.eat('.'));
    this.expect(':');
    const value = this.expr();
    return { kind: 'field', path, value, span: this.span(s) };
  }

  private matchExpr(): A.Expr {
    const s = this.expect('match').start;
    const scrutinee = this.expr(true);
    this.expect('{');
    const arms: A.MatchArm[] = [];
    while (!this.is('}')) {
      const as = this.tok.start;
      const pattern = this.pattern();
      this.expect('=>');
      const body = this.expr();
      arms.push({ pattern, body, span: this.span(as) });
      if (!this.eat(',') && !this.tok.nlBefore) break;
    }
    this.expect('}');
    return { kind: 'Match', scrutinee, arms, span: this.span(s) };
  }

  private pattern(): A.Pattern {
    const t = this.tok;
    const s = t.start;
    if (t.kind === 'ident') {
      this.next();
      if (t.text === '_') return { kind: 'PWild', span: this.span(s) };
      const type = this.eat(':') ? this.type() : undefined;
      return { kind: 'PBind', name: t.text, ...(type ? { type } : {}), span: this.span(s) };
    }
    if (t.kind === 'string') {
      this.next();
      return { kind: 'PLit', value: this.plainString(t), span: this.span(s) };
    }
    if (t.kind === 'int' || t.kind === 'float' || this.is('-'))
      return { kind: 'PLit', value: this.numberLiteral(), span: this.span(s) };
    if (this.is('true') || this.is('false') || this.is('null')) {
      this.next();
      return { kind: 'PLit', value: t.text === 'null' ? null : t.text === 'true', span: this.span(s) };
    }
    if (this.eat('(')) {
      const elems: A.Pattern[] = [];
      while (!this.is(')')) {
        elems.push(this.pattern());
        if (!this.eat(',')) break;
      }
      this.expect(')');
      return { kind: 'PTuple', elems, span: this.span(s) };
    }
    if (this.eat('{')) {
      const fields: { name: string; pattern: A.Pattern; span: Span }[] = [];
      let open = false;
      while (!this.is('}')) {
        if (this.eat('..')) {
          open = true;
          this.eat(',');
          break;
        }
        const ft = this.tok;
        if (ft.kind !== 'ident' && ft.kind !== 'string' && ft.kind !== 'keyword') this.fail('expected a field name');
        this.next();
        const name = ft.kind === 'string' ? this.plainString(ft) : ft.text;
        this.expect(':');
        fields.push({ name, pattern: this.pattern(), span: this.span(ft.start) });
        if (!this.eat(',')) break;
      }
      this.expect('}');
      return { kind: 'PRecord', fields, open, span: this.span(s) };
    }
    this.fail('expected a pattern');
  }
}

function isTypeName(e: A.Expr): boolean {
  if (e.kind === 'Var') return true;
  return e.kind === 'Field' && isTypeName(e.target);
}

function namePath(e: A.Expr): string[] {
  if (e.kind === 'Var') return [e.name];
  if (e.kind === 'Field') return [...namePath(e.target), e.name];
  return [];
}
