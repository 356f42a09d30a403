/**
 * Prints the formatter tree back to text. All layout decisions were made by
 * the passes (line breaks and indents live in the fodder); the unparser only
 * decides single spaces between tokens: `crowded` says the previous output
 * would touch the next token (so a space is needed), `separateToken` whether
 * the token after the fodder needs one. Output always uses "\n" line ends.
 */
import type { Fodder } from './fodder.js';
import { OutputBuffer } from './output-buffer.js';
import { leftRecursive, type ForSpec, type Node, type ObjectField, type Params } from './tree.js';

export interface UnparseOptions {
  padArrays: boolean;
  padObjects: boolean;
}

const NEWLINE = 10;
const SPACE = 32;

export class Unparser {
  private readonly out = new OutputBuffer();

  constructor(private readonly options: UnparseOptions) {}

  text(): string {
    return this.out.text();
  }

  /** The text without its final newline (for expression fragments). */
  textWithoutFinalNewline(): string {
    if (this.out.lastCode() === NEWLINE) this.out.dropLast();
    return this.out.text();
  }

  write(s: string): void {
    this.out.write(s);
  }

  /** Prints fodder; `final` drops the blank lines and indent after the last element. */
  fill(fodder: Fodder, crowded: boolean, separateToken: boolean, final = false): void {
    const out = this.out;
    let lastIndent = 0;
    for (let i = 0; i < fodder.length; i++) {
      const f = fodder[i]!;
      const skipTrailing = final && i === fodder.length - 1;
      switch (f.kind) {
        case 'paragraph': {
          const lines = f.comment;
          for (let k = 0; k < lines.length; k++) {
            const line = lines[k]!;
            // Empty lines are not indented; the first line is already indented.
            if (line.length > 0) {
              if (k > 0) out.repeat(SPACE, lastIndent);
              out.write(line);
            }
            out.writeCode(NEWLINE);
          }
          if (!skipTrailing) {
            out.repeat(NEWLINE, f.blanks);
            out.repeat(SPACE, f.indent);
          }
          lastIndent = f.indent;
          crowded = false;
          break;
        }
        case 'lineEnd':
          if (f.comment.length > 0) {
            out.repeat(SPACE, 2);
            out.write(f.comment[0]!);
          }
          out.writeCode(NEWLINE);
          if (!skipTrailing) {
            out.repeat(NEWLINE, f.blanks);
            out.repeat(SPACE, f.indent);
          }
          lastIndent = f.indent;
          crowded = false;
          break;
        case 'interstitial':
          if (crowded) out.writeCode(SPACE);
          out.write(f.comment[0]!);
          crowded = true;
          break;
      }
    }
    if (separateToken && crowded) out.writeCode(SPACE);
  }

  private specs(spec: ForSpec): void {
    if (spec.outer) this.specs(spec.outer);
    this.fill(spec.forFodder, true, true);
    this.write('for');
    this.fill(spec.varFodder, true, true);
    this.write(spec.varName);
    this.fill(spec.inFodder, true, true);
    this.write('in');
    this.unparse(spec.expr, true);
    for (const cond of spec.conditions) {
      this.fill(cond.ifFodder, true, true);
      this.write('if');
      this.unparse(cond.expr, true);
    }
  }

  private params(p: Params): void {
    this.fill(p.parenLeftFodder, false, false);
    this.write('(');
    const params = p.params;
    for (let i = 0; i < params.length; i++) {
      const param = params[i]!;
      if (i > 0) this.write(',');
      this.fill(param.nameFodder, i > 0, true);
      this.write(param.name);
      if (param.defaultArg) {
        this.fill(param.eqFodder, false, false);
        this.write('=');
        this.unparse(param.defaultArg, false);
      }
      this.fill(param.commaFodder, false, false);
    }
    if (p.trailingComma) this.write(',');
    this.fill(p.parenRightFodder, false, false);
    this.write(')');
  }

  /** A field's method parameters, `:`-operator and body. */
  private fieldRemainder(field: ObjectField): void {
    if (field.method) this.params(field.method);
    this.fill(field.opFodder, false, false);
    if (field.superSugar) this.write('+');
    this.write(field.hide);
    this.unparse(field.expr2, true);
  }

