/**
 * The formatter's syntax tree. It is separate from the evaluator's AST
 * (../ast.ts) because jsonnetfmt's output depends on the comments and line
 * breaks at every token of a construct (before `then`, around `=`, before each
 * `,` and `)`...), while the evaluator's AST keeps only each node's first token
 * fodder and desugars freely. Every token slot therefore has its own Fodder
 * array here, named after go-jsonnet's AST fields so the passes read alike.
 * Invariants: each Fodder array belongs to exactly one slot (passes mutate
 * them in place); left-recursive nodes (apply, index, binary...) keep an empty
 * `fodder`: their first token's fodder lives in their leftmost child.
 */
import type { Fodder } from './fodder.js';

export interface Base {
  fodder: Fodder;
}

export interface CommaSeparatedExpr {
  expr: Node;
  commaFodder: Fodder;
}

export interface NamedArgument {
  nameFodder: Fodder;
  name: string;
  eqFodder: Fodder;
  arg: Node;
  commaFodder: Fodder;
}

export interface Parameter {
  nameFodder: Fodder;
  name: string;
  eqFodder: Fodder;
  defaultArg: Node | null;
  commaFodder: Fodder;
}

/** The parameter list of a function, method or local function sugar. */
export interface Params {
  parenLeftFodder: Fodder;
  params: Parameter[];
  trailingComma: boolean;
  parenRightFodder: Fodder;
}

export interface IfSpec {
  ifFodder: Fodder;
  expr: Node;
}

export interface ForSpec {
  forFodder: Fodder;
  varFodder: Fodder;
  varName: string;
  inFodder: Fodder;
  expr: Node;
  conditions: IfSpec[];
  outer: ForSpec | null;
}

export type Hide = ':' | '::' | ':::';

export interface ObjectField {
  kind: 'assert' | 'id' | 'expr' | 'str' | 'local';
  hide: Hide;
  superSugar: boolean;
  method: Params | null;
  /** id / `[` / `local` / `assert` fodder. */
  fodder1: Fodder;
  /** `]` fodder for [e] fields, the name's fodder for locals. */
  fodder2: Fodder;
  id: string | null;
  /** [e] or "str" field name. */
  expr1: Node | null;
  /** `:` / `=` fodder (the message colon for asserts). */
  opFodder: Fodder;
  /** Body (the condition for asserts). */
  expr2: Node;
  /** Assert message. */
  expr3: Node | null;
  commaFodder: Fodder;
}

export interface LocalBind {
  varFodder: Fodder;
  variable: string;
  fun: Params | null;
  eqFodder: Fodder;
  body: Node;
  closeFodder: Fodder;
}

export type StringKind = 'single' | 'double' | 'block' | 'verbatimDouble' | 'verbatimSingle';

