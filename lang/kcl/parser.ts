/**
 * Recursive-descent parser of the KCL subset (docs/kcl.md). Statements use the
 * lexer's INDENT/DEDENT; inside brackets, `if` blocks of configs and lists and
 * the statements of lambda bodies are delimited by line breaks (NL) and columns.
 */
import type {
  CheckItem,
  CompClause,
  ConfigEntry,
  ConfigOp,
  Expr,
  ListItem,
  Loc,
  Module,
  Param,
  SchemaAssign,
  SchemaAttr,
  SchemaDef,
  SchemaGuard,
  Stmt,
  StringPart,
  TypeExpr,
} from './ast.js';
import { KclError } from './errors.js';
import { tokenPool, tokenize, trimTokenPool, type Token } from './lexer.js';

const KEYWORDS = new Set([
  'import',
  'as',
  'schema',
  'if',
  'elif',
  'else',
  'for',
  'in',
  'not',
  'and',
  'or',
  'is',
  'lambda',
  'assert',
  'check',
  'True',
  'False',
  'None',
  'Undefined',
  'mixin',
  'protocol',
  'rule',
  'type',
]);

const AUG_OPS = new Set(['+=', '-=', '*=', '/=', '//=', '%=', '**=', '|=', '&=', '^=', '<<=', '>>=']);

/** How many parses are under way (an interpolation's parse runs inside its file's): which token pool is free. */
let level = 0;

/** Runs fn with the next level's token pool holding `text`'s tokens. */
function withTokens<T>(file: string, text: string, fn: (toks: Token[], count: number) => T): T {
  const toks = tokenPool(level);
  level++;
  try {
    return fn(toks, tokenize(file, text, toks));
  } finally {
    level--;
    trimTokenPool(toks);
  }
}

export function parseModule(file: string, text: string): Module {
  const body = withTokens(file, text, (toks, count) => new Parser(file, text, toks, count).parseFile());
  return { file, text, body };
}

/** One expression on its own (`-D name=value` values, interpolations). */
export function parseExpression(file: string, text: string): Expr {
  return withTokens(file, text, (toks, count) => new Parser(file, text, toks, count).parseStandaloneExpr());
}

interface SchemaParts {
  attrs: SchemaAttr[];
  body: SchemaAssign[];
  indexSignature?: SchemaDef['indexSignature'];
  checks: CheckItem[];
}

class Parser {
  private pos = 0;
  private lines: string[] | undefined;

  constructor(
    private readonly file: string,
    private readonly text: string,
    /** The file's tokens: a pool whose entries past `count` are stale. */
    private readonly toks: readonly Token[],
    private readonly count: number,
    /** Offsets of an interpolation's text within its file, so positions point into the file. */
    private readonly base?: { line: number; col: number },
  ) {}

  // ---- token helpers ----
  private peek(o = 0): Token {
    return this.toks[Math.min(this.pos + o, this.count - 1)]!;
  }
  private next(): Token {
    return this.toks[Math.min(this.pos++, this.count - 1)]!;
  }
  private isOp(v: string, o = 0): boolean {
    const t = this.peek(o);
    return t.kind === 'op' && t.value === v;
  }
  private isName(v: string, o = 0): boolean {
    const t = this.peek(o);
    return t.kind === 'name' && t.value === v;
  }
  // Nodes take line and col as fields of their own literal (not `...loc`): no temporary object and
  // no out-of-object property array per node.
  private lineOf(t: Token): number {
    return this.base ? this.base.line + t.line - 1 : t.line;
  }
  private colOf(t: Token): number {
    return this.base && t.line === 1 ? this.base.col + t.col - 1 : t.col;
  }
  private loc(t: Token = this.peek()): Loc {
    if (this.base) return { line: this.base.line + t.line - 1, col: t.line === 1 ? this.base.col + t.col - 1 : t.col };
    return { line: t.line, col: t.col };
  }
  private fail(msg: string, t: Token = this.peek()): never {
    const l = this.loc(t);
    this.lines ??= this.text.split('\n');
    throw new KclError('InvalidSyntax', msg, { file: this.file, line: l.line, col: l.col }, this.lines[t.line - 1]);
  }
  private describe(t: Token): string {
    if (t.kind === 'eof') return 'end of file';
    if (t.kind === 'newline' || t.kind === 'nl') return 'newline';
    if (t.kind === 'indent') return 'indent';
    if (t.kind === 'dedent') return 'dedent';
    if (t.kind === 'string') return 'string';
    return `'${t.value}'`;
  }
  private expectOp(v: string): Token {
    if (!this.isOp(v)) this.failExpected([v]);
    return this.next();
  }
  /** kcl's report of a missing token: `expected one of [")"] got ,`. */
  private failExpected(what: readonly string[]): never {
    const t = this.peek();
    const got = t.kind === 'op' || t.kind === 'name' ? t.value : this.describe(t);
    return this.fail(`expected one of ${JSON.stringify(what).replace(/,/g, ', ')} got ${got}`);
  }
  private expectName(what = 'identifier'): string {
    const t = this.peek();
    if (t.kind !== 'name' || KEYWORDS.has(t.value)) this.fail(`expected ${what}, got ${this.describe(t)}`);
    this.pos++;
    return t.value;
  }
  private skipNL(): void {
    while (this.peek().kind === 'nl') this.pos++;
  }

  // ---- statements ----
  parseFile(): Stmt[] {
    const body: Stmt[] = [];
    while (this.peek().kind !== 'eof') {
      if (this.peek().kind === 'newline') {
        this.pos++;
        continue;
      }
      if (this.peek().kind === 'indent') this.fail('unexpected indent');
      body.push(this.parseStatement());
    }
    return exact(body);
  }

  parseStandaloneExpr(): Expr {
    while (this.peek().kind === 'newline') this.pos++;
    const e = this.parseExpr();
    while (this.peek().kind === 'newline' || this.peek().kind === 'dedent') this.pos++;
    if (this.peek().kind !== 'eof') this.fail(`unexpected ${this.describe(this.peek())}`);
    return e;
  }

