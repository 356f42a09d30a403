/**
 * Pass: uses the lightest syntax for field names and lookups
 * (jsonnetfmt --pretty-field-names): x['a'] -> x.a, {['a']: 1} -> {'a': 1},
 * {'a': 1} -> {a: 1}, when the raw literal text is an identifier (keywords
 * and names that need escapes keep their quotes).
 */
import { isJsonnetIdentifier } from '../lexer.js';
import { fodderMoveFront } from './fodder.js';
import type { LiteralString, Node, ObjectField } from './tree.js';

const isIdentifier = isJsonnetIdentifier;

function prettyField(field: ObjectField): void {
  if (field.kind === 'expr' && field.expr1?.type === 'string') {
    const lit: LiteralString = field.expr1;
    field.kind = 'str';
    fodderMoveFront(lit.fodder, field.fodder1);
    fodderMoveFront(field.method ? field.method.parenLeftFodder : field.opFodder, field.fodder2);
  }
  if (field.kind === 'str' && field.expr1?.type === 'string' && isIdentifier(field.expr1.value)) {
    field.kind = 'id';
    field.id = field.expr1.value;
    field.fodder1 = field.expr1.fodder;
    field.expr1 = null;
  }
}

export function prettyFieldNamesAt(n: Node): void {
  if (n.type === 'index' && n.index?.type === 'string' && isIdentifier(n.index.value)) {
    n.id = n.index.value;
    n.rightBracketFodder = n.index.fodder;
    n.index = null;
  } else if (n.type === 'object') {
    // Comprehension fields keep their [e] form (jsonnetfmt 0.18 only rewrites plain objects).
    for (const f of n.fields) prettyField(f);
  }
}
