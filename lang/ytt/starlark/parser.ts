/**
 * Parser of the Starlark subset ytt data-values files use: expressions with
 * comprehensions and lambdas; statements (assignment, def, return, if/elif/
 * else, for, load, break/continue/pass) and, in templates, YAML node
 * placeholders. Blocks end with `end` (ytt templates) or a dedent (`.star`).
 */
import { YttError, type Where } from '../errors.js';
import type { Token } from './lexer.js';

export type Expr =
  | { k: 'lit'; v: unknown; float?: boolean; where: Where }
  | { k: 'name'; name: string; where: Where }
  | { k: 'list'; items: Expr[]; where: Where }
  | { k: 'tuple'; items: Expr[]; where: Where }
  | { k: 'dict'; entries: [Expr, Expr][]; where: Where }
  | { k: 'comp'; kind: 'list' | 'dict'; elt: Expr; val?: Expr; clauses: Clause[]; where: Where }
  | { k: 'unary'; op: string; x: Expr; where: Where }
  | { k: 'bin'; op: string; l: Expr; r: Expr; where: Where }
  | { k: 'cond'; c: Expr; t: Expr; f: Expr; where: Where }
  | { k: 'call'; fn: Expr; args: Arg[]; where: Where }
  | { k: 'index'; x: Expr; i: Expr; where: Where }
  | { k: 'slice'; x: Expr; lo?: Expr; hi?: Expr; step?: Expr; where: Where }
  | { k: 'attr'; x: Expr; name: string; where: Where }
  | { k: 'lambda'; params: Param[]; body: Expr; where: Where };

export type Clause = { k: 'for'; target: Expr; iter: Expr } | { k: 'if'; cond: Expr };
export type Arg = { name?: string; star?: '*' | '**'; value: Expr };
export type Param = { name: string; def?: Expr; star?: '*' | '**' };

export type Stmt =
  | { k: 'expr'; x: Expr; where: Where }
  | { k: 'assign'; target: Expr; op: string; value: Expr; where: Where }
  | { k: 'def'; name: string; params: Param[]; body: Stmt[]; where: Where }
  | { k: 'return'; value?: Expr; where: Where }
  | { k: 'if'; cond: Expr; then: Stmt[]; else: Stmt[]; where: Where }
  | { k: 'for'; target: Expr; iter: Expr; body: Stmt[]; where: Where }
  | { k: 'load'; module: string; names: [string, string][]; where: Where }
  | { k: 'break' | 'continue' | 'pass'; where: Where }
  | { k: 'node'; id: number; where: Where };

export class Parser {
  private p = 0;
  constructor(
    private toks: Token[],
    private endBlocks: boolean,
  ) {}

  private get t(): Token {
    return this.peek(0);
  }
  /** the token `ahead` places on; past the end it is the closing eof the lexer always appends */
  private peek(ahead: number): Token {
    return this.toks[Math.min(this.p + ahead, this.toks.length - 1)]!;
  }
  private is(kind: string, text?: string): boolean {
    const t = this.t;
    if (kind === 'op' || kind === 'kw') return t.kind === kind && t.text === text;
    return t.kind === kind;
  }
  private eat(kind: string, text?: string): boolean {
    if (this.is(kind, text)) {
      this.p++;
      return true;
    }
    return false;
  }
  private expect(kind: string, text?: string): Token {
    if (!this.is(kind, text)) {
      const got = this.t.kind === 'eof' ? 'end of code' : this.t.kind === 'newline' ? 'newline' : `'${this.t.text}'`;
      throw new YttError(this.t.where, `syntax error: expected ${text ? `'${text}'` : kind}, got ${got}`);
    }
    const t = this.t;
    this.p++;
    return t;
  }

  parseFile(): Stmt[] {
    const out: Stmt[] = [];
    while (!this.is('eof')) {
      if (this.eat('newline')) continue;
      if (this.is('kw', 'end') || this.is('kw', 'else') || this.is('kw', 'elif') || this.is('dedent'))
        throw new YttError(this.t.where, `syntax error: unexpected '${this.t.text || this.t.kind}'`);
      out.push(...this.stmt());
    }
    return out;
  }