  private endSimple(): void {
    if (this.isOp(';')) this.pos++;
    const t = this.peek();
    if (t.kind === 'newline') this.pos++;
    else if (t.kind !== 'eof' && t.kind !== 'dedent') this.fail(`expected newline, got ${this.describe(t)}`);
  }

  private parseBlock(): Stmt[] {
    if (this.peek().kind !== 'newline') {
      // `if x: a = 1` on one line
      return [this.parseStatement()];
    }
    this.pos++;
    if (this.peek().kind !== 'indent') this.fail('expected an indented block');
    this.pos++;
    const body: Stmt[] = [];
    while (this.peek().kind !== 'dedent' && this.peek().kind !== 'eof') {
      if (this.peek().kind === 'newline') {
        this.pos++;
        continue;
      }
      body.push(this.parseStatement());
    }
    if (this.peek().kind === 'dedent') this.pos++;
    return exact(body);
  }

  private parseStatement(): Stmt {
    const t = this.peek();
    const loc = this.loc(t);
    if (t.kind === 'op' && t.value === '@') this.fail('decorators are outside the supported KCL subset');
    if (t.kind === 'name') {
      switch (t.value) {
        case 'import': {
          this.pos++;
          let path = '';
          while (this.isOp('.') || this.isOp('...')) path += this.next().value;
          const segment = (): string => {
            const n = this.peek();
            if (n.kind !== 'name') this.failExpected(['identifier']);
            this.pos++;
            return n.value;
          };
          path += segment();
          while (this.isOp('.')) {
            this.pos++;
            path += '.' + segment();
          }
          let asName = path
            .split('.')
            .filter((x) => x !== '')
            .pop()!;
          if (this.isName('as')) {
            this.pos++;
            asName = this.expectName();
          }
          this.endSimple();
          return { s: 'import', path, asName, line: loc.line, col: loc.col };
        }
        case 'schema':
          return { s: 'schema', def: this.parseSchema(), line: loc.line, col: loc.col };
        case 'if':
          return this.parseIfStmt();
        case 'assert': {
          this.pos++;
          const test = this.parseOrTest();
          let guard: Expr | undefined;
          if (this.isName('if')) {
            this.pos++;
            guard = this.parseOrTest();
          }
          let message: Expr | undefined;
          if (this.isOp(',')) {
            this.pos++;
            message = this.parseExpr();
          }
          this.endSimple();
          return assertStmt(test, guard, message, loc);
        }
        case 'type':
          if (this.peek(1).kind === 'name' && this.isOp('=', 2)) {
            this.pos++;
            const name = this.expectName();
            this.expectOp('=');
            const type = this.parseType();
            this.endSimple();
            return { s: 'type', name, type, line: loc.line, col: loc.col };
          }
          break;
        case 'rule':
        case 'protocol':
        case 'mixin':
          if (this.peek(1).kind === 'name') this.fail(`'${t.value}' is outside the supported KCL subset`);
          break;
      }
      // name [: type] = value | name: Schema {config} | name op= value
      if (!KEYWORDS.has(t.value) && this.isOp(':', 1)) {
        this.pos += 2;
        const save = this.pos;
        const type = this.parseType();
        if (this.isOp('=')) {
          this.pos++;
          const value = this.parseExpr();
          this.endSimple();
          return { s: 'assign', target: t.value, type, value, line: loc.line, col: loc.col };
        }
        // unification: rewind and parse the schema expression
        this.pos = save;
        const value = this.parseExpr();
        if (value.k !== 'schema') this.fail(`expected '=' or a schema expression after '${t.value}:'`);
        this.endSimple();
        return { s: 'unify', target: t.value, value, line: loc.line, col: loc.col };
      }
      if (this.atAssignment()) {
        const st = this.parseAssignment(loc);
        this.endSimple();
        return st;
      }
    }
    const expr = this.parseExpr();
    if (this.isOp('=')) this.fail('only a name may be assigned at this level (dotted targets are outside the subset)');
    this.endSimple();
    return { s: 'expr', expr, line: loc.line, col: loc.col };
  }

  private parseIfStmt(): Stmt {
    const loc = this.loc();
    const branches: { test?: Expr; body: Stmt[] }[] = [];
    this.pos++;
    const test = this.parseExpr();
    this.expectOp(':');
    branches.push({ test, body: this.parseBlock() });
    for (;;) {
      if (this.isName('elif')) {
        this.pos++;
        const t = this.parseExpr();
        this.expectOp(':');
        branches.push({ test: t, body: this.parseBlock() });
      } else if (this.isName('else')) {
        this.pos++;
        this.expectOp(':');
        branches.push({ body: this.parseBlock() });
        break;
      } else break;
    }
    return { s: 'if', branches, line: loc.line, col: loc.col };
  }

  private parseSchema(): SchemaDef {
    const loc = this.loc();
    this.pos++;
    const name = this.expectName('schema name');
    let base: Expr | undefined;
    if (this.isOp('[')) this.fail('schema arguments are outside the supported KCL subset');
    if (this.isOp('(')) {
      this.pos++;
      base = this.parseDottedName();
      this.expectOp(')');
    }
    this.expectOp(':');
    const out: SchemaParts = { attrs: [], body: [], checks: [] };
    if (this.peek().kind !== 'newline') this.fail('expected a newline and an indented schema body');
    this.pos++;
    if (this.peek().kind === 'indent') {
      this.pos++;
      this.parseSchemaBlock(name, out, []);
    }
    return {
      name,
      ...(base ? { base } : {}),
      attrs: exact(out.attrs),
      body: exact(out.body),
      ...(out.indexSignature ? { indexSignature: out.indexSignature } : {}),
      checks: exact(out.checks),
      loc,
    };
  }

  /** The statements of a schema body up to its DEDENT (the INDENT is consumed). */
  private parseSchemaBlock(name: string, out: SchemaParts, guards: SchemaGuard[]): void {
    while (this.peek().kind !== 'dedent' && this.peek().kind !== 'eof') {
      if (this.peek().kind === 'newline') {
        this.pos++;
        continue;
      }
      this.parseSchemaStatement(name, out, guards);
    }
    if (this.peek().kind === 'dedent') this.pos++;
  }

