/**
 * Pass: re-indents every line break to follow the nesting of the code
 * (jsonnetfmt --indent N). It replays the unparser's output column by column
 * (without writing anything) so that items continuing on the line of their
 * opening bracket can be lined up under the first one, while items starting
 * on a new line are indented by N from the enclosing construct's base.
 * Text blocks get their body indented by base + N and `|||` at base.
 */
import { hasNewline, type Fodder } from './fodder.js';
import {
  argFodder,
  leftRecursive,
  leftmost,
  openFodder,
  type ForSpec,
  type Node,
  type ObjectField,
  type Params,
} from './tree.js';
import { utf8ByteLength as utf8Length } from '../../common/utf8.js';

/** base: the construct's indentation; lineUp: where continuation lines align. */
interface Indent {
  base: number;
  lineUp: number;
}

function startsOnSameLine(firstFodder: Fodder): boolean {
  return firstFodder.length === 0 || firstFodder[0]!.kind === 'interstitial';
}

export interface IndentOptions {
  indent: number;
  padArrays: boolean;
  padObjects: boolean;
  /** Column the expression starts at (0 for a whole file). */
  baseIndent?: number;
}

const HIDE_WIDTH = { ':': 1, '::': 2, ':::': 3 } as const;

function objectFirstFodder(list: ObjectField[], closeFodder: Fodder): Fodder {
  const first = list[0];
  if (!first) return closeFodder;
  return first.kind === 'str' && first.expr1 ? openFodder(first.expr1) : first.fodder1;
}

export function fixIndentation(body: Node, finalFodder: Fodder, options: IndentOptions): void {
  const start = options.baseIndent ?? 0;
  const indenter = new Indenter(options.indent, options.padArrays, options.padObjects, start);
  indenter.visit(body, { base: start, lineUp: start }, false);
  indenter.setIndents(finalFodder, start, start);
}

/**
 * One walk in printing order; `column` is where the unparser's output would
 * be. A class with methods rather than closures: the walk visits every node
 * of large files, and per-call closures were most of its garbage.
 */
class Indenter {
  column: number;

  constructor(
    private readonly step: number,
    private readonly padArrays: boolean,
    private readonly padObjects: boolean,
    start: number,
  ) {
    this.column = start;
  }

  /** Sets the indent of each line break: `last` for the final one, `allButLast` for the others. */
  setIndents(fodder: Fodder, allButLast: number, last: number): void {
    let count = 0;
    for (let k = 0; k < fodder.length; k++) if (fodder[k]!.kind !== 'interstitial') count++;
    let i = 0;
    for (let k = 0; k < fodder.length; k++) {
      const f = fodder[k]!;
      if (f.kind === 'interstitial') continue;
      f.indent = i + 1 < count ? allButLast : last;
      i++;
    }
  }

  /** Models the unparser's fill: updates `column` as if the fodder were printed. */
  private fillLast(fodder: Fodder, crowded: boolean, separateToken: boolean, allButLast: number, last: number): void {
    if (fodder.length === 0) {
      if (separateToken && crowded) this.column++;
      return;
    }
    this.setIndents(fodder, allButLast, last);
    for (let k = 0; k < fodder.length; k++) {
      const f = fodder[k]!;
      if (f.kind === 'interstitial') {
        if (crowded) this.column++;
        this.column += utf8Length(f.comment[0]!);
        crowded = true;
      } else {
        this.column = f.indent;
        crowded = false;
      }
    }
    if (separateToken && crowded) this.column++;
  }

  private fill(fodder: Fodder, crowded: boolean, separateToken: boolean, indent: number): void {
    this.fillLast(fodder, crowded, separateToken, indent, indent);
  }

  // Sub-expressions on the same line line up with `lineUp`; otherwise they go
  // on the next line indented from the base ("strong" variants also rebase).
  private newIndent(first: Fodder, old: Indent, lineUp: number): Indent {
    return startsOnSameLine(first)
      ? { base: old.base, lineUp }
      : { base: old.base + this.step, lineUp: old.base + this.step };
  }
  private newIndentStrong(first: Fodder, old: Indent, lineUp: number): Indent {
    return startsOnSameLine(first)
      ? { base: lineUp, lineUp }
      : { base: old.base + this.step, lineUp: old.base + this.step };
  }
  private align(first: Fodder, old: Indent, lineUp: number): Indent {
    return startsOnSameLine(first) ? { base: old.base, lineUp } : old;
  }
  private alignStrong(first: Fodder, old: Indent, lineUp: number): Indent {
    return startsOnSameLine(first) ? { base: lineUp, lineUp } : old;
  }

