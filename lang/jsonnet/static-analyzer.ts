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
export const ROOT_NAMES: readonly string[] = ['std'];

interface Frame {
  names: Map<string, number>;
}

export interface AnalysisResult {
  imports: Import[];
}

export function analyze(root: Node, file: SourceFile): AnalysisResult {
  const imports: Import[] = [];
  const frames: Frame[] = [{ names: new Map(ROOT_NAMES.map((n, i) => [n, i])) }];

  const fail = (msg: string, node: { span: { start: number; end: number } }): never => {
    throw staticError(msg, file, node.span.start, node.span.end);
  };

  const lookup = (name: string): { depth: number; index: number } | undefined => {
    for (let d = 0; d < frames.length; d++) {
      const f = frames[frames.length - 1 - d]!;
      const idx = f.names.get(name);
      if (idx !== undefined) return { depth: d, index: idx };
    }
    return undefined;
  };
  const push = (names: string[]): void => {
    frames.push({ names: new Map(names.map((n, i) => [n, i])) });
  };
  const pop = (): void => {
    frames.pop();
  };

  // Iterative over long left-leaning binary chains would be nicer, but the
  // parser caps nesting depth, so recursion here is bounded by it.
  const visit = (node: Node, inObject: boolean, objLevel: number): void => {
    switch (node.type) {
      case 'Null':
      case 'Bool':
      case 'Number':
      case 'String':
        return;
      case 'Import':
        imports.push(node);
        return;
      case 'Self':
        if (!inObject) fail("Can't use self outside of an object.", node);
        return;
      case 'Dollar': {
        if (objLevel === 0) fail('No top-level object found.', node);
        const r = lookup('$')!;
        node.depth = r.depth;
        node.index = r.index;
        return;
      }
      case 'Var': {
        const r = lookup(node.name);
        if (!r || node.name === '$') fail(`Unknown variable: ${node.name}`, node);
        node.depth = r!.depth;
        node.index = r!.index;
        return;
      }
      case 'SuperIndex':
      case 'InSuper':
        if (!inObject) fail("Can't use super outside of an object.", node);
        visit(node.index, inObject, objLevel);
        return;
      case 'Local': {
        push(node.binds.map((b) => b.name));
        for (const b of node.binds) visit(b.body, inObject, objLevel);
        visit(node.body, inObject, objLevel);
        pop();
        return;
      }
      case 'Function': {
        const seen = new Set<string>();
        for (const p of node.params) {
          if (seen.has(p.name)) fail(`Duplicate function parameter: ${p.name}`, p);
          seen.add(p.name);
        }
        push(node.params.map((p) => p.name));
        for (const p of node.params) if (p.defaultValue) visit(p.defaultValue, inObject, objLevel);
        visit(node.body, inObject, objLevel);
        pop();
        return;
      }
      case 'Object': {
        const names = node.locals.map((l) => l.name);
        if (objLevel === 0) names.push('$');
        // Every object gets a frame (possibly empty): it is where self is bound.
        node.frameSize = names.length;
        node.dollarIndex = objLevel === 0 ? names.length - 1 : -1;
        push(names);
        for (const l of node.locals) visit(l.body, true, objLevel + 1);
        for (const f of node.fields) visit(f.body, true, objLevel + 1);
        for (const a of node.asserts) {
          visit(a.cond, true, objLevel + 1);
          if (a.msg) visit(a.msg, true, objLevel + 1);
        }
        pop();
        for (const f of node.fields) if (f.nameExpr) visit(f.nameExpr, inObject, objLevel);
        return;
      }
      case 'ObjectComp': {
        const pushed = visitSpecs(node.specs, inObject, objLevel);
        visit(node.field.nameExpr!, inObject, objLevel);
        const names = node.locals.map((l) => l.name);
        if (objLevel === 0) names.push('$');
        node.frameSize = names.length;
        node.dollarIndex = objLevel === 0 ? names.length - 1 : -1;
        push(names);
        for (const l of node.locals) visit(l.body, true, objLevel + 1);
        visit(node.field.body, true, objLevel + 1);
        pop();
        for (let i = 0; i < pushed; i++) pop();
        return;
      }
      case 'ArrayComp': {
        const pushed = visitSpecs(node.specs, inObject, objLevel);
        visit(node.body, inObject, objLevel);
        for (let i = 0; i < pushed; i++) pop();
        return;
      }
      case 'Binary': {
        // Long left-leaning chains (a + b + c ...) are walked without recursion on the spine.
        const rights: Node[] = [];
        let n: Node = node;
        while (n.type === 'Binary') {
          rights.push(n.right);
          n = n.left;
        }
        visit(n, inObject, objLevel);
        for (let i = rights.length - 1; i >= 0; i--) visit(rights[i]!, inObject, objLevel);
        return;
      }
      default:
        for (const c of children(node)) visit(c, inObject, objLevel);
    }
  };

  const visitSpecs = (specs: CompSpec[], inObject: boolean, objLevel: number): number => {
    let pushed = 0;
    for (const s of specs) {
      if (s.kind === 'for') {
        visit(s.expr, inObject, objLevel);
        push([s.varName]);
        pushed++;
      } else visit(s.cond, inObject, objLevel);
    }
    return pushed;
  };

  visit(root, false, 0);
  addContext(root, '$', 'anonymous');
  return { imports };
}