  private parseSchemaStatement(name: string, out: SchemaParts, guards: SchemaGuard[]): void {
    const t = this.peek();
    const aloc = this.loc(t);
    if (t.kind === 'string' && (this.peek(1).kind === 'newline' || this.peek(1).kind === 'dedent')) {
      this.pos++; // docstring
      this.endSimple();
      return;
    }
    if (t.kind === 'op' && t.value === '@') this.fail('decorators are outside the supported KCL subset');
    if (t.kind === 'name' && t.value === 'mixin') this.fail('mixins are outside the supported KCL subset');
    if (t.kind === 'name' && t.value === 'check' && this.isOp(':', 1)) {
      if (guards.length > 0) this.fail('a check block cannot be inside an if block');
      this.pos += 2;
      out.checks.push(...this.parseChecks());
      return;
    }
    if (t.kind === 'name' && t.value === 'if') {
      const prior: Expr[] = [];
      let first = true;
      for (;;) {
        const kw = this.peek();
        if (kw.kind !== 'name' || (first ? kw.value !== 'if' : kw.value !== 'elif' && kw.value !== 'else')) break;
        this.pos++;
        const test = kw.value === 'else' ? undefined : this.parseExpr();
        this.expectOp(':');
        if (this.peek().kind !== 'newline') this.fail('expected a newline and an indented block');
        this.pos++;
        if (this.peek().kind !== 'indent') this.fail('expected an indented block');
        this.pos++;
        this.parseSchemaBlock(name, out, [...guards, { prior: [...prior], ...(test ? { test } : {}) }]);
        if (!test) break;
        prior.push(test);
        first = false;
      }
      return;
    }
    if (t.kind === 'op' && t.value === '[') {
      if (guards.length > 0) this.fail('an index signature cannot be inside an if block');
      // index signature: [...str]: T, [name: str]: T, [str]: T
      this.pos++;
      let keyName: string | undefined;
      let anyKeys = false;
      if (this.isOp('...')) {
        this.pos++;
        anyKeys = true;
      } else if (this.peek().kind === 'name' && this.isOp(':', 1)) {
        keyName = this.expectName();
        this.pos++;
      }
      const key = this.parseType();
      this.expectOp(']');
      this.expectOp(':');
      const value = this.parseType();
      if (this.isOp('=')) this.fail('index signature defaults are outside the supported KCL subset');
      this.endSimple();
      out.indexSignature = { ...(keyName ? { keyName } : {}), key, value, any: anyKeys };
      return;
    }
    if (t.kind === 'name' && !KEYWORDS.has(t.value)) {
      // a.b.c = v, a += v, a = v
      let k = 1;
      const path: string[] = [];
      while (this.isOp('.', k) && this.peek(k + 1).kind === 'name') {
        path.push(this.peek(k + 1).value);
        k += 2;
      }
      const opTok = this.peek(k);
      if (opTok.kind === 'op' && (opTok.value === '=' || opTok.value === '+=')) {
        this.pos += k + 1;
        const value = this.parseExpr();
        this.endSimple();
        out.body.push({
          name: t.value,
          path,
          op: opTok.value === '=' ? 'override' : 'insert',
          value,
          guards,
          loc: aloc,
        });
        return;
      }
      const optional = path.length === 0 && this.isOp('?', 1);
      if (path.length === 0 && this.isOp(':', optional ? 2 : 1)) {
        if (guards.length > 0) this.fail('an attribute cannot be declared inside an if block');
        this.pos += optional ? 3 : 2;
        const save = this.pos;
        const type = this.parseType();
        let def: Expr | undefined;
        if (this.isOp('=')) {
          this.pos++;
          def = this.parseExpr();
        } else if (this.isOp('{') && type.t === 'named') {
          // `attr: Schema {config}`: typed Schema, its default that instance
          this.pos = save;
          def = this.parseExpr();
        }
        this.endSimple();
        out.attrs.push({ name: t.value, optional, type, loc: aloc });
        if (def) out.body.push({ name: t.value, path: [], op: 'override', value: def, guards, loc: aloc });
        return;
      }
    }
    this.fail(`unexpected ${this.describe(t)} in the body of schema ${name}`);
  }

  private parseChecks(): CheckItem[] {
    const items: CheckItem[] = [];
    if (this.peek().kind !== 'newline') this.fail('expected a newline after check:');
    this.pos++;
    if (this.peek().kind !== 'indent') this.fail('expected an indented check block');
    this.pos++;
    while (this.peek().kind !== 'dedent' && this.peek().kind !== 'eof') {
      if (this.peek().kind === 'newline') {
        this.pos++;
        continue;
      }
      const loc = this.loc();
      const test = this.parseOrTest();
      let guard: Expr | undefined;
      if (this.isName('if')) {
        this.pos++;
        guard = this.parseOrTest();
      }
      let message: Expr | undefined;
      if (this.isOp(',')) {
        this.pos++;
        message = this.parseExpr();
      }
      // kcl reports a failed check at the line the item ends on (its message)
      const last = this.toks[this.pos - 1]!;
      this.endSimple();
      items.push({
        test,
        ...(guard ? { guard } : {}),
        ...(message ? { message } : {}),
        loc: { line: this.loc(last).line, col: loc.col },
      });
    }
    if (this.peek().kind === 'dedent') this.pos++;
    return items;
  }

  private parseDottedName(): Expr {
    const t = this.peek();
    let e: Expr = { k: 'name', name: this.expectName(), line: this.lineOf(t), col: this.colOf(t) };
    while (this.isOp('.')) {
      this.pos++;
      const a = this.peek();
      e = { k: 'select', value: e, attr: this.expectName(), optional: false, line: this.lineOf(a), col: this.colOf(a) };
    }
    return e;
  }

  // ---- types ----
  parseType(): TypeExpr {
    const first = this.parseTypeAtom();
    if (!this.isOp('|')) return first;
    const types = [first];
    while (this.isOp('|')) {
      this.pos++;
      types.push(this.parseTypeAtom());
    }
    return { t: 'union', types };
  }

