/**
 * Static analysis of a parsed Jsonnet tree, run once per parse:
 *  - reports go-jsonnet's static errors (unknown variable, self/super outside
 *    an object, `$` outside an object, duplicate function parameters);
 *  - resolves every variable to a (depth, index) slot in the runtime Env
 *    chain, and sizes the per-instance object frames (locals, then `$`);
 *  - gives every node its trace context name (go-jsonnet's addContext);
 *  - collects the file's imports.
 * Invariant: the frames created here must mirror the Envs the evaluator
 * creates (root [std], local, function params, comprehension `for`, object).
 */
import type { SourceFile } from '../common/source.js';
import type { CompSpec, Import, Node } from './ast.js';
import { children } from './ast.js';
import { staticError } from './errors.js';

/** Names bound in the root frame, in slot order. */
const ROOT_NAMES: readonly string[] = ['std'];

export interface AnalysisResult {
  imports: Import[];
}

/**
 * Analyzes `root` in place (slots, frame sizes, trace contexts); throws the
 * first static error in go-jsonnet's order.
 *
 * One traversal does both jobs that used to be two (resolution, then
 * go-jsonnet's addContext), with the scopes kept in one table (name -> stack
 * of bindings) instead of a Map per frame, and no child arrays: on the
 * bench's 5 MiB library, analysing an already parsed AST went from about
 * 290 ms to 110 ms of CPU (it had been about 30% of parseModule's time).
 */
export function analyze(root: Node, file: SourceFile): AnalysisResult {
  const a = new Analyzer(file);
  for (const name of ROOT_NAMES) a.bind(name);
  a.visit(root, false, 0, '$', 'anonymous');
  return { imports: a.imports };
}

/** The trace context below an `a.b` index: go-jsonnet's addContext does not descend there. */
const NO_CONTEXT = null;

/**
 * The contexts nearly every node gets, as string literals. A context string
 * made during analysis is a new (young) string stored into thousands of
 * nodes that are already old by then, and each such store costs the garbage
 * collector a remembered-set entry; literals live in old space from the
 * start. With them parseModule's CPU time on the bench's library fell from
 * 312-407 to 291-352 ms (three paired runs), most of it from the analysis.
 */
const OBJECT_ANONYMOUS = 'object <anonymous>';
const FUNCTION_ANONYMOUS = 'function <anonymous>';
const COMMON_THUNK_CONTEXTS: ReadonlyMap<string, string> = new Map([
  ['$', 'thunk from <$>'],
  ['object <anonymous>', 'thunk from <object <anonymous>>'],
  ['function <anonymous>', 'thunk from <function <anonymous>>'],
  ['thunk from <object <anonymous>>', 'thunk from <thunk from <object <anonymous>>>'],
  ['thunk from <thunk from <object <anonymous>>>', 'thunk from <thunk from <thunk from <object <anonymous>>>>'],
  ['thunk from <function <anonymous>>', 'thunk from <thunk from <function <anonymous>>>'],
  ['thunk from <$>', 'thunk from <thunk from <$>>'],
]);

class Analyzer {
  readonly imports: Import[] = [];
  /** name -> binding ids (innermost last) of that name in the frames open now. */
  private readonly scopes = new Map<string, number[]>();
  /** By binding id: its name and the frame it belongs to. */
  private readonly bindingNames: string[] = [];
  private readonly bindingFrames: number[] = [];
  /** By frame: the id of its first binding. */
  private readonly frameStarts: number[] = [0];
  /** Right operands of the Binary chains being walked (see visit). */
  private readonly spine: Node[] = [];
  private spineTop = 0;
  /** `thunk from <ctx>` strings, made once per distinct ctx. */
  private readonly thunkContexts = new Map<string, string>();

  constructor(private readonly file: SourceFile) {}

  private fail(msg: string, node: { span: { start: number; end: number } }): never {
    throw staticError(msg, this.file, node.span.start, node.span.end);
  }

  /** Adds `name` to the innermost frame. */
  bind(name: string): void {
    const id = this.bindingNames.length;
    this.bindingNames.push(name);
    this.bindingFrames.push(this.frameStarts.length - 1);
    const stack = this.scopes.get(name);
    if (stack === undefined) this.scopes.set(name, [id]);
    else stack.push(id);
  }

