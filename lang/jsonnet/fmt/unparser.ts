/**
 * Prints the formatter tree back to text. All layout decisions were made by
 * the passes (line breaks and indents live in the fodder); the unparser only
 * decides single spaces between tokens: `crowded` says the previous output
 * would touch the next token (so a space is needed), `separateToken` whether
 * the token after the fodder needs one. Output always uses "\n" line ends.
 */
import type { Fodder } from './fodder.js';
import { leftRecursive, type ForSpec, type Node, type ObjectField, type Params } from './tree.js';

export interface UnparseOptions {
  padArrays: boolean;
  padObjects: boolean;
}

const SPACES: string[] = [];

/** `n` spaces; the strings of common indents are made once. */
function spaces(n: number): string {
  if (n >= 64) return ' '.repeat(n);
  return (SPACES[n] ??= ' '.repeat(n));
}

export class Unparser {
  // Output pieces, joined once by text(). As fast as a `+=` rope on the
  // bench's 10,000-line file (20-30 ms either way, within noise), but the text
  // comes out flat, so callers that compare or write it pay no flattening.
  private readonly parts: string[] = [];

  constructor(private readonly options: UnparseOptions) {}

  text(): string {
    return this.parts.join('');
  }

  write(s: string): void {
    this.parts.push(s);
  }

  /** A line break after `blanks` empty lines, then `indent` spaces. */
  private newLine(blanks: number, indent: number): void {
    if (blanks > 0) this.write(blanks === 1 ? '\n' : '\n'.repeat(blanks));
    this.write(spaces(indent));
  }

  /** Prints fodder; `final` drops the blank lines and indent after the last element. */
  fill(fodder: Fodder, crowded: boolean, separateToken: boolean, final = false): void {
    let lastIndent = 0;
    fodder.forEach((f, i) => {
      const skipTrailing = final && i === fodder.length - 1;
      switch (f.kind) {
        case 'paragraph':
          f.comment.forEach((line, k) => {
            // Empty lines are not indented; the first line is already indented.
            if (line.length > 0) {
              if (k > 0) this.write(spaces(lastIndent));
              this.write(line);
            }
            this.write('\n');
          });
          if (!skipTrailing) this.newLine(f.blanks, f.indent);
          lastIndent = f.indent;
          crowded = false;
          break;
        case 'lineEnd':
          if (f.comment.length > 0) this.write('  ' + f.comment[0]!);
          this.write('\n');
          if (!skipTrailing) this.newLine(f.blanks, f.indent);
          lastIndent = f.indent;
          crowded = false;
          break;
        case 'interstitial':
          if (crowded) this.write(' ');
          this.write(f.comment[0]!);
          crowded = true;
          break;
      }
    });
    if (separateToken && crowded) this.write(' ');
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
    p.params.forEach((param, i) => {
      if (i > 0) this.write(',');
      this.fill(param.nameFodder, i > 0, true);
      this.write(param.name);
      if (param.defaultArg) {
        this.fill(param.eqFodder, false, false);
        this.write('=');
        this.unparse(param.defaultArg, false);
      }
      this.fill(param.commaFodder, false, false);
    });
    if (p.trailingComma) this.write(',');
    this.fill(p.parenRightFodder, false, false);
    this.write(')');
  }

  private fields(fields: ObjectField[], crowded: boolean): void {
    fields.forEach((field, i) => {
      if (i > 0) this.write(',');
      const sep = i > 0 || crowded;
      const remainder = (): void => {
        if (field.method) this.params(field.method);
        this.fill(field.opFodder, false, false);
        if (field.superSugar) this.write('+');
        this.write(field.hide);
        this.unparse(field.expr2, true);
      };
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
          remainder();
          break;
        case 'str':
          if (field.expr1) this.unparse(field.expr1, sep);
          remainder();
          break;
        case 'expr':
          this.fill(field.fodder1, sep, true);
          this.write('[');
          if (field.expr1) this.unparse(field.expr1, false);
          this.fill(field.fodder2, false, false);
          this.write(']');
          remainder();
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
    });
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
        expr.elements.forEach((e, i) => {
          if (i > 0) this.write(',');
          this.unparse(e.expr, i > 0 || pad);
          this.fill(e.commaFodder, false, false);
        });
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
        if (expr.id !== null) {
          this.write('.');
          this.fill(expr.rightBracketFodder, false, false);
          this.write(expr.id);
        } else {
          this.write('[');
          if (expr.index) this.unparse(expr.index, false);
          this.fill(expr.rightBracketFodder, false, false);
          this.write(']');
        }
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
        expr.binds.forEach((b, i) => {
          if (i > 0) this.write(',');
          this.fill(b.varFodder, true, true);
          this.write(b.variable);
          if (b.fun) this.params(b.fun);
          this.fill(b.eqFodder, true, true);
          this.write('=');
          this.unparse(b.body, true);
          this.fill(b.closeFodder, false, false);
        });
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
        if (expr.id !== null) {
          this.write('.');
          this.fill(expr.idFodder, false, false);
          this.write(expr.id);
        } else {
          this.write('[');
          if (expr.index) this.unparse(expr.index, false);
          this.fill(expr.idFodder, false, false);
          this.write(']');
        }
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

  private string(lit: Extract<Node, { type: 'string' }>): void {
    const v = lit.value;
    switch (lit.kind) {
      case 'double':
        this.write('"' + v + '"');
        break;
      case 'single':
        this.write("'" + v + "'");
        break;
      case 'verbatimDouble':
        this.write('@"' + v.replaceAll('"', '""') + '"');
        break;
      case 'verbatimSingle':
        this.write("@'" + v.replaceAll("'", "''") + "'");
        break;
      case 'block': {
        const chomped = !v.endsWith('\n');
        let out = chomped ? '|||-\n' : '|||\n';
        if (!v.startsWith('\n')) out += lit.blockIndent;
        for (let i = 0; i < v.length; i++) {
          const c = v[i]!;
          if (c === '\r') continue; // output is always in unix line ends
          out += c;
          if (c === '\n' && i + 1 < v.length && v[i + 1] !== '\n') out += lit.blockIndent;
        }
        if (chomped) out += '\n';
        out += lit.blockTermIndent + '|||';
        this.write(out);
        break;
      }
    }
  }
}