  private parseTypeAtom(): TypeExpr {
    const t = this.peek();
    if (t.kind === 'op' && t.value === '[') {
      this.pos++;
      const item = this.isOp(']') ? ({ t: 'any' } as TypeExpr) : this.parseType();
      this.expectOp(']');
      return { t: 'list', item };
    }
    if (t.kind === 'op' && t.value === '{') {
      this.pos++;
      if (this.isOp('}')) {
        this.pos++;
        return { t: 'dict', key: { t: 'any' }, value: { t: 'any' } };
      }
      const key = this.parseType();
      this.expectOp(':');
      const value = this.isOp('}') ? ({ t: 'any' } as TypeExpr) : this.parseType();
      this.expectOp('}');
      return { t: 'dict', key, value };
    }
    if (t.kind === 'op' && t.value === '(') {
      // `(T)`, or a function type `(A, B) -> R`
      this.pos++;
      const params: TypeExpr[] = [];
      while (!this.isOp(')')) {
        params.push(this.parseType());
        if (!this.isOp(',')) break;
        this.pos++;
      }
      this.expectOp(')');
      if (this.isOp('->')) {
        this.pos++;
        this.parseType();
        return { t: 'func' };
      }
      if (params.length !== 1) return { t: 'func' };
      return params[0]!;
    }
    if (t.kind === 'string') {
      this.pos++;
      return { t: 'literal', value: decodeEscapes(t.value, t.raw) };
    }
    if (t.kind === 'int' || t.kind === 'float') {
      this.pos++;
      return { t: 'literal', value: Number(t.value) };
    }
    if (t.kind === 'name') {
      if (t.value === 'True' || t.value === 'False') {
        this.pos++;
        return { t: 'literal', value: t.value === 'True' };
      }
      if (t.value === 'any') {
        this.pos++;
        return { t: 'any' };
      }
      if (t.value === 'int' || t.value === 'float' || t.value === 'str' || t.value === 'bool' || t.value === 'None') {
        this.pos++;
        return { t: 'basic', name: t.value };
      }
      const loc = this.loc(t);
      const path = [this.expectName('type')];
      while (this.isOp('.')) {
        this.pos++;
        path.push(this.expectName('type'));
      }
      return { t: 'named', path, loc };
    }
    this.fail(`expected a type, got ${this.describe(t)}`);
  }

  // ---- expressions ----
  parseExpr(): Expr {
    const t = this.peek();
    const e = this.parseOrTest();
    if (this.isName('if') && this.peek().line === t.line) {
      // `a if c else b`; the else is optional only in checks (parsed there)
      const save = this.pos;
      this.pos++;
      const test = this.parseOrTest();
      if (this.isName('else')) {
        this.pos++;
        const other = this.parseExpr();
        return { k: 'ifexpr', test, then: e, else: other, line: this.lineOf(t), col: this.colOf(t) };
      }
      this.pos = save;
    }
    return e;
  }

  private parseLambda(): Expr {
    const loc = this.loc();
    this.pos++;
    const params: Param[] = [];
    while (!this.isOp('{') && !this.isOp('->')) {
      const name = this.expectName('parameter name');
      let type: TypeExpr | undefined;
      let def: Expr | undefined;
      if (this.isOp(':')) {
        this.pos++;
        type = this.parseType();
      }
      if (this.isOp('=')) {
        this.pos++;
        def = this.parseOrTest();
      }
      params.push({ name, ...(type ? { type } : {}), ...(def ? { default: def } : {}) });
      if (this.isOp(',')) this.pos++;
      else break;
    }
    let ret: TypeExpr | undefined;
    if (this.isOp('->')) {
      this.pos++;
      ret = this.parseType();
    }
    this.expectOp('{');
    const body = this.parseBracedStatements();
    this.expectOp('}');
    return { k: 'lambda', params, ...(ret ? { ret } : {}), body, line: loc.line, col: loc.col };
  }

  /** Statements between `{` and `}` (a lambda body), separated by line breaks or `;`. */
  private parseBracedStatements(): Stmt[] {
    const body: Stmt[] = [];
    this.skipNL();
    while (!this.isOp('}')) {
      const t = this.peek();
      const loc = this.loc(t);
      if (t.kind === 'name' && t.value === 'if') {
        body.push(this.parseBracedIf());
      } else if (t.kind === 'name' && t.value === 'assert') {
        this.pos++;
        const test = this.parseOrTest();
        let guard: Expr | undefined;
        if (this.isName('if')) {
          this.pos++;
          guard = this.parseOrTest();
        }
        let message: Expr | undefined;
        if (this.isOp(',')) {
          this.pos++;
          message = this.parseExpr();
        }
        body.push(assertStmt(test, guard, message, loc));
      } else if (t.kind === 'name' && !KEYWORDS.has(t.value) && this.isOp(':', 1) && this.peek(1).line === t.line) {
        this.pos += 2;
        const type = this.parseType();
        this.expectOp('=');
        body.push({ s: 'assign', target: t.value, type, value: this.parseExpr(), line: loc.line, col: loc.col });
      } else if (this.atAssignment()) {
        body.push(this.parseAssignment(loc));
      } else {
        body.push({ s: 'expr', expr: this.parseExpr(), line: loc.line, col: loc.col });
      }
      if (this.isOp(';')) this.pos++;
      if (!this.isOp('}') && this.peek().kind !== 'nl')
        this.fail(`expected a newline, got ${this.describe(this.peek())}`);
      this.skipNL();
    }
    return exact(body);
  }

  /** `name = value` or `name += value` (any augmented operator) starts here. */
  private atAssignment(): boolean {
    const t = this.peek();
    const next = this.peek(1);
    return (
      t.kind === 'name' &&
      !KEYWORDS.has(t.value) &&
      next.kind === 'op' &&
      (next.value === '=' || AUG_OPS.has(next.value))
    );
  }

  /** The assignment atAssignment() found; an augmented one keeps its operator without the `=`. */
  private parseAssignment(loc: Loc): Stmt {
    const target = this.peek().value;
    const op = this.peek(1).value;
    this.pos += 2;
    return {
      s: 'assign',
      target,
      value: this.parseExpr(),
      ...(op !== '=' ? { op: op.slice(0, -1) } : {}),
      line: loc.line,
      col: loc.col,
    };
  }

