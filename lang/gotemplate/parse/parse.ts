/**
 * The template parser, following Go's text/template/parse parse.go: a
 * recursive-descent parser over lexer items with Go's three-token lookahead,
 * variable scoping, function-name checks at parse time, and Go's messages
 * (`template: NAME:LINE: unexpected EOF`, `function "x" not defined`, ...).
 * `parse` returns every tree the text defines (the main one first, then each
 * `define`/`block`), throwing TemplateError('TPL_PARSE') on the first error.
 */

import { strconvParseFloat, strconvParseInt } from '../../go/strconv.js';
import { TemplateError } from '../errors.js';
import { byteLength } from '../value.js';
import { type Item, type ItemType, itemString, lex } from './lex.js';
import {
  type BranchNode,
  type CommandNode,
  type ListNode,
  type Node,
  type NumberNode,
  type PipeNode,
  type TemplateNode,
  type Tree,
  type VariableNode,
  isEmptyTree,
  nodeString,
} from './node.js';
import { unquote, unquoteChar } from './unquote.js';

export interface ParseOptions {
  /** Is a function of this name callable? Unknown names are parse errors, as in Go. */
  hasFunction: (name: string) => boolean;
  /** Message for a name that exists upstream but is withheld (non-hermetic); undefined when not withheld. */
  unavailable?: (name: string) => string | undefined;
  leftDelim?: string;
  rightDelim?: string;
}