  private openFrame(): void {
    this.frameStarts.push(this.bindingNames.length);
  }

  private closeFrame(): void {
    const start = this.frameStarts.pop()!;
    for (let id = this.bindingNames.length - 1; id >= start; id--) this.scopes.get(this.bindingNames[id]!)!.pop();
    this.bindingNames.length = start;
    this.bindingFrames.length = start;
  }

  /** Resolves a Var or Dollar node to (frames up, slot in that frame). */
  private resolve(node: { name?: string; depth: number; index: number }, name: string): boolean {
    const stack = this.scopes.get(name);
    if (stack === undefined || stack.length === 0) return false;
    const id = stack[stack.length - 1]!;
    const frame = this.bindingFrames[id]!;
    node.depth = this.frameStarts.length - 1 - frame;
    node.index = id - this.frameStarts[frame]!;
    return true;
  }

  private thunkFrom(context: string | null): string | null {
    if (context === NO_CONTEXT) return NO_CONTEXT;
    let s = COMMON_THUNK_CONTEXTS.get(context) ?? this.thunkContexts.get(context);
    if (s === undefined) {
      s = `thunk from <${context}>`;
      this.thunkContexts.set(context, s);
    }
    return s;
  }

  private objectContext(context: string | null, bind: string): string | null {
    if (context === NO_CONTEXT) return NO_CONTEXT;
    return bind === 'anonymous' ? OBJECT_ANONYMOUS : `object <${bind}>`;
  }

  private functionContext(context: string | null, bind: string): string | null {
    if (context === NO_CONTEXT) return NO_CONTEXT;
    return bind === 'anonymous' ? FUNCTION_ANONYMOUS : `function <${bind}>`;
  }