  /** A block after ':' — either a simple statement on the same line or the lines up to end/dedent. */
  private block(): Stmt[] {
    this.expect('op', ':');
    if (!this.is('newline')) return this.simpleLine();
    this.expect('newline');
    const body: Stmt[] = [];
    if (this.endBlocks) {
      while (!this.is('kw', 'end') && !this.is('kw', 'else') && !this.is('kw', 'elif')) {
        if (this.is('eof')) throw new YttError(this.t.where, "syntax error: missing 'end' to close a block");
        if (this.eat('newline')) continue;
        body.push(...this.stmt());
      }
      return body;
    }
    this.expect('indent');
    while (!this.eat('dedent')) {
      if (this.is('eof')) break;
      if (this.eat('newline')) continue;
      body.push(...this.stmt());
    }
    return body;
  }
  private closeBlock(): void {
    if (this.endBlocks) {
      this.expect('kw', 'end');
      this.eat('newline');
    }
  }

  private stmt(): Stmt[] {
    const t = this.t;
    if (t.kind === 'node') {
      this.p++;
      this.eat('newline');
      return [{ k: 'node', id: t.value as number, where: t.where }];
    }
    if (this.is('kw', 'def')) {
      this.p++;
      const name = this.expect('ident').text;
      this.expect('op', '(');
      const params = this.params(')');
      this.expect('op', ')');
      const body = this.block();
      this.closeBlock();
      return [{ k: 'def', name, params, body, where: t.where }];
    }
    if (this.is('kw', 'if')) return [this.ifStmt()];
    if (this.is('kw', 'for')) {
      this.p++;
      const target = this.targetList();
      this.expect('kw', 'in');
      const iter = this.exprList();
      const body = this.block();
      this.closeBlock();
      return [{ k: 'for', target, iter, body, where: t.where }];
    }
    return this.simpleLine();
  }

  private ifStmt(): Stmt {
    const t = this.t;
    this.p++; // if / elif
    const cond = this.expr();
    const then = this.block();
    let els: Stmt[] = [];
    if (this.is('kw', 'elif')) {
      els = [this.ifStmt()];
      return { k: 'if', cond, then, else: els, where: t.where };
    }
    if (this.eat('kw', 'else')) els = this.block();
    this.closeBlock();
    return { k: 'if', cond, then, else: els, where: t.where };
  }

  private simpleLine(): Stmt[] {
    const out = [this.simple()];
    while (this.eat('op', ';')) if (!this.is('newline')) out.push(this.simple());
    if (!this.is('eof') && !this.is('kw', 'end') && !this.is('dedent')) this.expect('newline');
    return out;
  }

  private simple(): Stmt {
    const t = this.t;
    if (this.eat('kw', 'return')) {
      if (this.is('newline') || this.is('eof') || this.is('op', ';')) return { k: 'return', where: t.where };
      return { k: 'return', value: this.exprList(), where: t.where };
    }
    if (this.eat('kw', 'pass')) return { k: 'pass', where: t.where };
    if (this.eat('kw', 'break')) return { k: 'break', where: t.where };
    if (this.eat('kw', 'continue')) return { k: 'continue', where: t.where };
    if (this.eat('kw', 'load')) {
      this.expect('op', '(');
      const module = this.expect('string').value as string;
      const names: [string, string][] = [];
      while (this.eat('op', ',')) {
        if (this.is('op', ')')) break;
        if (this.is('ident') && this.peek(1).text === '=') {
          const local = this.expect('ident').text;
          this.expect('op', '=');
          names.push([local, this.expect('string').value as string]);
        } else {
          const n = this.expect('string').value as string;
          names.push([n, n]);
        }
      }
      this.expect('op', ')');
      return { k: 'load', module, names, where: t.where };
    }
    const x = this.exprList();
    const op = this.t;
    if (op.kind === 'op' && ['=', '+=', '-=', '*=', '/=', '//=', '%=', '|=', '&='].includes(op.text)) {
      this.p++;
      const value = this.exprList();
      return { k: 'assign', target: x, op: op.text, value, where: op.where };
    }
    return { k: 'expr', x, where: t.where };
  }

  private params(close: string): Param[] {
    const ps: Param[] = [];
    while (!this.is('op', close)) {
      if (this.eat('op', '**')) ps.push({ name: this.expect('ident').text, star: '**' });
      else if (this.eat('op', '*')) ps.push({ name: this.expect('ident').text, star: '*' });
      else {
        const name = this.expect('ident').text;
        ps.push(this.eat('op', '=') ? { name, def: this.test() } : { name });
      }
      if (!this.eat('op', ',')) break;
    }
    return ps;
  }