export interface Apply extends Base {
  type: 'apply';
  target: Node;
  fodderLeft: Fodder;
  positional: CommaSeparatedExpr[];
  named: NamedArgument[];
  trailingComma: boolean;
  fodderRight: Fodder;
  tailStrict: boolean;
  tailStrictFodder: Fodder;
}
export interface ApplyBrace extends Base {
  type: 'applyBrace';
  left: Node;
  right: ObjectNode;
}
export interface ArrayNode extends Base {
  type: 'array';
  elements: CommaSeparatedExpr[];
  trailingComma: boolean;
  closeFodder: Fodder;
}
export interface ArrayComp extends Base {
  type: 'arrayComp';
  body: Node;
  trailingComma: boolean;
  trailingCommaFodder: Fodder;
  spec: ForSpec;
  closeFodder: Fodder;
}
export interface Assert extends Base {
  type: 'assert';
  cond: Node;
  colonFodder: Fodder;
  message: Node | null;
  semicolonFodder: Fodder;
  rest: Node;
}
export interface Binary extends Base {
  type: 'binary';
  left: Node;
  opFodder: Fodder;
  op: string;
  right: Node;
}
export interface Conditional extends Base {
  type: 'conditional';
  cond: Node;
  thenFodder: Fodder;
  branchTrue: Node;
  elseFodder: Fodder;
  branchFalse: Node | null;
}
export interface Dollar extends Base {
  type: 'dollar';
}
export interface ErrorNode extends Base {
  type: 'error';
  expr: Node;
}
export interface FunctionNode extends Base {
  type: 'function';
  params: Params;
  body: Node;
}
export interface Import extends Base {
  type: 'import';
  keyword: 'import' | 'importstr' | 'importbin';
  file: LiteralString;
}
export interface Index extends Base {
  type: 'index';
  target: Node;
  /** `[` or `.` fodder. */
  leftBracketFodder: Fodder;
  index: Node | null;
  id: string | null;
  /** `]` fodder, or the field name's fodder after `.`. */
  rightBracketFodder: Fodder;
}
export interface Slice extends Base {
  type: 'slice';
  target: Node;
  leftBracketFodder: Fodder;
  beginIndex: Node | null;
  endColonFodder: Fodder;
  endIndex: Node | null;
  stepColonFodder: Fodder;
  step: Node | null;
  rightBracketFodder: Fodder;
}
export interface InSuper extends Base {
  type: 'inSuper';
  index: Node;
  inFodder: Fodder;
  superFodder: Fodder;
}
export interface Local extends Base {
  type: 'local';
  binds: LocalBind[];
  body: Node;
}
export interface LiteralBoolean extends Base {
  type: 'boolean';
  value: boolean;
}
export interface LiteralNull extends Base {
  type: 'null';
}
export interface LiteralNumber extends Base {
  type: 'number';
  text: string;
}
export interface LiteralString extends Base {
  type: 'string';
  kind: StringKind;
  /** Quoted kinds: the raw text between the quotes (escapes kept); others: the value. */
  value: string;
  blockIndent: string;
  blockTermIndent: string;
}
export interface ObjectNode extends Base {
  type: 'object';
  fields: ObjectField[];
  trailingComma: boolean;
  closeFodder: Fodder;
}
export interface ObjectComp extends Base {
  type: 'objectComp';
  fields: ObjectField[];
  trailingComma: boolean;
  spec: ForSpec;
  closeFodder: Fodder;
}
export interface Parens extends Base {
  type: 'parens';
  inner: Node;
  closeFodder: Fodder;
}
export interface Self extends Base {
  type: 'self';
}
export interface SuperIndex extends Base {
  type: 'superIndex';
  dotFodder: Fodder;
  index: Node | null;
  id: string | null;
  idFodder: Fodder;
}
export interface Unary extends Base {
  type: 'unary';
  op: string;
  expr: Node;
}
export interface Var extends Base {
  type: 'var';
  id: string;
}

export type Node =
  | Apply
  | ApplyBrace
  | ArrayNode
  | ArrayComp
  | Assert
  | Binary
  | Conditional
  | Dollar
  | ErrorNode
  | FunctionNode
  | Import
  | Index
  | Slice
  | InSuper
  | Local
  | LiteralBoolean
  | LiteralNull
  | LiteralNumber
  | LiteralString
  | ObjectNode
  | ObjectComp
  | Parens
  | Self
  | SuperIndex
  | Unary
  | Var;

/** The left operand of a left-recursive node (whose text starts with it), else null. */
export function leftRecursive(node: Node): Node | null {
  switch (node.type) {
    case 'apply':
      return node.target;
    case 'applyBrace':
      return node.left;
    case 'binary':
      return node.left;
    case 'index':
      return node.target;
    case 'inSuper':
      return node.index;
    case 'slice':
      return node.target;
    default:
      return null;
  }
}

/** The node whose first token is the first token of `node`. */
export function leftmost(node: Node): Node {
  let n = node;
  for (let l = leftRecursive(n); l; l = leftRecursive(n)) n = l;
  return n;
}

/** The fodder before the first token of `node`. */
export function openFodder(node: Node): Fodder {
  return leftmost(node).fodder;
}

/** The fodder before argument `i` of a call (positional ones first, then named). */
export function argFodder(n: Apply, i: number): Fodder {
  const p = n.positional.length;
  return i < p ? openFodder(n.positional[i]!.expr) : n.named[i - p]!.nameFodder;
}
