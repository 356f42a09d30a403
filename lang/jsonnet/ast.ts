/**
 * The Jsonnet abstract syntax tree. Invariants: every node keeps its span
 * (SourceFile + [start, end) offsets) and, when parsed with `{ fodder: true }`,
 * the fodder of its first token;
 * `ctx` (the trace frame name, as go-jsonnet's addContext computes it) and
 * variable slots (`depth`/`index` on Var and Dollar, frame sizes on objects)
 * are filled in by the static analyzer before evaluation. `a { b }` is parsed
 * as Binary '+', `a.b` as Index with a string index, `local f(x) = e` as a
 * bind whose body is a Function, exactly like go-jsonnet's desugarer does.
 */
import type { Span } from '../common/source.js';
import type { Code, TailCode } from './compile.js';
import type { FodderItem } from './lexer.js';

interface Base {
  span: Span;
  /** Comments and whitespace before the node's first token: only with parse(file, { fodder: true }). */
  fodder?: FodderItem[];
  /** Trace frame name; set by the static analyzer. */
  ctx: string;
  /** End offset of the outermost parentheses around this node (spans of enclosing nodes use it). */
  parenEnd?: number;
  parenStart?: number;
  /** Evaluator: the node compiled to a closure (compile.ts), made on its first evaluation. */
  code?: Code;
}

export type Hide = 'inherit' | 'hidden' | 'visible';

export interface LiteralNull extends Base {
  type: 'Null';
}
export interface LiteralBool extends Base {
  type: 'Bool';
  value: boolean;
}
export interface LiteralNumber extends Base {
  type: 'Number';
  value: number;
  text: string;
}
export interface LiteralString extends Base {
  type: 'String';
  value: string;
  /** How it was written, for a formatter. */
  style: 'double' | 'single' | 'block' | 'verbatimDouble' | 'verbatimSingle' | 'id';
}
export interface Self extends Base {
  type: 'Self';
}
/** `$`: resolved to the outermost object's frame slot. */
export interface Dollar extends Base {
  type: 'Dollar';
  depth: number;
  index: number;
}
export interface Var extends Base {
  type: 'Var';
  name: string;
  depth: number;
  index: number;
}
/** `super.f` / `super[e]`. */
export interface SuperIndex extends Base {
  type: 'SuperIndex';
  index: Node;
}
/** `e in super`. */
export interface InSuper extends Base {
  type: 'InSuper';
  index: Node;
}

export interface ArrayLit extends Base {
  type: 'Array';
  elements: Node[];
}

export type CompSpec =
  { kind: 'for'; varName: string; span: Span; expr: Node } | { kind: 'if'; span: Span; cond: Node };

export interface ArrayComp extends Base {
  type: 'ArrayComp';
  body: Node;
  specs: CompSpec[];
}

export interface Bind {
  name: string;
  span: Span;
  body: Node;
}

export interface Param {
  name: string;
  span: Span;
  defaultValue: Node | null;
}

export interface ObjField {
  /** Identifier or string-literal names are known statically; `[e]` names are computed. */
  name: string | null;
  nameExpr: Node | null;
  hide: Hide;
  plus: boolean;
  body: Node;
  span: Span;
}

export interface ObjAssert {
  cond: Node;
  msg: Node | null;
  span: Span;
}

export interface ObjectLit extends Base {
  type: 'Object';
  fields: ObjField[];
  locals: Bind[];
  asserts: ObjAssert[];
  /** Analyzer: slots in the per-instance frame (locals, then `$` if outermost) (every object has one, maybe empty: self is bound there). */
  frameSize: number;
  dollarIndex: number;
}

export interface ObjectComp extends Base {
  type: 'ObjectComp';
  field: ObjField;
  locals: Bind[];
  specs: CompSpec[];
  frameSize: number;
  dollarIndex: number;
}

export interface Local extends Base {
  type: 'Local';
  binds: Bind[];
  body: Node;
}

export interface FunctionLit extends Base {
  type: 'Function';
  params: Param[];
  body: Node;
  /** Evaluator: the body compiled for `tailstrict` frames (compile.ts), made on first such call. */
  tailCode?: TailCode;
}

