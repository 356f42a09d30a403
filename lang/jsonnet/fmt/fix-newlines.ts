/**
 * Pass: a bracketed construct is either all on one line or fully expanded.
 * If any element of an array, object, comprehension, parenthesis, local
 * binding list, parameter or argument list starts on a new line (or the
 * closing bracket does), every element (and the closing bracket) gets one.
 * It looks one level deep only: nested constructs decide for themselves.
 */
import { countNewlines, ensureCleanNewline, type Fodder } from './fodder.js';
import { argFodder, openFodder, type ForSpec, type Node, type ObjectField, type Params, type Apply } from './tree.js';

function fieldOpenFodder(f: ObjectField): Fodder {
  return f.kind === 'str' && f.expr1 ? openFodder(f.expr1) : f.fodder1;
}

function specWantsExpansion(spec: ForSpec): boolean {
  let expand = spec.outer ? specWantsExpansion(spec.outer) : false;
  if (countNewlines(spec.forFodder) > 0) expand = true;
  for (const c of spec.conditions) if (countNewlines(c.ifFodder) > 0) expand = true;
  return expand;
}

function expandSpec(spec: ForSpec): void {
  if (spec.outer) expandSpec(spec.outer);
  ensureCleanNewline(spec.forFodder);
  for (const c of spec.conditions) ensureCleanNewline(c.ifFodder);
}

function fixFields(fields: ObjectField[], closeFodder: Fodder, spec: ForSpec | null): void {
  let expand = false;
  for (let i = 0; i < fields.length && !expand; i++) expand = countNewlines(fieldOpenFodder(fields[i]!)) > 0;
  if (spec && specWantsExpansion(spec)) expand = true;
  if (countNewlines(closeFodder) > 0) expand = true;
  if (!expand) return;
  for (const f of fields) ensureCleanNewline(fieldOpenFodder(f));
  if (spec) expandSpec(spec);
  ensureCleanNewline(closeFodder);
}

/**
 * A newline before the first item or the closing paren expands "near the
 * parens"; one before a later item expands between items. `item(owner, i)`
 * is the fodder before item i (a function, not an array: this runs for every
 * call and function of the file).
 */
function fixList<T>(owner: T, count: number, item: (owner: T, i: number) => Fodder, right: Fodder): void {
  let between = false;
  let nearParens = false;
  for (let i = 0; i < count; i++) {
    if (countNewlines(item(owner, i)) > 0) {
      if (i === 0) nearParens = true;
      else between = true;
    }
  }
  if (countNewlines(right) > 0) nearParens = true;
  for (let i = 0; i < count; i++) {
    if ((i === 0 && nearParens) || (i > 0 && between)) ensureCleanNewline(item(owner, i));
  }
  if (nearParens) ensureCleanNewline(right);
}

function paramFodder(p: Params, i: number): Fodder {
  return p.params[i]!.nameFodder;
}

function fixParams(p: Params): void {
  fixList(p, p.params.length, paramFodder, p.parenRightFodder);
}

function fixArgs(n: Apply): void {
  fixList(n, n.positional.length + n.named.length, argFodder, n.fodderRight);
}

/** Applies the rule to one node (its direct items); the caller walks the tree, top-down. */
export function fixNewlinesAt(n: Node): void {
  switch (n.type) {
    case 'array': {
      let expand = countNewlines(n.closeFodder) > 0;
      for (let i = 0; i < n.elements.length && !expand; i++)
        expand = countNewlines(openFodder(n.elements[i]!.expr)) > 0;
      if (expand) {
        for (const e of n.elements) ensureCleanNewline(openFodder(e.expr));
        ensureCleanNewline(n.closeFodder);
      }
      break;
    }
    case 'object':
      fixFields(n.fields, n.closeFodder, null);
      for (const f of n.fields) if (f.method) fixParams(f.method);
      break;
    case 'objectComp':
      fixFields(n.fields, n.closeFodder, n.spec);
      for (const f of n.fields) if (f.method) fixParams(f.method);
      break;
    case 'arrayComp': {
      const expand =
        countNewlines(openFodder(n.body)) > 0 || specWantsExpansion(n.spec) || countNewlines(n.closeFodder) > 0;
      if (expand) {
        ensureCleanNewline(openFodder(n.body));
        expandSpec(n.spec);
        ensureCleanNewline(n.closeFodder);
      }
      break;
    }
    case 'parens':
      if (countNewlines(openFodder(n.inner)) > 0 || countNewlines(n.closeFodder) > 0) {
        ensureCleanNewline(openFodder(n.inner));
        ensureCleanNewline(n.closeFodder);
      }
      break;
    case 'local': {
      let expand = false;
      for (let i = 0; i < n.binds.length && !expand; i++) expand = countNewlines(n.binds[i]!.varFodder) > 0;
      if (expand) for (let i = 1; i < n.binds.length; i++) ensureCleanNewline(n.binds[i]!.varFodder);
      for (const b of n.binds) if (b.fun) fixParams(b.fun);
      break;
    }
    case 'function':
      fixParams(n.params);
      break;
    case 'apply':
      fixArgs(n);
      break;
    default:
      break;
  }
}