/** Line (1-based) of a UTF-16 offset. */
function lineOf(text: string, pos: number): number {
  let n = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Go's ErrorContext location `name:line:byteCol` (column is a 0-based byte offset). */
export function errorLocation(tree: Tree, pos: number): { location: string; line: number; column: number } {
  const before = tree.text.slice(0, pos);
  const nl = before.lastIndexOf('\n');
  const column = byteLength(nl < 0 ? before : before.slice(nl + 1));
  const line = lineOf(tree.text, pos);
  return { location: `${tree.parseName}:${line}:${column}`, line, column };
}

class Parser {
  private readonly items: Item[];
  private index = 0;
  private readonly token: Item[] = [];
  private peekCount = 0;
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  /** Offset of the `{{` of the action being parsed (-1 outside actions); its line is computed only for errors. */
  private actionPos = -1;
  private tree: Tree;

  constructor(
    private readonly text: string,
    private readonly parseName: string,
    private readonly opts: ParseOptions,
    private readonly treeSet: Map<string, Tree>,
  ) {
    this.items = lex(text, opts.leftDelim, opts.rightDelim);
    this.tree = this.newTree(parseName);
  }

  private newTree(name: string): Tree {
    const tree: Tree = { name, parseName: this.parseName, text: this.text, root: undefined as unknown as ListNode };
    return tree;
  }

  private lexNext(): Item {
    const it = this.items[this.index];
    if (it === undefined) return this.items[this.items.length - 1]!;
    this.index++;
    return it;
  }

  private next(): Item {
    if (this.peekCount > 0) this.peekCount--;
    else this.token[0] = this.lexNext();
    return this.token[this.peekCount]!;
  }

  private backup(): void {
    this.peekCount++;
  }

  private backup2(t1: Item): void {
    this.token[1] = t1;
    this.peekCount = 2;
  }

  private backup3(t2: Item, t1: Item): void {
    this.token[1] = t1;
    this.token[2] = t2;
    this.peekCount = 3;
  }

  private peek(): Item {
    if (this.peekCount > 0) return this.token[this.peekCount - 1]!;
    this.peekCount = 1;
    this.token[0] = this.lexNext();
    return this.token[0];
  }

  private nextNonSpace(): Item {
    let t: Item;
    for (;;) {
      t = this.next();
      if (t.type !== 'space') break;
    }
    return t;
  }

  private peekNonSpace(): Item {
    const t = this.nextNonSpace();
    this.backup();
    return t;
  }

  errorf(msg: string, code: 'TPL_PARSE' | 'TPL_UNAVAILABLE' = 'TPL_PARSE'): never {
    const tok = this.token[0];
    const line = tok ? lineOf(this.text, tok.pos) : 1;
    throw new TemplateError(`template: ${this.parseName}:${line}: ${msg}`, code, this.parseName, line);
  }

  private expect(expected: ItemType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.type !== expected) this.unexpected(token, context);
    return token;
  }

  private expectOneOf(a: ItemType, b: ItemType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.type !== a && token.type !== b) this.unexpected(token, context);
    return token;
  }

  private unexpected(token: Item, context: string): never {
    if (token.type === 'error') {
      let extra = '';
      const tokenLine = lineOf(this.text, token.pos);
      const actionLine = this.actionPos < 0 ? 0 : lineOf(this.text, this.actionPos);
      if (actionLine !== 0 && actionLine !== tokenLine) {
        extra = ` in action started at ${this.parseName}:${actionLine}`;
        if (token.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(token.val + extra);
    }
    this.errorf(`unexpected ${itemString(token)} in ${context}`);
  }

  // ---- tree building ----

  run(): void {
    this.tree.root = this.newList(this.peek().pos);
    while (this.peek().type !== 'eof') {
      if (this.peek().type === 'leftDelim') {
        const delim = this.next();
        if (this.nextNonSpace().type === 'define') {
          this.parseDefinition();
          continue;
        }
        this.backup2(delim);
      }
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') this.errorf(`unexpected ${nodeString(n)}`);
      this.tree.root.nodes.push(n);
    }
    this.add(this.tree);
  }

  private withTree<T>(tree: Tree, f: () => T): T {
    const saved = { tree: this.tree, vars: this.vars, rangeDepth: this.rangeDepth };
    this.tree = tree;
    this.vars = ['$'];
    this.rangeDepth = 0;
    try {
      return f();
    } finally {
      this.tree = saved.tree;
      this.vars = saved.vars;
      this.rangeDepth = saved.rangeDepth;
    }
  }

  private add(tree: Tree): void {
    const existing = this.treeSet.get(tree.name);
    if (!existing || isEmptyTree(existing.root)) {
      this.treeSet.set(tree.name, tree);
      return;
    }
    if (!isEmptyTree(tree.root)) this.errorf(`template: multiple definition of template "${tree.name}"`);
  }

  private parseDefinition(): void {
    const context = 'define clause';
    const name = this.expectOneOf('string', 'rawString', context);
    const tree = this.newTree(this.unquoteOrFail(name.val));
    this.withTree(tree, () => {
      this.expect('rightDelim', context);
      const [list, end] = this.itemList();
      if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`);
      tree.root = list;
      this.add(tree);
    });
  }

  private unquoteOrFail(lit: string): string {
    const s = unquote(lit);
    if (s === undefined) this.errorf('invalid syntax');
    return s;
  }

  private newList(pos: number): ListNode {
    return { type: 'list', pos, tree: this.tree, nodes: [] };
  }

  private itemList(): [ListNode, Node] {
    const list = this.newList(this.peekNonSpace().pos);
    while (this.peekNonSpace().type !== 'eof') {
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') return [list, n];
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): Node {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'text':
        return { type: 'text', pos: token.pos, tree: this.tree, text: token.val };
      case 'leftDelim': {
        this.actionPos = token.pos;
        try {
          return this.action();
        } finally {
          this.actionPos = -1;
        }
      }
    }
    this.unexpected(token, 'input');
  }

  private action(): Node {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'block':
        return this.blockControl();
      case 'break':
      case 'continue':
        return this.loopControl(token);
      case 'else':
        return this.elseControl();
      case 'end':
        return { type: 'end', pos: this.expect('rightDelim', 'end').pos, tree: this.tree };
      case 'if':
        return this.ifControl();
      case 'range':
        return this.branch('range');
      case 'template':
        return this.templateControl();
      case 'with':
        return this.withControl();
    }
    this.backup();
    const t = this.peek();
    return { type: 'action', pos: t.pos, tree: this.tree, pipe: this.pipeline('command', 'rightDelim') };
  }

  private loopControl(token: Item): Node {
    const kw = token.type as 'break' | 'continue';
    const t = this.nextNonSpace();
    if (t.type !== 'rightDelim') this.unexpected(t, `{{${kw}}}`);
    if (this.rangeDepth === 0) this.errorf(`{{${kw}}} outside {{range}}`);
    return { type: kw, pos: token.pos, tree: this.tree };
  }

  private pipeline(context: string, end: ItemType): PipeNode {
    const token = this.peekNonSpace();
    const pipe: PipeNode = { type: 'pipe', pos: token.pos, tree: this.tree, isAssign: false, decl: [], cmds: [] };
    decls: for (;;) {
      const v = this.peekNonSpace();
      if (v.type !== 'variable') break;
      this.next();
      const tokenAfterVariable = this.peek();
      const next = this.peekNonSpace();
      if (next.type === 'assign' || next.type === 'declare') {
        pipe.isAssign = next.type === 'assign';
        this.nextNonSpace();
        pipe.decl.push(this.newVariable(v.pos, v.val));
        this.vars.push(v.val);
      } else if (next.type === 'char' && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push(this.newVariable(v.pos, v.val));
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const p = this.peekNonSpace().type;
          if (p === 'variable' || p === 'rightDelim' || p === 'rightParen') continue decls;
          this.errorf('range can only initialize variables');
        }
        this.errorf(`too many declarations in ${context}`);
      } else if (tokenAfterVariable.type === 'space') {
        this.backup3(v, tokenAfterVariable);
      } else {
        this.backup2(v);
      }
      break;
    }
    for (;;) {
      const token = this.nextNonSpace();
      if (token.type === end) {
        this.checkPipeline(pipe, context);
        return pipe;
      }
      switch (token.type) {
        case 'bool':
        case 'charConstant':
        case 'complex':
        case 'dot':
        case 'field':
        case 'identifier':
        case 'number':
        case 'nil':
        case 'rawString':
        case 'string':
        case 'variable':
        case 'leftParen':
          this.backup();
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(token, context);
      }
    }
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    pipe.cmds.slice(1).forEach((c, i) => {
      const t = c.args[0]!.type;
      if (t === 'bool' || t === 'dot' || t === 'nil' || t === 'number' || t === 'string') {
        this.errorf(`non executable command in pipeline stage ${i + 2}`);
      }
    });
  }

  private command(): CommandNode {
    const cmd: CommandNode = { type: 'command', pos: this.peekNonSpace().pos, tree: this.tree, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) cmd.args.push(operand);
      const token = this.next();
      if (token.type === 'space') continue;
      if (token.type === 'rightDelim' || token.type === 'rightParen') this.backup();
      else if (token.type !== 'pipe') this.unexpected(token, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  private operand(): Node | undefined {
    const node = this.term();
    if (!node) return undefined;
    if (this.peek().type === 'field') {
      const fields: string[] = [];
      const pos = this.peek().pos;
      while (this.peek().type === 'field') fields.push(this.next().val.slice(1));
      switch (node.type) {
        case 'field':
          return { type: 'field', pos, tree: this.tree, ident: [...node.ident, ...fields] };
        case 'variable':
          return { type: 'variable', pos, tree: this.tree, ident: [...node.ident, ...fields] };
        case 'bool':
        case 'string':
        case 'number':
        case 'nil':
        case 'dot':
          this.errorf(`unexpected . after term ${JSON.stringify(nodeString(node))}`);
      }
      return { type: 'chain', pos, tree: this.tree, node, field: fields };
    }
    return node;
  }

  private term(): Node | undefined {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'identifier': {
        if (!this.opts.hasFunction(token.val)) {
          const why = this.opts.unavailable?.(token.val);
          if (why !== undefined) this.errorf(why, 'TPL_UNAVAILABLE');
          this.errorf(`function "${token.val}" not defined`);
        }
        return { type: 'identifier', pos: token.pos, tree: this.tree, ident: token.val };
      }
      case 'dot':
        return { type: 'dot', pos: token.pos, tree: this.tree };
      case 'nil':
        return { type: 'nil', pos: token.pos, tree: this.tree };
      case 'variable':
        return this.useVar(token.pos, token.val);
      case 'field':
        return { type: 'field', pos: token.pos, tree: this.tree, ident: [token.val.slice(1)] };
      case 'bool':
        return { type: 'bool', pos: token.pos, tree: this.tree, value: token.val === 'true' };
      case 'charConstant':
      case 'complex':
      case 'number':
        return this.newNumber(token);
      case 'leftParen':
        return this.pipeline('parenthesized pipeline', 'rightParen');
      case 'string':
      case 'rawString':
        return {
          type: 'string',
          pos: token.pos,
          tree: this.tree,
          quoted: token.val,
          text: this.unquoteOrFail(token.val),
        };
    }
    this.backup();
    return undefined;
  }

  private newVariable(pos: number, name: string): VariableNode {
    return { type: 'variable', pos, tree: this.tree, ident: name.split('.') };
  }

  private useVar(pos: number, name: string): VariableNode {
    const v = this.newVariable(pos, name);
    if (this.vars.includes(v.ident[0]!)) return v;
    this.errorf(`undefined variable "${v.ident[0]}"`);
  }

  private newNumber(token: Item): NumberNode {
    const text = token.val;
    const n: NumberNode = {
      type: 'number',
      pos: token.pos,
      tree: this.tree,
      text,
      isInt: false,
      isUint: false,
      isFloat: false,
      isComplex: false,
      int64: 0n,
      float64: 0,
    };
    if (token.type === 'charConstant') {
      const r = unquoteChar(text);
      if (r === undefined) this.errorf(`malformed character constant: ${text}`);
      n.isInt = n.isUint = n.isFloat = true;
      n.int64 = BigInt(r);
      n.float64 = r;
      return n;
    }
    if (token.type === 'complex' || text.endsWith('i')) {
      // Complex constants parse in Go but no template data or function we offer accepts them.
      this.errorf(`complex constants are not supported: ${JSON.stringify(text)}`);
    }
    // text/template's NumberNode: ParseUint and ParseInt (base 0), else ParseFloat (an error, overflow included, is no float)
    const u = strconvParseInt(text, false);
    const i = strconvParseInt(text, true);
    if (u !== null) n.isUint = true;
    if (i !== null) {
      n.isInt = true;
      n.int64 = i;
      if (i === 0n) n.isUint = true;
    }
    if (n.isInt || n.isUint) {
      n.isFloat = true;
      n.float64 = Number(i ?? u);
    } else {
      const f = strconvParseFloat(text);
      if (f !== null) {
        if (!/[.eEpP]/.test(text)) this.errorf(`integer overflow: ${JSON.stringify(text)}`);
        n.isFloat = true;
        n.float64 = f;
        if (Number.isInteger(f) && f >= -(2 ** 63) && f < 2 ** 63) {
          n.isInt = true;
          n.int64 = BigInt(f);
        }
        if (Number.isInteger(f) && f >= 0 && f < 2 ** 64) n.isUint = true;
      }
    }
    if (!n.isInt && !n.isUint && !n.isFloat) this.errorf(`illegal number syntax: ${JSON.stringify(text)}`);
    return n;
  }

  private ifControl(): Node {
    return this.branch('if');
  }

  private withControl(): Node {
    return this.branch('with');
  }

  private branch(context: 'if' | 'range' | 'with'): BranchNode {
    const mark = this.vars.length;
    try {
      const pipe = this.pipeline(context, 'rightDelim');
      if (context === 'range') this.rangeDepth++;
      const [list, next0] = this.itemList();
      if (context === 'range') this.rangeDepth--;
      let elseList: ListNode | undefined;
      if (next0.type === 'else') {
        if ((context === 'if' && this.peek().type === 'if') || (context === 'with' && this.peek().type === 'with')) {
          this.next();
          elseList = this.newList(next0.pos);
          elseList.nodes.push(this.branch(context));
        } else {
          const [els, next] = this.itemList();
          if (next.type !== 'end') this.errorf(`expected end; found ${nodeString(next)}`);
          elseList = els;
        }
      }
      return { type: context, pos: pipe.pos, tree: this.tree, pipe, list, elseList };
    } finally {
      this.vars.length = mark;
    }
  }

  private elseControl(): Node {
    const peek = this.peekNonSpace();
    if (peek.type === 'if' || peek.type === 'with') return { type: 'else', pos: peek.pos, tree: this.tree };
    const token = this.expect('rightDelim', 'else');
    return { type: 'else', pos: token.pos, tree: this.tree };
  }

  private templateName(token: Item, context: string): string {
    if (token.type === 'string' || token.type === 'rawString') return this.unquoteOrFail(token.val);
    this.unexpected(token, context);
  }

  private templateControl(): TemplateNode {
    const context = 'template clause';
    const token = this.nextNonSpace();
    const name = this.templateName(token, context);
    let pipe: PipeNode | undefined;
    if (this.nextNonSpace().type !== 'rightDelim') {
      this.backup();
      pipe = this.pipeline(context, 'rightDelim');
    }
    return { type: 'template', pos: token.pos, tree: this.tree, name, pipe };
  }

  private blockControl(): TemplateNode {
    const context = 'block clause';
    const token = this.nextNonSpace();
    const name = this.templateName(token, context);
    const pipe = this.pipeline(context, 'rightDelim');
    const outer = this.tree;
    const block = this.newTree(name);
    this.withTree(block, () => {
      const [list, end] = this.itemList();
      if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`);
      block.root = list;
      this.add(block);
    });
    return { type: 'template', pos: token.pos, tree: outer, name, pipe };
  }
}

/**
 * Parses `text` as template `name`; returns the trees it defines keyed by name
 * (the unnamed body under `name`). Throws TemplateError on syntax errors.
 */
export function parse(
  name: string,
  text: string,
  opts: ParseOptions,
  treeSet: Map<string, Tree> = new Map(),
): Map<string, Tree> {
  new Parser(text, name, opts, treeSet).run();
  return treeSet;
}
