/**
 * Cleat syntax trees. Every node carries the Span it was parsed from, so any
 * later phase can point at it. Type expressions (TypeExpr) and value
 * expressions (Expr) are separate trees; they meet in `T { ... }`, `where`
 * predicates, defaults, and type-test patterns.
 */
import type { Span } from '../common/source.js';

export interface Node {
  span: Span;
}

// ---- Type expressions -------------------------------------------------------

export type TypeExpr =
  | ({ kind: 'TName'; path: string[] } & Node) // Str, Env, k8s.Deployment, k8s.apps.v1.Deployment
  | ({ kind: 'TLit'; value: LitValue } & Node)
  | ({ kind: 'TList'; elem: TypeExpr } & Node)
  | ({ kind: 'TTuple'; elems: TypeExpr[] } & Node)
  | ({ kind: 'TMap'; value: TypeExpr } & Node)
  | ({ kind: 'TRecord'; fields: FieldDecl[]; open: boolean } & Node)
  | ({ kind: 'TUnion'; members: TypeExpr[] } & Node)
  | ({ kind: 'TWhere'; base: TypeExpr; pred: Expr } & Node)
  | ({ kind: 'TWith'; base: TypeExpr; entries: TypeWithEntry[] } & Node);

export interface FieldDecl extends Node {
  name: string;
  nameSpan: Span;
  optional: boolean;
  type: TypeExpr;
  default?: Expr;
}

/** A literal as written: strings, booleans, null, ints (bigint) and floats (number). */
export type LitValue = null | boolean | bigint | number | string;

/** One step of a path in `with` entries. */
export type PathSeg =
  | ({ kind: 'field'; name: string } & Node)
  | ({ kind: 'each' } & Node) // `[]`
  | ({ kind: 'index'; index: Expr } & Node) // `[0]`
  | ({ kind: 'select'; keys: { name: string; value: Expr; span: Span }[] } & Node); // `[name: "api"]`

export type TypeWithEntry =
  | ({ kind: 'predicate'; path: PathSeg[]; pred: Expr } & Node)
  | ({ kind: 'replace'; path: PathSeg[]; type: TypeExpr; default?: Expr } & Node)
  | ({ kind: 'remove'; path: PathSeg[] } & Node);

// ---- Expressions ------------------------------------------------------------

export type Expr =
  | ({ kind: 'Lit'; value: LitValue } & Node)
  | ({ kind: 'Str'; parts: (string | Expr)[] } & Node)
  | ({ kind: 'Var'; name: string } & Node)
  | ({ kind: 'Self' } & Node)
  | ({ kind: 'List'; items: ListItem[] } & Node)
  | ({ kind: 'Tuple'; elems: Expr[] } & Node)
  | ({ kind: 'Object'; members: Member[] } & Node)
  | ({ kind: 'Field'; target: Expr; name: string; nameSpan: Span } & Node)
  | ({ kind: 'TupleIndex'; target: Expr; index: number } & Node)
  | ({ kind: 'Index'; target: Expr; index: Expr } & Node)
  | ({ kind: 'Call'; callee: Expr; args: Arg[] } & Node)
  | ({ kind: 'Construct'; type: TypeExpr; body: Expr } & Node)
  | ({ kind: 'Unary'; op: '-' | '!'; operand: Expr } & Node)
  | ({ kind: 'Binary'; op: BinaryOp; left: Expr; right: Expr } & Node)
  | ({ kind: 'If'; cond: Expr; then: Expr; else?: Expr } & Node)
  | ({ kind: 'Let'; name: string; type?: TypeExpr; value: Expr; body: Expr } & Node)
  | ({ kind: 'Match'; scrutinee: Expr; arms: MatchArm[] } & Node)
  | ({ kind: 'Patch'; target: Expr; entries: PatchEntry[] } & Node);

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||' | '??';

export interface Arg extends Node {
  name?: string;
  value: Expr;
}

export type ListItem =
  | ({ kind: 'item'; value: Expr } & Node)
  | ({ kind: 'spread'; value: Expr } & Node)
  | ({ kind: 'if'; cond: Expr; then: ListItem; else?: ListItem } & Node)
  | ({ kind: 'for'; key?: string; name: string; source: Expr; body: ListItem } & Node);

/** A key in an object literal: a name, a quoted string, or a computed `[expr]`. */
export type KeySeg = ({ kind: 'name'; name: string } & Node) | ({ kind: 'computed'; expr: Expr } & Node);

export type Member =
  | ({ kind: 'field'; path: KeySeg[]; value: Expr } & Node)
  | ({ kind: 'spread'; value: Expr } & Node)
  | ({ kind: 'if'; cond: Expr; then: Expr; else?: Expr } & Node)
  | ({ kind: 'for'; key?: string; name: string; source: Expr; body: Expr } & Node);

export interface MatchArm extends Node {
  pattern: Pattern;
  body: Expr;
}

export type Pattern =
  | ({ kind: 'PWild' } & Node)
  | ({ kind: 'PBind'; name: string; type?: TypeExpr } & Node)
  | ({ kind: 'PLit'; value: LitValue } & Node)
  | ({ kind: 'PTuple'; elems: Pattern[] } & Node)
  | ({ kind: 'PRecord'; fields: { name: string; pattern: Pattern; span: Span }[]; open: boolean } & Node);

export type PatchEntry =
  | ({ kind: 'set'; path: PathSeg[]; value: Expr } & Node)
  | ({ kind: 'merge'; path: PathSeg[]; value: Expr } & Node)
  | ({ kind: 'remove'; path: PathSeg[] } & Node);

// ---- Items -----------------------------------------------------------------

export interface Param extends Node {
  name: string;
  type: TypeExpr;
  default?: Expr;
}

export type ImportForm =
  | { kind: 'namespace'; alias: string }
  | { kind: 'named'; names: { path: string[]; alias: string; span: Span }[] }
  | { kind: 'default'; alias: string };

export type Item =
  | ({ kind: 'TypeDecl'; name: string; type: TypeExpr } & Node)
  | ({ kind: 'Input'; name: string; type: TypeExpr; default?: Expr } & Node)
  | ({ kind: 'LetDecl'; name: string; type?: TypeExpr; value: Expr } & Node)
  | ({ kind: 'FnDecl'; name: string; params: Param[]; result?: TypeExpr; body: Expr } & Node)
  | ({ kind: 'Export'; name?: string; after: { name: string; span: Span }[]; value: Expr } & Node)
  | ({ kind: 'Import'; form: ImportForm; path: string; pathSpan: Span; attrType?: string; attrSpan?: Span } & Node)
  | ({ kind: 'Refine'; target: string[]; entries: TypeWithEntry[] } & Node);

export interface Program {
  items: Item[];
}