  private parseBracedIf(): Stmt {
    const loc = this.loc();
    const col = this.peek().col;
    const branches: { test?: Expr; body: Stmt[] }[] = [];
    const block = (): Stmt[] => this.columnBlock(col, () => this.parseBracedStatementsUntil(col));
    this.pos++;
    const test = this.parseExpr();
    this.expectOp(':');
    branches.push({ test, body: block() });
    for (;;) {
      const save = this.pos;
      this.skipNL();
      if (this.isName('elif') && this.peek().col === col) {
        this.pos++;
        const t = this.parseExpr();
        this.expectOp(':');
        branches.push({ test: t, body: block() });
      } else if (this.isName('else') && this.peek().col === col) {
        this.pos++;
        this.expectOp(':');
        branches.push({ body: block() });
        break;
      } else {
        this.pos = save;
        break;
      }
    }
    return { s: 'if', branches, line: loc.line, col: loc.col };
  }

  private parseBracedStatementsUntil(col: number): Stmt[] {
    const out: Stmt[] = [];
    // statements of a block nested in braces: each on its own line, deeper than `col`
    while (!this.isOp('}') && this.peek().col > col) {
      const t = this.peek();
      const loc = this.loc(t);
      if (t.kind === 'name' && t.value === 'if') out.push(this.parseBracedIf());
      else if (this.atAssignment()) out.push(this.parseAssignment(loc));
      else out.push({ s: 'expr', expr: this.parseExpr(), line: loc.line, col: loc.col });
      if (this.peek().kind !== 'nl') break;
      const save = this.pos;
      this.skipNL();
      if (this.isOp('}') || this.peek().col <= col) {
        this.pos = save;
        break;
      }
    }
    return out;
  }

  /** A block after `if ...:` inside brackets: on the same line, or on the following lines indented past `col`. */
  private columnBlock<T>(col: number, parse: () => T): T {
    if (this.peek().kind === 'nl') {
      this.skipNL();
      if (this.peek().col <= col) this.fail('expected an indented block');
    }
    return parse();
  }

  private parseOrTest(): Expr {
    let e = this.parseAndTest();
    while (this.isName('or')) {
      const t = this.next();
      this.skipNL();
      e = { k: 'binary', op: 'or', left: e, right: this.parseAndTest(), line: this.lineOf(t), col: this.colOf(t) };
    }
    return e;
  }
  private parseAndTest(): Expr {
    let e = this.parseNotTest();
    while (this.isName('and')) {
      const t = this.next();
      this.skipNL();
      e = { k: 'binary', op: 'and', left: e, right: this.parseNotTest(), line: this.lineOf(t), col: this.colOf(t) };
    }
    return e;
  }
  private parseNotTest(): Expr {
    if (this.isName('not')) {
      const t = this.next();
      return { k: 'unary', op: 'not', operand: this.parseNotTest(), line: this.lineOf(t), col: this.colOf(t) };
    }
    return this.parseComparison();
  }
  private compOp(): string | undefined {
    const t = this.peek();
    if (t.kind === 'op' && ['==', '!=', '<', '>', '<=', '>='].includes(t.value)) return t.value;
    if (t.kind === 'name') {
      if (t.value === 'in') return 'in';
      if (t.value === 'not' && this.isName('in', 1)) return 'not in';
      if (t.value === 'is') return this.isName('not', 1) ? 'is not' : 'is';
    }
    return undefined;
  }
  private parseComparison(): Expr {
    const first = this.parseBinary(0);
    let op = this.compOp();
    if (!op) return first;
    const ops: string[] = [];
    const operands = [first];
    while (op) {
      this.pos += op.includes(' ') ? 2 : 1;
      ops.push(op);
      operands.push(this.parseBinary(0));
      op = this.compOp();
    }
    return { k: 'compare', ops, operands, line: first.line, col: first.col };
  }

  private static readonly LEVELS: readonly (readonly string[])[] = [
    ['|'],
    ['^'],
    ['&'],
    ['<<', '>>'],
    ['+', '-'],
    ['*', '/', '//', '%'],
  ];