  /**
   * Checks and resolves `node`, and gives it trace context `context`
   * (`bind` names the function or object it may be, as in `local f(x) = ...`).
   * Lists are walked with indexed loops, not for-of: in this recursive
   * function V8 did not remove the iterators, and for-of made 11 MB of
   * iterator objects per analysis of the bench's 5.6 MiB library (a fifth of
   * the parse's garbage).
   */
  visit(node: Node, inObject: boolean, objLevel: number, context: string | null, bind: string): void {
    if (context !== NO_CONTEXT) node.ctx = context;
    switch (node.type) {
      case 'Var':
        if (node.name === '$' || !this.resolve(node, node.name)) this.fail(`Unknown variable: ${node.name}`, node);
        return;
      case 'String':
      case 'Number':
      case 'Null':
      case 'Bool':
        return;
      case 'Index':
        this.visit(node.target, inObject, objLevel, node.id === null ? context : NO_CONTEXT, 'anonymous');
        this.visit(node.index, inObject, objLevel, node.id === null ? context : NO_CONTEXT, 'anonymous');
        return;
      case 'Apply': {
        this.visit(node.target, inObject, objLevel, context, 'anonymous');
        const tc = this.thunkFrom(context);
        const positional = node.positional;
        for (let k = 0; k < positional.length; k++) this.visit(positional[k]!, inObject, objLevel, tc, 'anonymous');
        const named = node.named;
        for (let k = 0; k < named.length; k++) this.visit(named[k]!.value, inObject, objLevel, tc, 'anonymous');
        return;
      }
      case 'Binary': {
        // Long left-leaning chains (a + b + c ...) are walked without recursion on
        // the spine; their right operands wait on one shared stack.
        const mark = this.spineTop;
        let n: Node = node;
        while (n.type === 'Binary') {
          if (context !== NO_CONTEXT) n.ctx = context;
          this.spine[this.spineTop++] = n.right;
          n = n.left;
        }
        this.visit(n, inObject, objLevel, context, 'anonymous');
        while (this.spineTop > mark) this.visit(this.spine[--this.spineTop]!, inObject, objLevel, context, 'anonymous');
        return;
      }
      case 'Object': {
        const oc = this.objectContext(context, bind);
        const { locals, fields, asserts } = node;
        // Every object gets a frame (possibly empty): it is where self is bound.
        this.openFrame();
        for (let k = 0; k < locals.length; k++) this.bind(locals[k]!.name);
        if (objLevel === 0) this.bind('$');
        node.frameSize = locals.length + (objLevel === 0 ? 1 : 0);
        node.dollarIndex = objLevel === 0 ? locals.length : -1;
        for (let k = 0; k < locals.length; k++) this.visit(locals[k]!.body, true, objLevel + 1, oc, 'anonymous');
        for (let k = 0; k < fields.length; k++) this.visit(fields[k]!.body, true, objLevel + 1, oc, 'anonymous');
        for (let k = 0; k < asserts.length; k++) {
          const as = asserts[k]!;
          this.visit(as.cond, true, objLevel + 1, oc, 'anonymous');
          if (as.msg) this.visit(as.msg, true, objLevel + 1, oc, 'anonymous');
        }
        this.closeFrame();
        for (let k = 0; k < fields.length; k++) {
          const nameExpr = fields[k]!.nameExpr;
          if (nameExpr) this.visit(nameExpr, inObject, objLevel, context, 'anonymous');
        }
        return;
      }
      case 'Function': {
        const params = node.params;
        const dup = firstDuplicate(params);
        if (dup >= 0) this.fail(`Duplicate function parameter: ${params[dup]!.name}`, params[dup]!);
        const fc = this.functionContext(context, bind);
        this.openFrame();
        for (let k = 0; k < params.length; k++) this.bind(params[k]!.name);
        for (let k = 0; k < params.length; k++) {
          const d = params[k]!.defaultValue;
          if (d) this.visit(d, inObject, objLevel, fc, 'anonymous');
        }
        this.visit(node.body, inObject, objLevel, fc, 'anonymous');
        this.closeFrame();
        return;
      }
      case 'Local': {
        const binds = node.binds;
        this.openFrame();
        for (let k = 0; k < binds.length; k++) this.bind(binds[k]!.name);
        for (let k = 0; k < binds.length; k++) {
          const b = binds[k]!;
          const bc = context === NO_CONTEXT ? NO_CONTEXT : `thunk <${b.name}> from <${context}>`;
          this.visit(b.body, inObject, objLevel, bc, b.name);
        }
        this.visit(node.body, inObject, objLevel, context, bind);
        this.closeFrame();
        return;
      }
      case 'Array': {
        const tc = this.thunkFrom(context);
        const elements = node.elements;
        for (let k = 0; k < elements.length; k++) this.visit(elements[k]!, inObject, objLevel, tc, 'anonymous');
        return;
      }
      case 'Conditional':
        this.visit(node.cond, inObject, objLevel, context, 'anonymous');
        this.visit(node.then, inObject, objLevel, context, 'anonymous');
        if (node.else) this.visit(node.else, inObject, objLevel, context, 'anonymous');
        return;
      case 'Self':
        if (!inObject) this.fail("Can't use self outside of an object.", node);
        return;
      case 'Dollar':
        if (objLevel === 0) this.fail('No top-level object found.', node);
        this.resolve(node, '$');
        return;
      case 'Import':
        this.imports.push(node);
        return;
      case 'SuperIndex':
      case 'InSuper':
        if (!inObject) this.fail("Can't use super outside of an object.", node);
        this.visit(node.index, inObject, objLevel, context, 'anonymous');
        return;
      case 'Unary':
        this.visit(node.expr, inObject, objLevel, context, 'anonymous');
        return;
      case 'Error':
        this.visit(node.expr, inObject, objLevel, context, 'anonymous');
        return;
      case 'Assert':
        this.visit(node.cond, inObject, objLevel, context, 'anonymous');
        if (node.msg) this.visit(node.msg, inObject, objLevel, context, 'anonymous');
        this.visit(node.rest, inObject, objLevel, context, 'anonymous');
        return;
      case 'Slice':
        this.visit(node.target, inObject, objLevel, context, 'anonymous');
        if (node.begin) this.visit(node.begin, inObject, objLevel, context, 'anonymous');
        if (node.end) this.visit(node.end, inObject, objLevel, context, 'anonymous');
        if (node.step) this.visit(node.step, inObject, objLevel, context, 'anonymous');
        return;
      case 'ArrayComp': {
        const opened = this.visitSpecs(node.specs, inObject, objLevel, context);
        this.visit(node.body, inObject, objLevel, this.thunkFrom(context), 'anonymous');
        for (let i = 0; i < opened; i++) this.closeFrame();
        return;
      }
      case 'ObjectComp': {
        const opened = this.visitSpecs(node.specs, inObject, objLevel, context);
        this.visit(node.field.nameExpr!, inObject, objLevel, context, 'anonymous');
        const oc = this.objectContext(context, bind);
        const locals = node.locals;
        this.openFrame();
        for (let k = 0; k < locals.length; k++) this.bind(locals[k]!.name);
        if (objLevel === 0) this.bind('$');
        node.frameSize = locals.length + (objLevel === 0 ? 1 : 0);
        node.dollarIndex = objLevel === 0 ? locals.length : -1;
        for (let k = 0; k < locals.length; k++) this.visit(locals[k]!.body, true, objLevel + 1, oc, 'anonymous');
        this.visit(node.field.body, true, objLevel + 1, oc, 'anonymous');
        this.closeFrame();
        for (let i = 0; i < opened; i++) this.closeFrame();
        return;
      }
    }
  }

