/**
 * Parse-tree nodes, as in Go's text/template/parse node.go. Every node keeps
 * its UTF-16 offset `pos` and its tree (for error locations); `nodeString`
 * reproduces Go's Node.String(), which exec errors quote as `at <...>`.
 */

export interface Tree {
  /** Template name (the `define`d name, or the file's). */
  name: string;
  /** Name of the top-level template being parsed: the prefix of error locations. */
  parseName: string;
  /** Full source the positions refer to. */
  text: string;
  root: ListNode;
}

interface Base {
  pos: number;
  tree: Tree;
}

export interface ListNode extends Base {
  type: 'list';
  nodes: Node[];
}
export interface TextNode extends Base {
  type: 'text';
  text: string;
}
export interface CommentNode extends Base {
  type: 'comment';
  text: string;
}
export interface PipeNode extends Base {
  type: 'pipe';
  isAssign: boolean;
  decl: VariableNode[];
  cmds: CommandNode[];
}
export interface ActionNode extends Base {
  type: 'action';
  pipe: PipeNode;
}
export interface CommandNode extends Base {
  type: 'command';
  args: Node[];
}
export interface IdentifierNode extends Base {
  type: 'identifier';
  ident: string;
}
export interface VariableNode extends Base {
  type: 'variable';
  ident: string[];
}
export interface DotNode extends Base {
  type: 'dot';
}
export interface NilNode extends Base {
  type: 'nil';
}
export interface FieldNode extends Base {
  type: 'field';
  ident: string[];
}
export interface ChainNode extends Base {
  type: 'chain';
  node: Node;
  field: string[];
}
export interface BoolNode extends Base {
  type: 'bool';
  value: boolean;
}
export interface NumberNode extends Base {
  type: 'number';
  isInt: boolean;
  isUint: boolean;
  isFloat: boolean;
  isComplex: boolean;
  int64: bigint;
  float64: number;
  text: string;
}
export interface StringNode extends Base {
  type: 'string';
  quoted: string;
  text: string;
}
export interface EndNode extends Base {
  type: 'end';
}
export interface ElseNode extends Base {
  type: 'else';
}
export interface BranchNode extends Base {
  type: 'if' | 'range' | 'with';
  pipe: PipeNode;
  list: ListNode;
  elseList: ListNode | undefined;
}
export interface TemplateNode extends Base {
  type: 'template';
  name: string;
  pipe: PipeNode | undefined;
}
export interface BreakNode extends Base {
  type: 'break';
}
export interface ContinueNode extends Base {
  type: 'continue';
}

export type Node =
  | ListNode
  | TextNode
  | CommentNode
  | PipeNode
  | ActionNode
  | CommandNode
  | IdentifierNode
  | VariableNode
  | DotNode
  | NilNode
  | FieldNode
  | ChainNode
  | BoolNode
  | NumberNode
  | StringNode
  | EndNode
  | ElseNode
  | BranchNode
  | TemplateNode
  | BreakNode
  | ContinueNode;

function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, '\\x$1');
}

function argString(n: Node): string {
  return n.type === 'pipe' ? '(' + nodeString(n) + ')' : nodeString(n);
}

/** Go's Node.String(). */
export function nodeString(n: Node): string {
  switch (n.type) {
    case 'list':
      return n.nodes.map(nodeString).join('');
    case 'text':
      return n.text;
    case 'comment':
      return '{{' + n.text + '}}';
    case 'pipe': {
      let s = '';
      if (n.decl.length > 0) s = n.decl.map(nodeString).join(', ') + (n.isAssign ? ' = ' : ' := ');
      return s + n.cmds.map(nodeString).join(' | ');
    }
    case 'action':
      return '{{' + nodeString(n.pipe) + '}}';
    case 'command':
      return n.args.map(argString).join(' ');
    case 'identifier':
      return n.ident;
    case 'variable':
      return n.ident.join('.');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'field':
      return n.ident.map((i) => '.' + i).join('');
    case 'chain':
      return argString(n.node) + n.field.map((f) => '.' + f).join('');
    case 'bool':
      return n.value ? 'true' : 'false';
    case 'number':
      return n.text;
    case 'string':
      return n.quoted;
    case 'end':
      return '{{end}}';
    case 'else':
      return '{{else}}';
    case 'if':
    case 'range':
    case 'with': {
      let s = `{{${n.type} ${nodeString(n.pipe)}}}${nodeString(n.list)}`;
      if (n.elseList) s += '{{else}}' + nodeString(n.elseList);
      return s + '{{end}}';
    }
    case 'template':
      return n.pipe ? `{{template ${goQuote(n.name)} ${nodeString(n.pipe)}}}` : `{{template ${goQuote(n.name)}}}`;
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
  }
}

/** True when a tree has no actions or non-blank text (Go's IsEmptyTree). */
export function isEmptyTree(n: Node): boolean {
  switch (n.type) {
    case 'list':
      return n.nodes.every(isEmptyTree);
    case 'text':
      return n.text.trim().length === 0;
    case 'comment':
      return true;
    default:
      return false;
  }
}
