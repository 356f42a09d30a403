/** The syntax tree of the KCL subset (docs/kcl.md). Every node keeps its line and column. */

export interface Loc {
  readonly line: number;
  readonly col: number;
}

export type TypeExpr =
  | { readonly t: 'any' }
  | { readonly t: 'basic'; readonly name: 'int' | 'float' | 'str' | 'bool' | 'None' }
  | { readonly t: 'list'; readonly item: TypeExpr }
  | { readonly t: 'dict'; readonly key: TypeExpr; readonly value: TypeExpr }
  | { readonly t: 'named'; readonly path: readonly string[]; readonly loc: Loc }
  | { readonly t: 'literal'; readonly value: string | number | boolean }
  | { readonly t: 'union'; readonly types: readonly TypeExpr[] }
  /** A function type `(A, B) -> R`: the value must be a function (parameter types are not checked). */
  | { readonly t: 'func' };

export type ConfigOp = 'union' | 'override' | 'insert';

export type ConfigEntry =
  | {
      readonly kind: 'entry';
      /** A literal key path (`a.b.c`, `"x"`), or an expression key (comprehension keys, `[expr]`). */
      readonly path?: readonly string[];
      readonly keyExpr?: Expr;
      readonly op: ConfigOp;
      readonly value: Expr;
      readonly loc: Loc;
    }
  | { readonly kind: 'unpack'; readonly value: Expr; readonly loc: Loc }
  | {
      readonly kind: 'if';
      readonly branches: readonly { readonly test?: Expr; readonly entries: readonly ConfigEntry[] }[];
      readonly loc: Loc;
    };

export type ListItem =
  | { readonly kind: 'item'; readonly value: Expr }
  | { readonly kind: 'unpack'; readonly value: Expr }
  | {
      readonly kind: 'if';
      readonly branches: readonly { readonly test?: Expr; readonly items: readonly ListItem[] }[];
    };

export interface CompClause {
  readonly targets: readonly string[];
  readonly iter: Expr;
  readonly ifs: readonly Expr[];
}

export interface Param {
  readonly name: string;
  readonly type?: TypeExpr;
  readonly default?: Expr;
}

export interface StringPart {
  readonly text?: string;
  readonly expr?: Expr;
  /** `${x: #json}` / `#yaml` format spec. */
  readonly spec?: string;
}

export type Expr = (
  | { readonly k: 'name'; readonly name: string }
  | { readonly k: 'lit'; readonly value: null | boolean | number | string | 'Undefined' }
  | { readonly k: 'float'; readonly value: number }
  | { readonly k: 'str'; readonly parts: readonly StringPart[] }
  | { readonly k: 'list'; readonly items: readonly ListItem[] }
  | { readonly k: 'listcomp'; readonly elt: Expr; readonly clauses: readonly CompClause[] }
  | { readonly k: 'config'; readonly entries: readonly ConfigEntry[] }
  | {
      readonly k: 'dictcomp';
      readonly key: Expr;
      readonly value: Expr;
      readonly op: ConfigOp;
      readonly clauses: readonly CompClause[];
    }
  | { readonly k: 'select'; readonly value: Expr; readonly attr: string; readonly optional: boolean }
  | { readonly k: 'index'; readonly value: Expr; readonly index: Expr; readonly optional: boolean }
  | {
      readonly k: 'slice';
      readonly value: Expr;
      readonly lo?: Expr;
      readonly hi?: Expr;
      readonly step?: Expr;
    }
  | {
      readonly k: 'call';
      readonly fn: Expr;
      readonly args: readonly Expr[];
      readonly kwargs: readonly { readonly name: string; readonly value: Expr }[];
    }
  /** `Name {config}` / `value {config}`: schema instantiation, or a config merged into a value. */
  | { readonly k: 'schema'; readonly target: Expr; readonly args?: readonly Expr[]; readonly config: Expr }
  | { readonly k: 'unary'; readonly op: string; readonly operand: Expr }
  | { readonly k: 'binary'; readonly op: string; readonly left: Expr; readonly right: Expr }
  | { readonly k: 'compare'; readonly ops: readonly string[]; readonly operands: readonly Expr[] }
  | { readonly k: 'ifexpr'; readonly test: Expr; readonly then: Expr; readonly else?: Expr }
  | {
      readonly k: 'lambda';
      readonly params: readonly Param[];
      readonly ret?: TypeExpr;
      readonly body: readonly Stmt[];
    }
  | {
      readonly k: 'quant';
      readonly op: 'all' | 'any' | 'filter' | 'map';
      readonly targets: readonly string[];
      readonly iter: Expr;
      readonly body: Expr;
      readonly test?: Expr;
    }
  | { readonly k: 'paren'; readonly expr: Expr }
) &
  Loc;

/** A declared attribute (`name?: T`); its default is the first body statement that assigns it. */
export interface SchemaAttr {
  readonly name: string;
  readonly optional: boolean;
  readonly type?: TypeExpr;
  readonly loc: Loc;
}

/** `if` conditions around a body statement: every earlier branch false, this one's test true. */
export interface SchemaGuard {
  readonly prior: readonly Expr[];
  readonly test?: Expr;
}

/**
 * A statement of a schema body that gives an attribute (or a `_private` name) its value:
 * `a: T = v`, `a = v`, `a.b.c = v` (merged into a's value), `a += [..]`, possibly inside `if` blocks.
 */
export interface SchemaAssign {
  readonly name: string;
  readonly path: readonly string[];
  readonly op: ConfigOp;
  readonly value: Expr;
  readonly guards: readonly SchemaGuard[];
  readonly loc: Loc;
}

export interface CheckItem {
  readonly test: Expr;
  readonly guard?: Expr;
  readonly message?: Expr;
  readonly loc: Loc;
}

export interface SchemaDef {
  readonly name: string;
  readonly base?: Expr;
  readonly attrs: readonly SchemaAttr[];
  /** Value statements of the body in order (defaults, overrides of base defaults, `_private` names). */
  readonly body: readonly SchemaAssign[];
  readonly indexSignature?: {
    readonly keyName?: string;
    readonly key: TypeExpr;
    readonly value: TypeExpr;
    readonly any: boolean;
  };
  readonly checks: readonly CheckItem[];
  readonly loc: Loc;
}

export type Stmt = (
  | { readonly s: 'import'; readonly path: string; readonly asName: string }
  | {
      readonly s: 'assign';
      readonly target: string;
      readonly type?: TypeExpr;
      readonly value: Expr;
      readonly op?: string;
    }
  /** `name: Schema {config}`: every such statement of a name unifies into one instance. */
  | { readonly s: 'unify'; readonly target: string; readonly value: Expr }
  | { readonly s: 'schema'; readonly def: SchemaDef }
  | { readonly s: 'if'; readonly branches: readonly { readonly test?: Expr; readonly body: readonly Stmt[] }[] }
  | { readonly s: 'assert'; readonly test: Expr; readonly guard?: Expr; readonly message?: Expr }
  | { readonly s: 'expr'; readonly expr: Expr }
  | { readonly s: 'type'; readonly name: string; readonly type: TypeExpr }
) &
  Loc;

export interface Module {
  readonly file: string;
  readonly text: string;
  readonly body: readonly Stmt[];
}