  private fields(fields: ObjectField[], crowded: boolean): void {
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      if (i > 0) this.write(',');
      const sep = i > 0 || crowded;
      switch (field.kind) {
        case 'local':
          this.fill(field.fodder1, sep, true);
          this.write('local');
          this.fill(field.fodder2, true, true);
          this.write(field.id ?? '');
          if (field.method) this.params(field.method);
          this.fill(field.opFodder, true, true);
          this.write('=');
          this.unparse(field.expr2, true);
          break;
        case 'id':
          this.fill(field.fodder1, sep, true);
          this.write(field.id ?? '');
          this.fieldRemainder(field);
          break;
        case 'str':
          if (field.expr1) this.unparse(field.expr1, sep);
          this.fieldRemainder(field);
          break;
        case 'expr':
          this.fill(field.fodder1, sep, true);
          this.write('[');
          if (field.expr1) this.unparse(field.expr1, false);
          this.fill(field.fodder2, false, false);
          this.write(']');
          this.fieldRemainder(field);
          break;
        case 'assert':
          this.fill(field.fodder1, sep, true);
          this.write('assert');
          this.unparse(field.expr2, true);
          if (field.expr3) {
            this.fill(field.opFodder, true, true);
            this.write(':');
            this.unparse(field.expr3, true);
          }
          break;
      }
      this.fill(field.commaFodder, false, false);
    }
  }

  unparse(expr: Node, crowded: boolean): void {
    if (leftRecursive(expr) === null) this.fill(expr.fodder, crowded, true);
    switch (expr.type) {
      case 'apply': {
        const n = expr;
        this.unparse(n.target, crowded);
        this.fill(n.fodderLeft, false, false);
        this.write('(');
        let first = true;
        for (const a of n.positional) {
          if (!first) this.write(',');
          this.unparse(a.expr, !first);
          this.fill(a.commaFodder, false, false);
          first = false;
        }
        for (const a of n.named) {
          if (!first) this.write(',');
          this.fill(a.nameFodder, !first, true);
          this.write(a.name);
          this.write('=');
          this.unparse(a.arg, false);
          this.fill(a.commaFodder, false, false);
          first = false;
        }
        if (n.trailingComma) this.write(',');
        this.fill(n.fodderRight, false, false);
        this.write(')');
        if (n.tailStrict) {
          this.fill(n.tailStrictFodder, true, true);
          this.write('tailstrict');
        }
        break;
      }
      case 'applyBrace':
        this.unparse(expr.left, crowded);
        this.unparse(expr.right, true);
        break;
      case 'array': {
        const pad = this.options.padArrays;
        this.write('[');
        const elements = expr.elements;
        for (let i = 0; i < elements.length; i++) {
          const e = elements[i]!;
          if (i > 0) this.write(',');
          this.unparse(e.expr, i > 0 || pad);
          this.fill(e.commaFodder, false, false);
        }
        if (expr.trailingComma) this.write(',');
        this.fill(expr.closeFodder, expr.elements.length > 0, pad);
        this.write(']');
        break;
      }
      case 'arrayComp': {
        const pad = this.options.padArrays;
        this.write('[');
        this.unparse(expr.body, pad);
        this.fill(expr.trailingCommaFodder, false, false);
        if (expr.trailingComma) this.write(',');
        this.specs(expr.spec);
        this.fill(expr.closeFodder, true, pad);
        this.write(']');
        break;
      }
      case 'assert':
        this.write('assert');
        this.unparse(expr.cond, true);
        if (expr.message) {
          this.fill(expr.colonFodder, true, true);
          this.write(':');
          this.unparse(expr.message, true);
        }
        this.fill(expr.semicolonFodder, false, false);
        this.write(';');
        this.unparse(expr.rest, true);
        break;
      case 'binary':
        this.unparse(expr.left, crowded);
        this.fill(expr.opFodder, true, true);
        this.write(expr.op);
        this.unparse(expr.right, true);
        break;
      case 'conditional':
        this.write('if');
        this.unparse(expr.cond, true);
        this.fill(expr.thenFodder, true, true);
        this.write('then');
        this.unparse(expr.branchTrue, true);
        if (expr.branchFalse) {
          this.fill(expr.elseFodder, true, true);
          this.write('else');
          this.unparse(expr.branchFalse, true);
        }
        break;
      case 'dollar':
        this.write('$');
        break;
      case 'error':
        this.write('error');
        this.unparse(expr.expr, true);
        break;
      case 'function':
        this.write('function');
        this.params(expr.params);
        this.unparse(expr.body, true);
        break;
      case 'import':
        this.write(expr.keyword);
        this.unparse(expr.file, true);
        break;
      case 'index':
        this.unparse(expr.target, crowded);
        this.fill(expr.leftBracketFodder, false, false);
        this.indexTail(expr.id, expr.index, expr.rightBracketFodder);
        break;
      case 'slice':
        this.unparse(expr.target, crowded);
        this.fill(expr.leftBracketFodder, false, false);
        this.write('[');
        if (expr.beginIndex) this.unparse(expr.beginIndex, false);
        this.fill(expr.endColonFodder, false, false);
        this.write(':');
        if (expr.endIndex) this.unparse(expr.endIndex, false);
        if (expr.step || expr.stepColonFodder.length > 0) {
          this.fill(expr.stepColonFodder, false, false);
          this.write(':');
          if (expr.step) this.unparse(expr.step, false);
        }
        this.fill(expr.rightBracketFodder, false, false);
        this.write(']');
        break;
      case 'inSuper':
        this.unparse(expr.index, true);
        this.fill(expr.inFodder, true, true);
        this.write('in');
        this.fill(expr.superFodder, true, true);
        this.write('super');
        break;
      case 'local':
        this.write('local');
        for (let i = 0; i < expr.binds.length; i++) {
          const b = expr.binds[i]!;
          if (i > 0) this.write(',');
          this.fill(b.varFodder, true, true);
          this.write(b.variable);
          if (b.fun) this.params(b.fun);
          this.fill(b.eqFodder, true, true);
          this.write('=');
          this.unparse(b.body, true);
          this.fill(b.closeFodder, false, false);
        }
        this.write(';');
        this.unparse(expr.body, true);
        break;
      case 'boolean':
        this.write(expr.value ? 'true' : 'false');
        break;
      case 'number':
        this.write(expr.text);
        break;
      case 'string':
        this.string(expr);
        break;
      case 'null':
        this.write('null');
        break;
      case 'object':
        this.write('{');
        this.fields(expr.fields, this.options.padObjects);
        if (expr.trailingComma) this.write(',');
        this.fill(expr.closeFodder, expr.fields.length > 0, this.options.padObjects);
        this.write('}');
        break;
      case 'objectComp':
        this.write('{');
        this.fields(expr.fields, this.options.padObjects);
        if (expr.trailingComma) this.write(',');
        this.specs(expr.spec);
        this.fill(expr.closeFodder, true, this.options.padObjects);
        this.write('}');
        break;
      case 'parens':
        this.write('(');
        this.unparse(expr.inner, false);
        this.fill(expr.closeFodder, false, false);
        this.write(')');
        break;
      case 'self':
        this.write('self');
        break;
      case 'superIndex':
        this.write('super');
        this.fill(expr.dotFodder, false, false);
        this.indexTail(expr.id, expr.index, expr.idFodder);
        break;
      case 'unary':
        this.write(expr.op);
        this.unparse(expr.expr, false);
        break;
      case 'var':
        this.write(expr.id);
        break;
    }
  }

  /** `.id` or `[index]` after a target or `super`; the fodder sits before the id or the closing bracket. */
  private indexTail(id: string | null, index: Node | null, closeFodder: Fodder): void {
    if (id !== null) {
      this.write('.');
      this.fill(closeFodder, false, false);
      this.write(id);
    } else {
      this.write('[');
      if (index) this.unparse(index, false);
      this.fill(closeFodder, false, false);
      this.write(']');
    }
  }

  private string(lit: Extract<Node, { type: 'string' }>): void {
    const v = lit.value;
    const out = this.out;
    switch (lit.kind) {
      case 'double':
        out.writeCode(34);
        out.write(v);
        out.writeCode(34);
        break;
      case 'single':
        out.writeCode(39);
        out.write(v);
        out.writeCode(39);
        break;
      case 'verbatimDouble':
        out.write('@"');
        out.write(v.replaceAll('"', '""'));
        out.writeCode(34);
        break;
      case 'verbatimSingle':
        out.write("@'");
        out.write(v.replaceAll("'", "''"));
        out.writeCode(39);
        break;
      case 'block': {
        const chomped = !v.endsWith('\n');
        out.write(chomped ? '|||-\n' : '|||\n');
        if (!v.startsWith('\n')) out.write(lit.blockIndent);
        for (let i = 0; i < v.length; i++) {
          const c = v.charCodeAt(i);
          if (c === 13) continue; // output is always in unix line ends
          out.writeCode(c);
          if (c === NEWLINE && i + 1 < v.length && v.charCodeAt(i + 1) !== NEWLINE) out.write(lit.blockIndent);
        }
        if (chomped) out.writeCode(NEWLINE);
        out.write(lit.blockTermIndent);
        out.write('|||');
        break;
      }
    }
  }
}
