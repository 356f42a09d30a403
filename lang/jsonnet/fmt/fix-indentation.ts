/**
 * Pass: re-indents every line break to follow the nesting of the code
 * (jsonnetfmt --indent N). It replays the unparser's output column by column
 * (without writing anything) so that items continuing on the line of their
 * opening bracket can be lined up under the first one, while items starting
 * on a new line are indented by N from the enclosing construct's base.
 * Text blocks get their body indented by base + N and `|||` at base.
 */
import { hasNewline, type Fodder } from './fodder.js';
import { leftRecursive, leftmost, openFodder, type ForSpec, type Node, type ObjectField, type Params } from './tree.js';
import { utf8Length } from './utf8-length.js';

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

export function fixIndentation(body: Node, finalFodder: Fodder, options: IndentOptions): void {
  const { indent: step, padArrays, padObjects } = options;
  const start = options.baseIndent ?? 0;
  let column = start;

  /** Sets the indent of each line break: `last` for the final one, `allButLast` for the others. */
  const setIndents = (fodder: Fodder, allButLast: number, last: number): void => {
    let count = 0;
    for (const f of fodder) if (f.kind !== 'interstitial') count++;
    let i = 0;
    for (const f of fodder) {
      if (f.kind === 'interstitial') continue;
      f.indent = i + 1 < count ? allButLast : last;
      i++;
    }
  };

  /** Models the unparser's fill: updates `column` as if the fodder were printed. */
  const fillLast = (
    fodder: Fodder,
    crowded: boolean,
    separateToken: boolean,
    allButLast: number,
    last: number,
  ): void => {
    setIndents(fodder, allButLast, last);
    for (const f of fodder) {
      if (f.kind === 'interstitial') {
        if (crowded) column++;
        column += utf8Length(f.comment[0]!);
        crowded = true;
      } else {
        column = f.indent;
        crowded = false;
      }
    }
    if (separateToken && crowded) column++;
  };
  const fill = (fodder: Fodder, crowded: boolean, separateToken: boolean, indent: number): void =>
    fillLast(fodder, crowded, separateToken, indent, indent);

  // Sub-expressions on the same line line up with `lineUp`; otherwise they go
  // on the next line indented from the base ("strong" variants also rebase).
  const newIndent = (first: Fodder, old: Indent, lineUp: number): Indent =>
    startsOnSameLine(first) ? { base: old.base, lineUp } : { base: old.base + step, lineUp: old.base + step };
  const newIndentStrong = (first: Fodder, old: Indent, lineUp: number): Indent =>
    startsOnSameLine(first) ? { base: lineUp, lineUp } : { base: old.base + step, lineUp: old.base + step };
  const align = (first: Fodder, old: Indent, lineUp: number): Indent =>
    startsOnSameLine(first) ? { base: old.base, lineUp } : old;
  const alignStrong = (first: Fodder, old: Indent, lineUp: number): Indent =>
    startsOnSameLine(first) ? { base: lineUp, lineUp } : old;

  const specs = (spec: ForSpec, cur: Indent): void => {
    if (spec.outer) specs(spec.outer, cur);
    fill(spec.forFodder, true, true, cur.lineUp);
    column += 3; // for
    fill(spec.varFodder, true, true, cur.lineUp);
    column += utf8Length(spec.varName);
    fill(spec.inFodder, true, true, cur.lineUp);
    column += 2; // in
    visit(spec.expr, newIndent(openFodder(spec.expr), cur, column), true);
    for (const cond of spec.conditions) {
      fill(cond.ifFodder, true, true, cur.lineUp);
      column += 2; // if
      visit(cond.expr, newIndent(openFodder(cond.expr), cur, column), true);
    }
  };

  const params = (p: Params, cur: Indent): void => {
    fill(p.parenLeftFodder, false, false, cur.lineUp);
    column++; // (
    const firstInside = p.params.length > 0 ? p.params[0]!.nameFodder : p.parenRightFodder;
    const inner = newIndent(firstInside, cur, column);
    p.params.forEach((param, i) => {
      if (i > 0) column++; // ,
      fill(param.nameFodder, i > 0, true, inner.lineUp);
      column += utf8Length(param.name);
      if (param.defaultArg) {
        fill(param.eqFodder, false, false, inner.lineUp);
        column++; // =
        visit(param.defaultArg, inner, false);
      }
      fill(param.commaFodder, false, false, inner.lineUp);
    });
    if (p.trailingComma) column++;
    fillLast(p.parenRightFodder, false, false, inner.lineUp, cur.lineUp);
    column++; // )
  };

  const HIDE_WIDTH = { ':': 1, '::': 2, ':::': 3 } as const;

  const fields = (list: ObjectField[], cur: Indent, crowded: boolean): void => {
    const lineUp = cur.lineUp;
    list.forEach((field, i) => {
      if (i > 0) column++; // ,
      const remainder = (): void => {
        if (field.method) params(field.method, cur);
        fill(field.opFodder, false, false, lineUp);
        if (field.superSugar) column++;
        column += HIDE_WIDTH[field.hide];
        visit(field.expr2, newIndent(openFodder(field.expr2), cur, column), true);
      };
      const sep = i > 0 || crowded;
      switch (field.kind) {
        case 'local': {
          fill(field.fodder1, sep, true, cur.lineUp);
          column += 5; // local
          fill(field.fodder2, true, true, cur.lineUp);
          column += utf8Length(field.id ?? '');
          if (field.method) params(field.method, cur);
          fill(field.opFodder, true, true, cur.lineUp);
          column++; // =
          visit(field.expr2, newIndent(openFodder(field.expr2), cur, column), true);
          break;
        }
        case 'id':
          fill(field.fodder1, sep, true, lineUp);
          column += utf8Length(field.id ?? '');
          remainder();
          break;
        case 'str':
          if (field.expr1) visit(field.expr1, cur, sep);
          remainder();
          break;
        case 'expr':
          fill(field.fodder1, sep, true, lineUp);
          column++; // [
          if (field.expr1) visit(field.expr1, cur, false);
          fill(field.fodder2, false, false, lineUp);
          column++; // ]
          remainder();
          break;
        case 'assert': {
          fill(field.fodder1, sep, true, lineUp);
          column += 6; // assert
          const msgIndent = newIndent(openFodder(field.expr2), cur, column + 1);
          visit(field.expr2, cur, true);
          if (field.expr3) {
            fill(field.opFodder, true, true, msgIndent.lineUp);
            column++; // :
            visit(field.expr3, msgIndent, true);
          }
          break;
        }
      }
      fill(field.commaFodder, false, false, lineUp);
    });
  };

  const objectFirstFodder = (list: ObjectField[], closeFodder: Fodder): Fodder => {
    const first = list[0];
    if (!first) return closeFodder;
    return first.kind === 'str' && first.expr1 ? openFodder(first.expr1) : first.fodder1;
  };

  function visit(expr: Node, cur: Indent, crowded: boolean): void {
    fill(expr.fodder, crowded, leftRecursive(expr) === null, cur.lineUp);
    switch (expr.type) {
      case 'apply': {
        const n = expr;
        const targetIndent = align(openFodder(n.target), cur, column + (crowded ? 1 : 0));
        visit(n.target, targetIndent, crowded);
        fill(n.fodderLeft, false, false, targetIndent.lineUp);
        column++; // (
        const firsts = [...n.positional.map((a) => openFodder(a.expr)), ...n.named.map((a) => a.nameFodder)];
        const firstFodder = firsts[0] ?? n.fodderRight;
        // Strong indent when any argument but the first starts a line.
        const strong = firsts.slice(1).some(hasNewline);
        const argIndent = strong ? newIndentStrong(firstFodder, cur, column) : newIndent(firstFodder, cur, column);
        let first = true;
        for (const a of n.positional) {
          if (!first) column++; // ,
          visit(a.expr, argIndent, !first);
          fill(a.commaFodder, false, false, argIndent.lineUp);
          first = false;
        }
        for (const a of n.named) {
          if (!first) column++; // ,
          fill(a.nameFodder, !first, false, argIndent.lineUp);
          column += utf8Length(a.name) + 1; // name=
          visit(a.arg, argIndent, false);
          fill(a.commaFodder, false, false, argIndent.lineUp);
          first = false;
        }
        if (n.trailingComma) column++;
        fillLast(n.fodderRight, false, false, argIndent.lineUp, cur.base);
        column++; // )
        if (n.tailStrict) {
          fill(n.tailStrictFodder, true, true, cur.base);
          column += 10; // tailstrict
        }
        break;
      }
      case 'applyBrace': {
        const leftIndent = align(openFodder(expr.left), cur, column + (crowded ? 1 : 0));
        visit(expr.left, leftIndent, crowded);
        visit(expr.right, leftIndent, true);
        break;
      }
      case 'array': {
        const n = expr;
        column++; // [
        const firstFodder = n.elements.length > 0 ? openFodder(n.elements[0]!.expr) : n.closeFodder;
        const lineUp = column + (padArrays ? 1 : 0);
        const strong = n.elements.slice(1).some((e) => hasNewline(openFodder(e.expr)));
        const inner = strong ? newIndentStrong(firstFodder, cur, lineUp) : newIndent(firstFodder, cur, lineUp);
        n.elements.forEach((e, i) => {
          if (i > 0) column++;
          visit(e.expr, inner, i > 0 || padArrays);
          fill(e.commaFodder, false, false, inner.lineUp);
        });
        if (n.trailingComma) column++;
        fillLast(n.closeFodder, n.elements.length > 0, padArrays, inner.lineUp, cur.base);
        column++; // ]
        break;
      }
      case 'arrayComp': {
        const n = expr;
        column++; // [
        const inner = newIndent(openFodder(n.body), cur, column + (padArrays ? 1 : 0));
        visit(n.body, inner, padArrays);
        fill(n.trailingCommaFodder, false, false, inner.lineUp);
        if (n.trailingComma) column++;
        specs(n.spec, inner);
        fillLast(n.closeFodder, true, padArrays, inner.lineUp, cur.base);
        column++; // ]
        break;
      }
      case 'assert': {
        const n = expr;
        column += 6; // assert
        const inner = newIndent(openFodder(n.cond), cur, column + 1);
        visit(n.cond, inner, true);
        if (n.message) {
          fill(n.colonFodder, true, true, inner.lineUp);
          column++; // :
          visit(n.message, inner, true);
        }
        fill(n.semicolonFodder, false, false, inner.lineUp);
        column++; // ;
        visit(n.rest, cur, true);
        break;
      }
      case 'binary': {
        const n = expr;
        const innerColumn = column + (crowded ? 1 : 0);
        const first = openFodder(n.left);
        // A line break around the operator rebases the operands (strong).
        const inner =
          hasNewline(n.opFodder) || hasNewline(openFodder(n.right))
            ? alignStrong(first, cur, innerColumn)
            : align(first, cur, innerColumn);
        visit(n.left, inner, crowded);
        fill(n.opFodder, true, true, inner.lineUp);
        column += utf8Length(n.op);
        // Same indent for the right operand, so chains `a &&\n b &&\n c` line up.
        visit(n.right, inner, true);
        break;
      }
      case 'conditional': {
        const n = expr;
        column += 2; // if
        visit(n.cond, newIndent(openFodder(n.cond), cur, column + 1), true);
        fill(n.thenFodder, true, true, cur.base);
        column += 4; // then
        visit(n.branchTrue, newIndent(openFodder(n.branchTrue), cur, column + 1), true);
        if (n.branchFalse) {
          fill(n.elseFodder, true, true, cur.base);
          column += 4; // else
          visit(n.branchFalse, newIndent(openFodder(n.branchFalse), cur, column + 1), true);
        }
        break;
      }
      case 'dollar':
        column++;
        break;
      case 'error':
        column += 5;
        visit(expr.expr, newIndent(openFodder(expr.expr), cur, column + 1), true);
        break;
      case 'function':
        column += 8; // function
        params(expr.params, cur);
        visit(expr.body, newIndent(openFodder(expr.body), cur, column + 1), true);
        break;
      case 'import':
        column += expr.keyword.length;
        visit(expr.file, newIndent(openFodder(expr.file), cur, column + 1), true);
        break;
      case 'inSuper':
        visit(expr.index, cur, crowded);
        fill(expr.inFodder, true, true, cur.lineUp);
        column += 2; // in
        fill(expr.superFodder, true, true, cur.lineUp);
        column += 5; // super
        break;
      case 'index': {
        const n = expr;
        visit(n.target, cur, crowded);
        fill(n.leftBracketFodder, false, false, cur.lineUp);
        if (n.id !== null) {
          column++; // .
          const inner = newIndent(n.rightBracketFodder, cur, column);
          fill(n.rightBracketFodder, false, false, inner.lineUp);
          column += utf8Length(n.id);
        } else if (n.index) {
          column++; // [
          const inner = newIndent(openFodder(n.index), cur, column);
          visit(n.index, inner, false);
          fillLast(n.rightBracketFodder, false, false, inner.lineUp, cur.base);
          column++; // ]
        }
        break;
      }
      case 'slice': {
        const n = expr;
        visit(n.target, cur, crowded);
        fill(n.leftBracketFodder, false, false, cur.lineUp);
        column++; // [
        let inner: Indent = cur;
        if (n.beginIndex) {
          inner = newIndent(openFodder(n.beginIndex), cur, column);
          visit(n.beginIndex, inner, false);
        }
        if (n.endIndex) {
          inner = newIndent(n.endColonFodder, cur, column);
          fill(n.endColonFodder, false, false, inner.lineUp);
          column++; // :
          visit(n.endIndex, inner, false);
        }
        if (n.step) {
          if (!n.endIndex) {
            inner = newIndent(n.endColonFodder, cur, column);
            fill(n.endColonFodder, false, false, inner.lineUp);
            column++; // :
          }
          fill(n.stepColonFodder, false, false, inner.lineUp);
          column++; // :
          visit(n.step, inner, false);
        }
        if (!n.beginIndex && !n.endIndex && !n.step) {
          inner = newIndent(n.endColonFodder, cur, column);
          fill(n.endColonFodder, false, false, inner.lineUp);
          column++; // :
        }
        column++; // ]
        break;
      }
      case 'local': {
        const n = expr;
        column += 5; // local
        const inner = newIndent(n.binds[0]!.varFodder, cur, column + 1);
        n.binds.forEach((b, i) => {
          if (i > 0) column++; // ,
          fill(b.varFodder, true, true, inner.lineUp);
          column += utf8Length(b.variable);
          if (b.fun) params(b.fun, inner);
          fill(b.eqFodder, true, true, inner.lineUp);
          column++; // =
          const bodyIndent = newIndent(openFodder(b.body), inner, column + 1);
          visit(b.body, bodyIndent, true);
          fillLast(b.closeFodder, false, false, bodyIndent.lineUp, cur.base);
        });
        column++; // ;
        visit(n.body, cur, true);
        break;
      }
      case 'boolean':
        column += expr.value ? 4 : 5;
        break;
      case 'number':
        column += utf8Length(expr.text);
        break;
      case 'string':
        switch (expr.kind) {
          case 'single':
          case 'double':
            column += 2 + utf8Length(expr.value);
            break;
          case 'block':
            expr.blockIndent = ' '.repeat(cur.base + step);
            expr.blockTermIndent = ' '.repeat(cur.base);
            column = cur.base + 3; // the closing |||
            break;
          case 'verbatimSingle':
          case 'verbatimDouble': {
            const q = expr.kind === 'verbatimSingle' ? "'" : '"';
            // Counted in code points, as jsonnetfmt does for verbatim strings.
            column += 3 + Array.from(expr.value).length + expr.value.split(q).length - 1;
            break;
          }
        }
        break;
      case 'null':
        column += 4;
        break;
      case 'object':
      case 'objectComp': {
        const n = expr;
        column++; // {
        const inner = newIndent(objectFirstFodder(n.fields, n.closeFodder), cur, column + (padObjects ? 1 : 0));
        fields(n.fields, inner, padObjects);
        if (n.trailingComma) column++;
        if (n.type === 'objectComp') specs(n.spec, inner);
        fillLast(n.closeFodder, n.type === 'objectComp' || n.fields.length > 0, padObjects, inner.lineUp, cur.base);
        column++; // }
        break;
      }
      case 'parens': {
        column++; // (
        const inner = newIndentStrong(openFodder(expr.inner), cur, column);
        visit(expr.inner, inner, false);
        fillLast(expr.closeFodder, false, false, inner.lineUp, cur.base);
        column++; // )
        break;
      }
      case 'self':
        column += 4;
        break;
      case 'superIndex': {
        const n = expr;
        column += 5; // super
        fill(n.dotFodder, false, false, cur.lineUp);
        if (n.id !== null) {
          column++; // .
          const inner = newIndent(n.idFodder, cur, column);
          fill(n.idFodder, false, false, inner.lineUp);
          column += utf8Length(n.id);
        } else if (n.index) {
          column++; // [
          const inner = newIndent(openFodder(n.index), cur, column);
          visit(n.index, inner, false);
          fillLast(n.idFodder, false, false, inner.lineUp, cur.base);
          column++; // ]
        }
        break;
      }
      case 'unary': {
        column += utf8Length(expr.op);
        const inner = newIndent(openFodder(expr.expr), cur, column);
        visit(expr.expr, inner, leftmost(expr.expr).type === 'dollar');
        break;
      }
      case 'var':
        column += utf8Length(expr.id);
        break;
    }
  }

  visit(body, { base: start, lineUp: start }, false);
  setIndents(finalFodder, start, start);
}
