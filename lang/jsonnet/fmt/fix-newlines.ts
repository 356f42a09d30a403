/**
 * Pass: a bracketed construct is either all on one line or fully expanded.
 * If any element of an array, object, comprehension, parenthesis, local
 * binding list, parameter or argument list starts on a new line (or the
 * closing bracket does), every element (and the closing bracket) gets one.
 * It looks one level deep only: nested constructs decide for themselves.
 */
import { countNewlines, ensureCleanNewline, type Fodder } from './fodder.js';
import { openFodder, type ForSpec, type Node, type ObjectField, type Params, type Apply } from './tree.js';
import { transformTree } from './walk.js';

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
  let expand = fields.some((f) => countNewlines(fieldOpenFodder(f)) > 0);
  if (spec && specWantsExpansion(spec)) expand = true;
  if (countNewlines(closeFodder) > 0) expand = true;
  if (!expand) return;
  for (const f of fields) ensureCleanNewline(fieldOpenFodder(f));
  if (spec) expandSpec(spec);
  ensureCleanNewline(closeFodder);
}

/**
 * A newline before the first item or the closing paren expands "near the
 * parens"; one before a later item expands between items.
 */
function fixList(firsts: Fodder[], right: Fodder): void {
  let between = false;
  let nearParens = false;
  firsts.forEach((f, i) => {
    if (countNewlines(f) > 0) {
      if (i === 0) nearParens = true;
      else between = true;
    }
  });
  if (countNewlines(right) > 0) nearParens = true;
  firsts.forEach((f, i) => {
    if ((i === 0 && nearParens) || (i > 0 && between)) ensureCleanNewline(f);
  });
  if (nearParens) ensureCleanNewline(right);
}

function fixParams(p: Params): void {
  fixList(
    p.params.map((x) => x.nameFodder),
    p.parenRightFodder,
  );
}

function fixArgs(n: Apply): void {
  const firsts = [...n.positional.map((a) => openFodder(a.expr)), ...n.named.map((a) => a.nameFodder)];
  fixList(firsts, n.fodderRight);
}

function fixNode(n: Node): void {
  switch (n.type) {
    case 'array': {
      const expand = n.elements.some((e) => countNewlines(openFodder(e.expr)) > 0) || countNewlines(n.closeFodder) > 0;
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
    case 'local':
      if (n.binds.some((b) => countNewlines(b.varFodder) > 0)) {
        n.binds.forEach((b, i) => {
          if (i > 0) ensureCleanNewline(b.varFodder);
        });
      }
      for (const b of n.binds) if (b.fun) fixParams(b.fun);
      break;
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

export function fixNewlines(body: Node): Node {
  return transformTree(body, (n) => {
    fixNode(n);
    return n;
  });
}