  private parseBinary(level: number): Expr {
    if (level >= Parser.LEVELS.length) return this.parseUnary();
    let e = this.parseBinary(level + 1);
    const ops = Parser.LEVELS[level]!;
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || !ops.includes(t.value)) return e;
      this.pos++;
      this.skipNL();
      e = { k: 'binary', op: t.value, left: e, right: this.parseBinary(level + 1), line: e.line, col: e.col };
    }
  }

  private parseUnary(): Expr {
    const t = this.peek();
    if (t.kind === 'op' && (t.value === '-' || t.value === '+' || t.value === '~')) {
      this.pos++;
      return { k: 'unary', op: t.value, operand: this.parseUnary(), line: this.lineOf(t), col: this.colOf(t) };
    }
    const base = this.parsePostfix();
    if (this.isOp('**')) {
      const op = this.next();
      return {
        k: 'binary',
        op: '**',
        left: base,
        right: this.parseUnary(),
        line: this.lineOf(op),
        col: this.colOf(op),
      };
    }
    return base;
  }

  private parsePostfix(noConfig = false): Expr {
    const start = this.peek();
    let e = this.parseAtom();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op') return e;
      if (t.value === '.' || t.value === '?.') {
        this.pos++;
        const a = this.peek();
        e = {
          k: 'select',
          value: e,
          attr: this.expectName('attribute name'),
          optional: t.value === '?.',
          line: this.lineOf(a),
          col: this.colOf(a),
        };
      } else if (t.value === '[' || t.value === '?[') {
        this.pos++;
        this.skipNL();
        e = this.parseSubscript(e, t.value === '?[', t);
      } else if (t.value === '(') {
        this.pos++;
        e = this.parseCall(e, t);
      } else if (t.value === '{' && !noConfig && t.line === this.prevLine() && isConfigTarget(e)) {
        const config = this.parseBraces();
        e =
          e.k === 'call'
            ? { k: 'schema', target: e.fn, args: e.args, config, line: this.lineOf(start), col: this.colOf(start) }
            : { k: 'schema', target: e, config, line: this.lineOf(start), col: this.colOf(start) };
      } else return e;
    }
  }

  private prevLine(): number {
    return this.toks[this.pos - 1]?.line ?? 0;
  }

  private parseSubscript(value: Expr, optional: boolean, t: Token): Expr {
    let lo: Expr | undefined;
    if (!this.isOp(':')) lo = this.parseExpr();
    if (this.isOp(']')) {
      this.pos++;
      return { k: 'index', value, index: lo!, optional, line: this.lineOf(t), col: this.colOf(t) };
    }
    this.expectOp(':');
    let hi: Expr | undefined;
    let step: Expr | undefined;
    if (!this.isOp(']') && !this.isOp(':')) hi = this.parseExpr();
    if (this.isOp(':')) {
      this.pos++;
      if (!this.isOp(']')) step = this.parseExpr();
    }
    this.expectOp(']');
    return {
      k: 'slice',
      value,
      ...(lo ? { lo } : {}),
      ...(hi ? { hi } : {}),
      ...(step ? { step } : {}),
      line: this.lineOf(t),
      col: this.colOf(t),
    };
  }

  private parseCall(fn: Expr, t: Token): Expr {
    const args: Expr[] = [];
    const kwargs: { name: string; value: Expr }[] = [];
    while (!this.isOp(')')) {
      if (this.peek().kind === 'name' && this.isOp('=', 1)) {
        const name = this.next().value;
        this.pos++;
        kwargs.push({ name, value: this.parseExpr() });
      } else {
        if (kwargs.length > 0) this.fail('positional argument follows keyword argument');
        args.push(this.parseExpr());
      }
      if (!this.isOp(',')) break;
      this.pos++;
    }
    this.expectOp(')');
    return { k: 'call', fn, args: exact(args), kwargs: exact(kwargs), line: this.lineOf(t), col: this.colOf(t) };
  }

  private parseAtom(): Expr {
    const t = this.peek();
    const loc = this.loc(t);
    switch (t.kind) {
      case 'int': {
        this.pos++;
        const v = t.value;
        const radix = v.length > 2 && v.charCodeAt(0) === 48 ? v[1]! : '';
        const num =
          radix === 'o' || radix === 'O'
            ? parseInt(v.slice(2), 8)
            : radix === 'b' || radix === 'B'
              ? parseInt(v.slice(2), 2)
              : Number(v);
        if (!Number.isSafeInteger(num))
          this.fail(`integer literal ${v} is outside the 64-bit range this engine computes exactly`, t);
        return { k: 'lit', value: num, line: loc.line, col: loc.col };
      }
      case 'float':
        this.pos++;
        return { k: 'float', value: Number(t.value), line: loc.line, col: loc.col };
      case 'string': {
        this.pos++;
        const parts = this.stringParts(t);
        // adjacent literals concatenate
        const more: StringPart[] = [...parts];
        while (this.peek().kind === 'string' && this.peek().line === t.line)
          more.push(...this.stringParts(this.next()));
        return { k: 'str', parts: exact(more), line: loc.line, col: loc.col };
      }
      case 'name': {
        switch (t.value) {
          case 'True':
          case 'False':
            this.pos++;
            return { k: 'lit', value: t.value === 'True', line: loc.line, col: loc.col };
          case 'None':
            this.pos++;
            return { k: 'lit', value: null, line: loc.line, col: loc.col };
          case 'Undefined':
            this.pos++;
            return { k: 'lit', value: 'Undefined', line: loc.line, col: loc.col };
          case 'lambda':
            return this.parseLambda();
          case 'all':
          case 'any':
          case 'filter':
          case 'map':
            if (this.peek(1).kind === 'name' && (this.isName('in', 2) || this.isOp(',', 2)))
              return this.parseQuantifier();
            break;
        }
        if (KEYWORDS.has(t.value)) this.fail(`unexpected keyword '${t.value}'`);
        this.pos++;
        return { k: 'name', name: t.value, line: loc.line, col: loc.col };
      }
      case 'op':
        if (t.value === '(') {
          this.pos++;
          const inner = this.parseExpr();
          this.expectOp(')');
          return { k: 'paren', expr: inner, line: loc.line, col: loc.col };
        }
        if (t.value === '[') return this.parseList();
        if (t.value === '{') return this.parseBraces();
        break;
    }
    this.fail(`expected an expression, got ${this.describe(t)}`);
  }

  private parseQuantifier(): Expr {
    const loc = this.loc();
    const op = this.next().value as 'all' | 'any' | 'filter' | 'map';
    const targets = [this.expectName()];
    if (this.isOp(',')) {
      this.pos++;
      targets.push(this.expectName());
    }
    if (!this.isName('in')) this.failExpected(['in']);
    this.pos++;
    const iter = this.parsePostfix(true);
    this.expectOp('{');
    this.skipNL();
    const body = this.parseExpr();
    let test: Expr | undefined;
    if (this.isName('if')) {
      this.pos++;
      test = this.parseExpr();
    }
    this.skipNL();
    this.expectOp('}');
    return { k: 'quant', op, targets, iter, body, ...(test ? { test } : {}), line: loc.line, col: loc.col };
  }

  private parseCompClauses(): CompClause[] {
    const clauses: CompClause[] = [];
    while (this.isName('for')) {
      this.pos++;
      const targets = [this.expectName()];
      while (this.isOp(',')) {
        this.pos++;
        targets.push(this.expectName());
      }
      if (!this.isName('in')) this.failExpected(['in']);
      this.pos++;
      const iter = this.parseOrTest();
      const ifs: Expr[] = [];
      this.skipNL();
      while (this.isName('if')) {
        this.pos++;
        ifs.push(this.parseOrTest());
        this.skipNL();
      }
      clauses.push({ targets, iter, ifs });
      this.skipNL();
    }
    return clauses;
  }

  private parseList(): Expr {
    const loc = this.loc();
    this.pos++;
    this.skipNL();
    const items: ListItem[] = [];
    if (this.isOp(']')) {
      this.pos++;
      return { k: 'list', items, line: loc.line, col: loc.col };
    }
    const first = this.parseListItem();
    this.skipNL();
    if (this.isName('for') && first.kind === 'item') {
      const clauses = this.parseCompClauses();
      this.expectOp(']');
      return { k: 'listcomp', elt: first.value, clauses, line: loc.line, col: loc.col };
    }
    items.push(first);
    for (;;) {
      if (this.isOp(',')) this.pos++;
      this.skipNL();
      if (this.isOp(']')) break;
      if (this.prevKindIsSeparator()) items.push(this.parseListItem());
      else this.fail(`expected ',' or ']', got ${this.describe(this.peek())}`);
    }
    this.expectOp(']');
    return { k: 'list', items: exact(items), line: loc.line, col: loc.col };
  }

  private prevKindIsSeparator(): boolean {
    const prev = this.toks[this.pos - 1];
    return (
      prev !== undefined &&
      (prev.kind === 'nl' || (prev.kind === 'op' && (prev.value === ',' || prev.value === '[' || prev.value === '{')))
    );
  }

  private parseListItem(): ListItem {
    if (this.isOp('*') || this.isOp('**')) {
      this.pos++;
      return { kind: 'unpack', value: this.parseOrTest() };
    }
    if (this.isName('if')) {
      const ifCol = this.peek().col;
      const block = (): ListItem[] =>
        this.columnBlock(ifCol, () => {
          const items: ListItem[] = [];
          for (;;) {
            items.push(this.parseListItem());
            if (this.isOp(',')) this.pos++;
            const save = this.pos;
            this.skipNL();
            if (
              this.isOp(']') ||
              this.peek().col <= ifCol ||
              (this.peek().line === this.toks[save - 1]!.line && !this.isOp(','))
            ) {
              this.pos = save;
              return items;
            }
          }
        });
      const branches = this.ifChain(ifCol, block).map(({ test, body }) => ({ ...(test ? { test } : {}), items: body }));
      return { kind: 'if', branches };
    }
    return { kind: 'item', value: this.parseExpr() };
  }

  /** `{ ... }`: a config (dict) literal, or a dict comprehension. */
  private parseBraces(): Expr {
    const loc = this.loc();
    this.expectOp('{');
    this.skipNL();
    const entries: ConfigEntry[] = [];
    if (this.isOp('}')) {
      this.pos++;
      return { k: 'config', entries, line: loc.line, col: loc.col };
    }
    const first = this.parseEntry();
    this.skipNL();
    if (this.isName('for') && first.kind === 'entry') {
      const key = first.keyExpr ?? pathToExpr(first.path!, first.loc);
      const clauses = this.parseCompClauses();
      this.expectOp('}');
      return { k: 'dictcomp', key, value: first.value, op: first.op, clauses, line: loc.line, col: loc.col };
    }
    entries.push(first);
    for (;;) {
      if (this.isOp(',')) this.pos++;
      this.skipNL();
      if (this.isOp('}')) break;
      if (!this.prevKindIsSeparator()) this.fail(`expected ',' or '}', got ${this.describe(this.peek())}`);
      entries.push(this.parseEntry());
    }
    this.expectOp('}');
    return { k: 'config', entries: exact(entries), line: loc.line, col: loc.col };
  }

  private parseEntry(): ConfigEntry {
    const t = this.peek();
    const loc = this.loc(t);
    if (this.isOp('**')) {
      this.pos++;
      return { kind: 'unpack', value: this.parseOrTest(), loc };
    }
    if (this.isName('if')) return this.parseConfigIf();
    let path: string[] | undefined;
    let keyExpr: Expr | undefined;
    if (
      (t.kind === 'name' && !KEYWORDS.has(t.value)) ||
      (t.kind === 'name' && (t.value === 'type' || t.value === 'check' || t.value === 'rule'))
    ) {
      // identifier key, possibly dotted; if it turns out to be an expression (comprehension key), reparse
      const save = this.pos;
      path = [this.next().value];
      while (this.isOp('.') && this.peek(1).kind === 'name') {
        this.pos++;
        path.push(this.next().value);
      }
      if (!this.isEntryOp()) {
        this.pos = save;
        path = undefined;
        keyExpr = this.parseExpr();
      }
    } else if (t.kind === 'string' && !t.value.includes('${') && this.isEntryOpAt(1)) {
      this.pos++;
      path = [decodeEscapes(t.value, t.raw)];
    } else if (this.isOp('[')) {
      this.pos++;
      keyExpr = this.parseExpr();
      this.expectOp(']');
    } else keyExpr = this.parseExpr();
    const opTok = this.peek();
    let op: ConfigOp;
    if (this.isOp(':')) op = 'union';
    else if (this.isOp('=')) op = 'override';
    else if (this.isOp('+=')) op = 'insert';
    else this.fail(`expected ':', '=' or '+=' after a config key, got ${this.describe(opTok)}`);
    this.pos++;
    this.skipNL();
    const value = this.parseExpr();
    return { kind: 'entry', ...(path ? { path: exact(path) } : {}), ...(keyExpr ? { keyExpr } : {}), op, value, loc };
  }

  private isEntryOp(): boolean {
    return this.isOp(':') || this.isOp('=') || this.isOp('+=');
  }
  private isEntryOpAt(o: number): boolean {
    return this.isOp(':', o) || this.isOp('=', o) || this.isOp('+=', o);
  }

  private parseConfigIf(): ConfigEntry {
    const loc = this.loc();
    const ifCol = this.peek().col;
    const block = (): ConfigEntry[] =>
      this.columnBlock(ifCol, () => {
        const entries: ConfigEntry[] = [];
        const startLine = this.peek().line;
        for (;;) {
          entries.push(this.parseEntry());
          if (this.isOp(',')) this.pos++;
          const save = this.pos;
          this.skipNL();
          const nt = this.peek();
          if (this.isOp('}') || nt.col <= ifCol || (nt.line === startLine && save === this.pos && !this.isOp(','))) {
            this.pos = save;
            return entries;
          }
          if (save === this.pos && nt.line === this.toks[save - 1]!.line && this.toks[save - 1]!.value !== ',') {
            return entries;
          }
        }
      });
    const branches = this.ifChain(ifCol, block).map(({ test, body }) => ({ ...(test ? { test } : {}), entries: body }));
    return { kind: 'if', branches, loc };
  }

  /**
   * `if TEST: BLOCK` then any `elif TEST: BLOCK` and one `else: BLOCK` at the same column: the branches
   * of an `if` inside a list or a config, whose blocks the caller parses.
   */
  private ifChain<T>(ifCol: number, block: () => T): { test?: Expr; body: T }[] {
    this.pos++;
    const test = this.parseExpr();
    this.expectOp(':');
    const branches: { test?: Expr; body: T }[] = [{ test, body: block() }];
    for (;;) {
      const save = this.pos;
      this.skipNL();
      if (this.isName('elif') && this.peek().col === ifCol) {
        this.pos++;
        const t = this.parseExpr();
        this.expectOp(':');
        branches.push({ test: t, body: block() });
      } else if (this.isName('else') && this.peek().col === ifCol) {
        this.pos++;
        this.expectOp(':');
        branches.push({ body: block() });
        return branches;
      } else {
        this.pos = save;
        return branches;
      }
    }
  }

  // ---- strings ----
  private stringParts(t: Token): StringPart[] {
    const body = t.value;
    const raw = t.raw;
    const parts: StringPart[] = [];
    let lit = '';
    let i = 0;
    while (i < body.length) {
      const c = body[i]!;
      if (c === '\\' && !raw) {
        const nx = body[i + 1];
        if (nx === '$') {
          lit += '$';
          i += 2;
          continue;
        }
        const end = escapeEnd(body, i);
        lit += decodeEscapes(body.slice(i, end), false);
        i = end;
        continue;
      }
      if (c === '$' && body[i + 1] === '{') {
        let depth = 1;
        let j = i + 2;
        let quote: string | undefined;
        while (j < body.length && depth > 0) {
          const ch = body[j]!;
          if (quote) {
            if (ch === '\\') j++;
            else if (ch === quote) quote = undefined;
          } else if (ch === '"' || ch === "'") quote = ch;
          else if (ch === '{') depth++;
          else if (ch === '}') depth--;
          j++;
        }
        if (depth > 0) this.fail('unterminated ${ in string', t);
        let inner = body.slice(i + 2, j - 1);
        let spec: string | undefined;
        const specMatch = /:\s*#(json|yaml)\s*$/.exec(inner);
        if (specMatch) {
          spec = specMatch[1];
          inner = inner.slice(0, specMatch.index);
        }
        if (lit) parts.push({ text: lit });
        lit = '';
        const before = body.slice(0, i + 2);
        const nlCount = before.split('\n').length - 1;
        const line = t.line + nlCount;
        const lastNl = before.lastIndexOf('\n');
        const col = nlCount === 0 ? t.col + t.bodyShift + i + 2 : i + 2 - lastNl;
        let expr: Expr;
        try {
          expr = withTokens(this.file, inner, (toks, count) =>
            new Parser(this.file, this.text, toks, count, { line, col }).parseStandaloneExpr(),
          );
        } catch (err) {
          if (err instanceof KclError) this.fail(`invalid string interpolation: ${err.detail}`, t);
          throw err;
        }
        parts.push({ expr, ...(spec ? { spec } : {}) });
        i = j;
        continue;
      }
      lit += c;
      i++;
    }
    if (lit || parts.length === 0) parts.push({ text: lit });
    return parts;
  }
}