  /** Visits comprehension clauses; each `for` opens a frame (returns how many). */
  private visitSpecs(specs: CompSpec[], inObject: boolean, objLevel: number, context: string | null): number {
    let opened = 0;
    for (let k = 0; k < specs.length; k++) {
      const s = specs[k]!;
      if (s.kind === 'for') {
        this.visit(s.expr, inObject, objLevel, context, 'anonymous');
        this.openFrame();
        this.bind(s.varName);
        opened++;
      } else this.visit(s.cond, inObject, objLevel, context, 'anonymous');
    }
    return opened;
  }
}

/** Index of the first parameter whose name was already used, or -1 (short lists are scanned, no Set). */
function firstDuplicate(params: readonly { name: string }[]): number {
  if (params.length > 16) {
    const seen = new Set<string>();
    for (let i = 0; i < params.length; i++) {
      if (seen.has(params[i]!.name)) return i;
      seen.add(params[i]!.name);
    }
    return -1;
  }
  for (let i = 1; i < params.length; i++) {
    for (let j = 0; j < i; j++) if (params[j]!.name === params[i]!.name) return i;
  }
  return -1;
}

/** Variables a node refers to that are not bound inside it (std included). */
export function freeVariablesOf(node: Node): Set<string> {
  const free = new Set<string>();
  const bound: string[][] = [];
  const isBound = (n: string): boolean => bound.some((f) => f.includes(n));
  const walkSpecs = (specs: CompSpec[]): number => {
    let n = 0;
    for (const s of specs) {
      if (s.kind === 'for') {
        walk(s.expr);
        bound.push([s.varName]);
        n++;
      } else walk(s.cond);
    }
    return n;
  };
  const walk = (node: Node): void => {
    switch (node.type) {
      case 'Var':
        if (!isBound(node.name)) free.add(node.name);
        return;
      case 'Local':
        bound.push(node.binds.map((b) => b.name));
        for (const b of node.binds) walk(b.body);
        walk(node.body);
        bound.pop();
        return;
      case 'Function':
        bound.push(node.params.map((p) => p.name));
        for (const p of node.params) if (p.defaultValue) walk(p.defaultValue);
        walk(node.body);
        bound.pop();
        return;
      case 'Object':
        for (const f of node.fields) if (f.nameExpr) walk(f.nameExpr);
        bound.push(node.locals.map((l) => l.name));
        for (const l of node.locals) walk(l.body);
        for (const f of node.fields) walk(f.body);
        for (const a of node.asserts) {
          walk(a.cond);
          if (a.msg) walk(a.msg);
        }
        bound.pop();
        return;
      case 'ObjectComp': {
        const n = walkSpecs(node.specs);
        walk(node.field.nameExpr!);
        bound.push(node.locals.map((l) => l.name));
        for (const l of node.locals) walk(l.body);
        walk(node.field.body);
        bound.pop();
        for (let i = 0; i < n; i++) bound.pop();
        return;
      }
      case 'ArrayComp': {
        const n = walkSpecs(node.specs);
        walk(node.body);
        for (let i = 0; i < n; i++) bound.pop();
        return;
      }
      case 'Binary': {
        const rights: Node[] = [];
        let n: Node = node;
        while (n.type === 'Binary') {
          rights.push(n.right);
          n = n.left;
        }
        walk(n);
        for (let i = rights.length - 1; i >= 0; i--) walk(rights[i]!);
        return;
      }
      default:
        for (const c of children(node)) walk(c);
    }
  };
  walk(node);
  return free;
}