/** go-jsonnet's addContext: the frame name each node reports in stack traces. */
function addContext(node: Node, context: string, bind: string): void {
  node.ctx = context;
  switch (node.type) {
    case 'Function': {
      const fc = `function <${bind}>`;
      for (const p of node.params) if (p.defaultValue) addContext(p.defaultValue, fc, 'anonymous');
      addContext(node.body, fc, 'anonymous');
      return;
    }
    case 'Object': {
      const oc = `object <${bind}>`;
      for (const f of node.fields) {
        if (f.nameExpr) addContext(f.nameExpr, context, 'anonymous');
        addContext(f.body, oc, 'anonymous');
      }
      for (const l of node.locals) addContext(l.body, oc, 'anonymous');
      for (const a of node.asserts) {
        addContext(a.cond, oc, 'anonymous');
        if (a.msg) addContext(a.msg, oc, 'anonymous');
      }
      return;
    }
    case 'ObjectComp': {
      const oc = `object <${bind}>`;
      for (const s of node.specs) addContext(s.kind === 'for' ? s.expr : s.cond, context, 'anonymous');
      addContext(node.field.nameExpr!, context, 'anonymous');
      addContext(node.field.body, oc, 'anonymous');
      for (const l of node.locals) addContext(l.body, oc, 'anonymous');
      return;
    }
    case 'Local': {
      for (const b of node.binds) addContext(b.body, `thunk <${b.name}> from <${context}>`, b.name);
      addContext(node.body, context, bind);
      return;
    }
    case 'Apply': {
      addContext(node.target, context, 'anonymous');
      const tc = `thunk from <${context}>`;
      for (const a of node.positional) addContext(a, tc, 'anonymous');
      for (const a of node.named) addContext(a.value, tc, 'anonymous');
      return;
    }
    case 'Array': {
      const tc = `thunk from <${context}>`;
      for (const e of node.elements) addContext(e, tc, 'anonymous');
      return;
    }
    case 'ArrayComp': {
      for (const s of node.specs) addContext(s.kind === 'for' ? s.expr : s.cond, context, 'anonymous');
      addContext(node.body, `thunk from <${context}>`, 'anonymous');
      return;
    }
    case 'Binary': {
      const rights: Node[] = [];
      let n: Node = node;
      while (n.type === 'Binary') {
        n.ctx = context;
        rights.push(n.right);
        n = n.left;
      }
      addContext(n, context, 'anonymous');
      for (let i = rights.length - 1; i >= 0; i--) addContext(rights[i]!, context, 'anonymous');
      return;
    }
    case 'Index':
      // go-jsonnet does not descend into `a.b` (no direct children before desugaring).
      if (node.id === null) {
        addContext(node.target, context, 'anonymous');
        addContext(node.index, context, 'anonymous');
      }
      return;
    default:
      for (const c of children(node)) addContext(c, context, 'anonymous');
  }
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