  private specs(spec: ForSpec, cur: Indent): void {
    if (spec.outer) this.specs(spec.outer, cur);
    this.fill(spec.forFodder, true, true, cur.lineUp);
    this.column += 3; // for
    this.fill(spec.varFodder, true, true, cur.lineUp);
    this.column += utf8Length(spec.varName);
    this.fill(spec.inFodder, true, true, cur.lineUp);
    this.column += 2; // in
    this.visit(spec.expr, this.newIndent(openFodder(spec.expr), cur, this.column), true);
    for (const cond of spec.conditions) {
      this.fill(cond.ifFodder, true, true, cur.lineUp);
      this.column += 2; // if
      this.visit(cond.expr, this.newIndent(openFodder(cond.expr), cur, this.column), true);
    }
  }

  private params(p: Params, cur: Indent): void {
    this.fill(p.parenLeftFodder, false, false, cur.lineUp);
    this.column++; // (
    const list = p.params;
    const firstInside = list.length > 0 ? list[0]!.nameFodder : p.parenRightFodder;
    const inner = this.newIndent(firstInside, cur, this.column);
    for (let i = 0; i < list.length; i++) {
      const param = list[i]!;
      if (i > 0) this.column++; // ,
      this.fill(param.nameFodder, i > 0, true, inner.lineUp);
      this.column += utf8Length(param.name);
      if (param.defaultArg) {
        this.fill(param.eqFodder, false, false, inner.lineUp);
        this.column++; // =
        this.visit(param.defaultArg, inner, false);
      }
      this.fill(param.commaFodder, false, false, inner.lineUp);
    }
    if (p.trailingComma) this.column++;
    this.fillLast(p.parenRightFodder, false, false, inner.lineUp, cur.lineUp);
    this.column++; // )
  }

  /** A field's method parameters, `:`-operator and body. */
  private fieldRemainder(field: ObjectField, cur: Indent): void {
    if (field.method) this.params(field.method, cur);
    this.fill(field.opFodder, false, false, cur.lineUp);
    if (field.superSugar) this.column++;
    this.column += HIDE_WIDTH[field.hide];
    this.visit(field.expr2, this.newIndent(openFodder(field.expr2), cur, this.column), true);
  }

  private fields(list: ObjectField[], cur: Indent, crowded: boolean): void {
    const lineUp = cur.lineUp;
    for (let i = 0; i < list.length; i++) {
      const field = list[i]!;
      if (i > 0) this.column++; // ,
      const sep = i > 0 || crowded;
      switch (field.kind) {
        case 'local': {
          this.fill(field.fodder1, sep, true, lineUp);
          this.column += 5; // local
          this.fill(field.fodder2, true, true, lineUp);
          this.column += utf8Length(field.id ?? '');
          if (field.method) this.params(field.method, cur);
          this.fill(field.opFodder, true, true, lineUp);
          this.column++; // =
          this.visit(field.expr2, this.newIndent(openFodder(field.expr2), cur, this.column), true);
          break;
        }
        case 'id':
          this.fill(field.fodder1, sep, true, lineUp);
          this.column += utf8Length(field.id ?? '');
          this.fieldRemainder(field, cur);
          break;
        case 'str':
          if (field.expr1) this.visit(field.expr1, cur, sep);
          this.fieldRemainder(field, cur);
          break;
        case 'expr':
          this.fill(field.fodder1, sep, true, lineUp);
          this.column++; // [
          if (field.expr1) this.visit(field.expr1, cur, false);
          this.fill(field.fodder2, false, false, lineUp);
          this.column++; // ]
          this.fieldRemainder(field, cur);
          break;
        case 'assert': {
          this.fill(field.fodder1, sep, true, lineUp);
          this.column += 6; // assert
          const msgIndent = this.newIndent(openFodder(field.expr2), cur, this.column + 1);
          this.visit(field.expr2, cur, true);
          if (field.expr3) {
            this.fill(field.opFodder, true, true, msgIndent.lineUp);
            this.column++; // :
            this.visit(field.expr3, msgIndent, true);
          }
          break;
        }
      }
      this.fill(field.commaFodder, false, false, lineUp);
    }
  }