/**
 * An array built by push, at its length: the first push gives an array room for 16 elements,
 * and a parsed file's arrays (mostly of one to three) live as long as its AST, copied by every
 * young-generation collection meanwhile. A copy is made at the length (the pushed one dies young).
 */
function exact<T>(a: T[]): T[] {
  return a.length > 0 && a.length < 16 ? a.slice() : a;
}

/** An `assert` statement or `check:` item; absent parts stay absent (the printer and evaluator test for them). */
function assertStmt(test: Expr, guard: Expr | undefined, message: Expr | undefined, loc: Loc): Stmt {
  return {
    s: 'assert',
    test,
    ...(guard ? { guard } : {}),
    ...(message ? { message } : {}),
    line: loc.line,
    col: loc.col,
  };
}

function isConfigTarget(e: Expr): boolean {
  if (e.k === 'name') return !KEYWORDS.has(e.name);
  if (e.k === 'select') return isConfigTarget(e.value);
  if (e.k === 'call') return isConfigTarget(e.fn);
  return false;
}

function pathToExpr(path: readonly string[], loc: Loc): Expr {
  let e: Expr = { k: 'name', name: path[0]!, line: loc.line, col: loc.col };
  for (const a of path.slice(1)) e = { k: 'select', value: e, attr: a, optional: false, line: loc.line, col: loc.col };
  return e;
}