  private targetList(): Expr {
    const w = this.t.where;
    const first = this.bitor();
    if (!this.is('op', ',')) return first;
    const items = [first];
    while (this.eat('op', ',')) {
      if (this.is('kw', 'in') || this.is('op', '=')) break;
      items.push(this.bitor());
    }
    return { k: 'tuple', items, where: w };
  }

  /** expr, expr, ... → tuple */
  exprList(): Expr {
    const w = this.t.where;
    const first = this.expr();
    if (!this.is('op', ',')) return first;
    const items = [first];
    while (this.eat('op', ',')) {
      if (this.is('newline') || this.is('op', '=') || this.is('op', ')') || this.is('eof') || this.is('op', ':')) break;
      items.push(this.expr());
    }
    return { k: 'tuple', items, where: w };
  }

  expr(): Expr {
    return this.test();
  }

  private test(): Expr {
    const w = this.t.where;
    if (this.eat('kw', 'lambda')) {
      const params = this.params(':');
      this.expect('op', ':');
      return { k: 'lambda', params, body: this.test(), where: w };
    }
    const x = this.or();
    if (this.is('kw', 'if')) {
      // a conditional expression — but not the `if` of a comprehension clause
      const save = this.p;
      this.p++;
      const c = this.or();
      if (this.eat('kw', 'else')) return { k: 'cond', c, t: x, f: this.test(), where: w };
      this.p = save;
    }
    return x;
  }
  private or(): Expr {
    let l = this.and();
    while (this.is('kw', 'or')) {
      const w = this.t.where;
      this.p++;
      l = { k: 'bin', op: 'or', l, r: this.and(), where: w };
    }
    return l;
  }
  private and(): Expr {
    let l = this.not();
    while (this.is('kw', 'and')) {
      const w = this.t.where;
      this.p++;
      l = { k: 'bin', op: 'and', l, r: this.not(), where: w };
    }
    return l;
  }
  private not(): Expr {
    const w = this.t.where;
    if (this.eat('kw', 'not')) return { k: 'unary', op: 'not', x: this.not(), where: w };
    return this.cmp();
  }
  private cmp(): Expr {
    let l = this.bitor();
    for (;;) {
      const t = this.t;
      let op: string | undefined;
      if (t.kind === 'op' && ['==', '!=', '<', '>', '<=', '>='].includes(t.text)) op = t.text;
      else if (this.is('kw', 'in')) op = 'in';
      else if (this.is('kw', 'not') && this.peek(1).text === 'in') op = 'not in';
      if (!op) return l;
      this.p += op === 'not in' ? 2 : 1;
      l = { k: 'bin', op, l, r: this.bitor(), where: t.where };
    }
  }
  private binLevel(ops: string[], next: () => Expr): Expr {
    let l = next();
    while (this.t.kind === 'op' && ops.includes(this.t.text)) {
      const t = this.t;
      this.p++;
      l = { k: 'bin', op: t.text, l, r: next(), where: t.where };
    }
    return l;
  }
  private bitor(): Expr {
    return this.binLevel(['|'], () => this.binLevel(['^'], () => this.binLevel(['&'], () => this.shift())));
  }
  private shift(): Expr {
    return this.binLevel(['<<', '>>'], () =>
      this.binLevel(['+', '-'], () => this.binLevel(['*', '/', '//', '%'], () => this.unary())),
    );
  }
  private unary(): Expr {
    const t = this.t;
    if (t.kind === 'op' && (t.text === '-' || t.text === '+' || t.text === '~')) {
      this.p++;
      return { k: 'unary', op: t.text, x: this.unary(), where: t.where };
    }
    return this.postfix();
  }
  private postfix(): Expr {
    let x = this.primary();
    for (;;) {
      const t = this.t;
      if (this.eat('op', '.')) {
        x = { k: 'attr', x, name: this.expect('ident').text, where: t.where };
      } else if (this.eat('op', '(')) {
        const args: Arg[] = [];
        while (!this.is('op', ')')) {
          if (this.eat('op', '**')) args.push({ star: '**', value: this.test() });
          else if (this.eat('op', '*')) args.push({ star: '*', value: this.test() });
          else if (this.is('ident') && this.peek(1).text === '=') {
            const name = this.expect('ident').text;
            this.p++;
            args.push({ name, value: this.test() });
          } else args.push({ value: this.test() });
          if (!this.eat('op', ',')) break;
        }
        this.expect('op', ')');
        x = { k: 'call', fn: x, args, where: t.where };
      } else if (this.eat('op', '[')) {
        let lo: Expr | undefined;
        if (!this.is('op', ':')) lo = this.exprList();
        if (this.eat('op', ':')) {
          let hi: Expr | undefined;
          let step: Expr | undefined;
          if (!this.is('op', ']') && !this.is('op', ':')) hi = this.test();
          if (this.eat('op', ':') && !this.is('op', ']')) step = this.test();
          this.expect('op', ']');
          x = { k: 'slice', x, lo, hi, step, where: t.where };
        } else {
          this.expect('op', ']');
          x = { k: 'index', x, i: lo!, where: t.where };
        }
      } else return x;
    }
  }
  private primary(): Expr {
    const t = this.t;
    const w = t.where;
    switch (t.kind) {
      case 'ident':
        this.p++;
        return { k: 'name', name: t.text, where: w };
      case 'int':
        this.p++;
        return { k: 'lit', v: t.value, where: w };
      case 'float':
        this.p++;
        return { k: 'lit', v: t.value, float: true, where: w };
      case 'string': {
        this.p++;
        let v = t.value as string;
        // implicit concatenation
        for (; this.is('string'); this.p++) v += this.t.value as string;
        return { k: 'lit', v, where: w };
      }
      case 'kw':
        if (t.text === 'None' || t.text === 'True' || t.text === 'False') {
          this.p++;
          return { k: 'lit', v: t.text === 'None' ? null : t.text === 'True', where: w };
        }
        break;
      case 'op':
        if (t.text === '(') {
          this.p++;
          if (this.eat('op', ')')) return { k: 'tuple', items: [], where: w };
          const first = this.test();
          if (this.eat('op', ')')) return first;
          const items = [first];
          while (this.eat('op', ',')) {
            if (this.is('op', ')')) break;
            items.push(this.test());
          }
          this.expect('op', ')');
          return { k: 'tuple', items, where: w };
        }
        if (t.text === '[') {
          this.p++;
          if (this.eat('op', ']')) return { k: 'list', items: [], where: w };
          const first = this.test();
          if (this.is('kw', 'for')) {
            const clauses = this.clauses();
            this.expect('op', ']');
            return { k: 'comp', kind: 'list', elt: first, clauses, where: w };
          }
          const items = [first];
          while (this.eat('op', ',')) {
            if (this.is('op', ']')) break;
            items.push(this.test());
          }
          this.expect('op', ']');
          return { k: 'list', items, where: w };
        }
        if (t.text === '{') {
          this.p++;
          if (this.eat('op', '}')) return { k: 'dict', entries: [], where: w };
          const k0 = this.test();
          this.expect('op', ':');
          const v0 = this.test();
          if (this.is('kw', 'for')) {
            const clauses = this.clauses();
            this.expect('op', '}');
            return { k: 'comp', kind: 'dict', elt: k0, val: v0, clauses, where: w };
          }
          const entries: [Expr, Expr][] = [[k0, v0]];
          while (this.eat('op', ',')) {
            if (this.is('op', '}')) break;
            const k = this.test();
            this.expect('op', ':');
            entries.push([k, this.test()]);
          }
          this.expect('op', '}');
          return { k: 'dict', entries, where: w };
        }
    }
    const got = t.kind === 'eof' ? 'end of code' : t.kind === 'newline' ? 'newline' : `'${t.text}'`;
    throw new YttError(w, `syntax error: unexpected ${got}`);
  }
  private clauses(): Clause[] {
    const out: Clause[] = [];
    for (;;) {
      if (this.eat('kw', 'for')) {
        const target = this.targetList();
        this.expect('kw', 'in');
        out.push({ k: 'for', target, iter: this.or() });
      } else if (this.eat('kw', 'if')) out.push({ k: 'if', cond: this.or() });
      else return out;
    }
  }
}