  visit(expr: Node, cur: Indent, crowded: boolean): void {
    this.fill(expr.fodder, crowded, leftRecursive(expr) === null, cur.lineUp);
    switch (expr.type) {
      case 'apply': {
        const n = expr;
        const targetIndent = this.align(openFodder(n.target), cur, this.column + (crowded ? 1 : 0));
        this.visit(n.target, targetIndent, crowded);
        this.fill(n.fodderLeft, false, false, targetIndent.lineUp);
        this.column++; // (
        const argCount = n.positional.length + n.named.length;
        const firstFodder = argCount > 0 ? argFodder(n, 0) : n.fodderRight;
        // Strong indent when any argument but the first starts a line.
        let strong = false;
        for (let i = 1; i < argCount && !strong; i++) strong = hasNewline(argFodder(n, i));
        const argIndent = strong
          ? this.newIndentStrong(firstFodder, cur, this.column)
          : this.newIndent(firstFodder, cur, this.column);
        let first = true;
        for (const a of n.positional) {
          if (!first) this.column++; // ,
          this.visit(a.expr, argIndent, !first);
          this.fill(a.commaFodder, false, false, argIndent.lineUp);
          first = false;
        }
        for (const a of n.named) {
          if (!first) this.column++; // ,
          this.fill(a.nameFodder, !first, false, argIndent.lineUp);
          this.column += utf8Length(a.name) + 1; // name=
          this.visit(a.arg, argIndent, false);
          this.fill(a.commaFodder, false, false, argIndent.lineUp);
          first = false;
        }
        if (n.trailingComma) this.column++;
        this.fillLast(n.fodderRight, false, false, argIndent.lineUp, cur.base);
        this.column++; // )
        if (n.tailStrict) {
          this.fill(n.tailStrictFodder, true, true, cur.base);
          this.column += 10; // tailstrict
        }
        break;
      }
      case 'applyBrace': {
        const leftIndent = this.align(openFodder(expr.left), cur, this.column + (crowded ? 1 : 0));
        this.visit(expr.left, leftIndent, crowded);
        this.visit(expr.right, leftIndent, true);
        break;
      }
      case 'array': {
        const n = expr;
        const padArrays = this.padArrays;
        this.column++; // [
        const elements = n.elements;
        const firstFodder = elements.length > 0 ? openFodder(elements[0]!.expr) : n.closeFodder;
        const lineUp = this.column + (padArrays ? 1 : 0);
        let strong = false;
        for (let i = 1; i < elements.length && !strong; i++) strong = hasNewline(openFodder(elements[i]!.expr));
        const inner = strong
          ? this.newIndentStrong(firstFodder, cur, lineUp)
          : this.newIndent(firstFodder, cur, lineUp);
        for (let i = 0; i < elements.length; i++) {
          const e = elements[i]!;
          if (i > 0) this.column++;
          this.visit(e.expr, inner, i > 0 || padArrays);
          this.fill(e.commaFodder, false, false, inner.lineUp);
        }
        if (n.trailingComma) this.column++;
        this.fillLast(n.closeFodder, elements.length > 0, padArrays, inner.lineUp, cur.base);
        this.column++; // ]
        break;
      }
      case 'arrayComp': {
        const n = expr;
        const padArrays = this.padArrays;
        this.column++; // [
        const inner = this.newIndent(openFodder(n.body), cur, this.column + (padArrays ? 1 : 0));
        this.visit(n.body, inner, padArrays);
        this.fill(n.trailingCommaFodder, false, false, inner.lineUp);
        if (n.trailingComma) this.column++;
        this.specs(n.spec, inner);
        this.fillLast(n.closeFodder, true, padArrays, inner.lineUp, cur.base);
        this.column++; // ]
        break;
      }
      case 'assert': {
        const n = expr;
        this.column += 6; // assert
        const inner = this.newIndent(openFodder(n.cond), cur, this.column + 1);
        this.visit(n.cond, inner, true);
        if (n.message) {
          this.fill(n.colonFodder, true, true, inner.lineUp);
          this.column++; // :
          this.visit(n.message, inner, true);
        }
        this.fill(n.semicolonFodder, false, false, inner.lineUp);
        this.column++; // ;
        this.visit(n.rest, cur, true);
        break;
      }
      case 'binary': {
        const n = expr;
        const innerColumn = this.column + (crowded ? 1 : 0);
        const first = openFodder(n.left);
        // A line break around the operator rebases the operands (strong).
        const inner =
          hasNewline(n.opFodder) || hasNewline(openFodder(n.right))
            ? this.alignStrong(first, cur, innerColumn)
            : this.align(first, cur, innerColumn);
        this.visit(n.left, inner, crowded);
        this.fill(n.opFodder, true, true, inner.lineUp);
        this.column += utf8Length(n.op);
        // Same indent for the right operand, so chains `a &&\n b &&\n c` line up.
        this.visit(n.right, inner, true);
        break;
      }
      case 'conditional': {
        const n = expr;
        this.column += 2; // if
        this.visit(n.cond, this.newIndent(openFodder(n.cond), cur, this.column + 1), true);
        this.fill(n.thenFodder, true, true, cur.base);
        this.column += 4; // then
        this.visit(n.branchTrue, this.newIndent(openFodder(n.branchTrue), cur, this.column + 1), true);
        if (n.branchFalse) {
          this.fill(n.elseFodder, true, true, cur.base);
          this.column += 4; // else
          this.visit(n.branchFalse, this.newIndent(openFodder(n.branchFalse), cur, this.column + 1), true);
        }
        break;
      }
      case 'dollar':
        this.column++;
        break;
      case 'error':
        this.column += 5;
        this.visit(expr.expr, this.newIndent(openFodder(expr.expr), cur, this.column + 1), true);
        break;
      case 'function':
        this.column += 8; // function
        this.params(expr.params, cur);
        this.visit(expr.body, this.newIndent(openFodder(expr.body), cur, this.column + 1), true);
        break;
      case 'import':
        this.column += expr.keyword.length;
        this.visit(expr.file, this.newIndent(openFodder(expr.file), cur, this.column + 1), true);
        break;
      case 'inSuper':
        this.visit(expr.index, cur, crowded);
        this.fill(expr.inFodder, true, true, cur.lineUp);
        this.column += 2; // in
        this.fill(expr.superFodder, true, true, cur.lineUp);
        this.column += 5; // super
        break;
      case 'index': {
        const n = expr;
        this.visit(n.target, cur, crowded);
        this.fill(n.leftBracketFodder, false, false, cur.lineUp);
        if (n.id !== null) {
          this.column++; // .
          const inner = this.newIndent(n.rightBracketFodder, cur, this.column);
          this.fill(n.rightBracketFodder, false, false, inner.lineUp);
          this.column += utf8Length(n.id);
        } else if (n.index) {
          this.column++; // [
          const inner = this.newIndent(openFodder(n.index), cur, this.column);
          this.visit(n.index, inner, false);
          this.fillLast(n.rightBracketFodder, false, false, inner.lineUp, cur.base);
          this.column++; // ]
        }
        break;
      }
      case 'slice': {
        const n = expr;
        this.visit(n.target, cur, crowded);
        this.fill(n.leftBracketFodder, false, false, cur.lineUp);
        this.column++; // [
        let inner: Indent = cur;
        if (n.beginIndex) {
          inner = this.newIndent(openFodder(n.beginIndex), cur, this.column);
          this.visit(n.beginIndex, inner, false);
        }
        if (n.endIndex) {
          inner = this.newIndent(n.endColonFodder, cur, this.column);
          this.fill(n.endColonFodder, false, false, inner.lineUp);
          this.column++; // :
          this.visit(n.endIndex, inner, false);
        }
        if (n.step) {
          if (!n.endIndex) {
            inner = this.newIndent(n.endColonFodder, cur, this.column);
            this.fill(n.endColonFodder, false, false, inner.lineUp);
            this.column++; // :
          }
          this.fill(n.stepColonFodder, false, false, inner.lineUp);
          this.column++; // :
          this.visit(n.step, inner, false);
        }
        if (!n.beginIndex && !n.endIndex && !n.step) {
          inner = this.newIndent(n.endColonFodder, cur, this.column);
          this.fill(n.endColonFodder, false, false, inner.lineUp);
          this.column++; // :
        }
        this.column++; // ]
        break;
      }
      case 'local': {
        const n = expr;
        this.column += 5; // local
        const inner = this.newIndent(n.binds[0]!.varFodder, cur, this.column + 1);
        for (let i = 0; i < n.binds.length; i++) {
          const b = n.binds[i]!;
          if (i > 0) this.column++; // ,
          this.fill(b.varFodder, true, true, inner.lineUp);
          this.column += utf8Length(b.variable);
          if (b.fun) this.params(b.fun, inner);
          this.fill(b.eqFodder, true, true, inner.lineUp);
          this.column++; // =
          const bodyIndent = this.newIndent(openFodder(b.body), inner, this.column + 1);
          this.visit(b.body, bodyIndent, true);
          this.fillLast(b.closeFodder, false, false, bodyIndent.lineUp, cur.base);
        }
        this.column++; // ;
        this.visit(n.body, cur, true);
        break;
      }
      case 'boolean':
        this.column += expr.value ? 4 : 5;
        break;
      case 'number':
        this.column += utf8Length(expr.text);
        break;
      case 'string':
        switch (expr.kind) {
          case 'single':
          case 'double':
            this.column += 2 + utf8Length(expr.value);
            break;
          case 'block':
            expr.blockIndent = ' '.repeat(cur.base + this.step);
            expr.blockTermIndent = ' '.repeat(cur.base);
            this.column = cur.base + 3; // the closing |||
            break;
          case 'verbatimSingle':
          case 'verbatimDouble': {
            const q = expr.kind === 'verbatimSingle' ? "'" : '"';
            // Counted in code points, as jsonnetfmt does for verbatim strings.
            this.column += 3 + Array.from(expr.value).length + expr.value.split(q).length - 1;
            break;
          }
        }
        break;
      case 'null':
        this.column += 4;
        break;
      case 'object':
      case 'objectComp': {
        const n = expr;
        this.column++; // {
        const inner = this.newIndent(
          objectFirstFodder(n.fields, n.closeFodder),
          cur,
          this.column + (this.padObjects ? 1 : 0),
        );
        this.fields(n.fields, inner, this.padObjects);
        if (n.trailingComma) this.column++;
        if (n.type === 'objectComp') this.specs(n.spec, inner);
        this.fillLast(
          n.closeFodder,
          n.type === 'objectComp' || n.fields.length > 0,
          this.padObjects,
          inner.lineUp,
          cur.base,
        );
        this.column++; // }
        break;
      }
      case 'parens': {
        this.column++; // (
        const inner = this.newIndentStrong(openFodder(expr.inner), cur, this.column);
        this.visit(expr.inner, inner, false);
        this.fillLast(expr.closeFodder, false, false, inner.lineUp, cur.base);
        this.column++; // )
        break;
      }
      case 'self':
        this.column += 4;
        break;
      case 'superIndex': {
        const n = expr;
        this.column += 5; // super
        this.fill(n.dotFodder, false, false, cur.lineUp);
        if (n.id !== null) {
          this.column++; // .
          const inner = this.newIndent(n.idFodder, cur, this.column);
          this.fill(n.idFodder, false, false, inner.lineUp);
          this.column += utf8Length(n.id);
        } else if (n.index) {
          this.column++; // [
          const inner = this.newIndent(openFodder(n.index), cur, this.column);
          this.visit(n.index, inner, false);
          this.fillLast(n.idFodder, false, false, inner.lineUp, cur.base);
          this.column++; // ]
        }
        break;
      }
      case 'unary': {
        this.column += utf8Length(expr.op);
        const inner = this.newIndent(openFodder(expr.expr), cur, this.column);
        this.visit(expr.expr, inner, leftmost(expr.expr).type === 'dollar');
        break;
      }
      case 'var':
        this.column += utf8Length(expr.id);
        break;
    }
  }
}