export interface NamedArg {
  name: string;
  span: Span;
  value: Node;
}

export interface Apply extends Base {
  type: 'Apply';
  target: Node;
  positional: Node[];
  named: NamedArg[];
  tailstrict: boolean;
}

export type BinaryOp =
  | '*'
  | '/'
  | '%'
  | '+'
  | '-'
  | '<<'
  | '>>'
  | '<'
  | '<='
  | '>'
  | '>='
  | '=='
  | '!='
  | 'in'
  | '&'
  | '^'
  | '|'
  | '&&'
  | '||';
export type UnaryOp = '!' | '~' | '+' | '-';

export interface Binary extends Base {
  type: 'Binary';
  op: BinaryOp;
  left: Node;
  right: Node;
}
export interface Unary extends Base {
  type: 'Unary';
  op: UnaryOp;
  expr: Node;
}
export interface Conditional extends Base {
  type: 'Conditional';
  cond: Node;
  then: Node;
  else: Node | null;
}
export interface ErrorExpr extends Base {
  type: 'Error';
  expr: Node;
}
export interface AssertExpr extends Base {
  type: 'Assert';
  cond: Node;
  msg: Node | null;
  rest: Node;
}
export interface Index extends Base {
  type: 'Index';
  target: Node;
  index: Node;
  id: string | null;
}
export interface Slice extends Base {
  type: 'Slice';
  target: Node;
  begin: Node | null;
  end: Node | null;
  step: Node | null;
}
export interface Import extends Base {
  type: 'Import';
  kind: 'import' | 'importstr' | 'importbin';
  path: string;
}

export type Node =
  | LiteralNull
  | LiteralBool
  | LiteralNumber
  | LiteralString
  | Self
  | Dollar
  | Var
  | SuperIndex
  | InSuper
  | ArrayLit
  | ArrayComp
  | ObjectLit
  | ObjectComp
  | Local
  | FunctionLit
  | Apply
  | Binary
  | Unary
  | Conditional
  | ErrorExpr
  | AssertExpr
  | Index
  | Slice
  | Import;

/** Direct children, in source order (for generic walks such as import collection). */
export function children(node: Node): Node[] {
  switch (node.type) {
    case 'Null':
    case 'Bool':
    case 'Number':
    case 'String':
    case 'Self':
    case 'Dollar':
    case 'Var':
    case 'Import':
      return [];
    case 'SuperIndex':
    case 'InSuper':
      return [node.index];
    case 'Array':
      return node.elements;
    case 'ArrayComp':
      return [...specNodes(node.specs), node.body];
    case 'Object': {
      const out: Node[] = [];
      for (const l of node.locals) out.push(l.body);
      for (const a of node.asserts) {
        out.push(a.cond);
        if (a.msg) out.push(a.msg);
      }
      for (const f of node.fields) {
        if (f.nameExpr) out.push(f.nameExpr);
        out.push(f.body);
      }
      return out;
    }
    case 'ObjectComp': {
      const out = specNodes(node.specs);
      for (const l of node.locals) out.push(l.body);
      if (node.field.nameExpr) out.push(node.field.nameExpr);
      out.push(node.field.body);
      return out;
    }
    case 'Local':
      return [...node.binds.map((b) => b.body), node.body];
    case 'Function':
      return [...node.params.flatMap((p) => (p.defaultValue ? [p.defaultValue] : [])), node.body];
    case 'Apply':
      return [node.target, ...node.positional, ...node.named.map((a) => a.value)];
    case 'Binary':
      return [node.left, node.right];
    case 'Unary':
      return [node.expr];
    case 'Conditional':
      return node.else ? [node.cond, node.then, node.else] : [node.cond, node.then];
    case 'Error':
      return [node.expr];
    case 'Assert':
      return node.msg ? [node.cond, node.msg, node.rest] : [node.cond, node.rest];
    case 'Index':
      return [node.target, node.index];
    case 'Slice':
      return [node.target, ...[node.begin, node.end, node.step].filter((n): n is Node => n !== null)];
  }
}

function specNodes(specs: CompSpec[]): Node[] {
  return specs.map((s) => (s.kind === 'for' ? s.expr : s.cond));
}