function escapeEnd(s: string, i: number): number {
  const nx = s[i + 1];
  if (nx === 'x') return i + 4;
  if (nx === 'u') return i + 6;
  if (nx === 'U') return i + 10;
  if (nx !== undefined && /[0-7]/.test(nx)) {
    let j = i + 1;
    while (j < s.length && j < i + 4 && /[0-7]/.test(s[j]!)) j++;
    return j;
  }
  return i + 2;
}

/** Python-style escapes; a backslash before a line break joins the lines. */
function decodeEscapes(s: string, raw: boolean): string {
  if (raw || !s.includes('\\')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const nx = s[++i];
    switch (nx) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {
        let j = i;
        while (j < s.length && j < i + 3 && /[0-7]/.test(s[j]!)) j++;
        out += String.fromCharCode(parseInt(s.slice(i, j), 8));
        i = j - 1;
        break;
      }
      case 'x':
        out += String.fromCharCode(parseInt(s.slice(i + 1, i + 3), 16));
        i += 2;
        break;
      case 'u':
        out += String.fromCharCode(parseInt(s.slice(i + 1, i + 5), 16));
        i += 4;
        break;
      case 'U':
        out += String.fromCodePoint(parseInt(s.slice(i + 1, i + 9), 16));
        i += 8;
        break;
      case '\n':
        break;
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'v':
        out += '\v';
        break;
      case '\\':
      case "'":
      case '"':
      case '$':
        out += nx;
        break;
      default:
        out += '\\' + (nx ?? '');
    }
  }
  return out;
}
