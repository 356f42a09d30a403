/**
 * Template execution, following Go's text/template exec.go: a walker over the
 * parse tree with a variable stack, Go's evaluation of fields, chains,
 * variables, function calls (typed arguments, and/or short-circuit), range
 * (slices, maps in sorted key order, integers, break/continue), if/with, and
 * template calls. Errors read exactly like Go's:
 * `template: NAME:LINE:COL: executing "NAME" at <CONTEXT>: MESSAGE`.
 * Invariants: data is only read, never mutated; map lookups are own-property
 * only; output never exceeds maxOutputBytes (TPL_LIMIT error instead).
 */

import { compareCodepoints } from '../common/json.js';
import { FuncError, TemplateError, type TemplateErrorCode } from './errors.js';
import { formatValue } from './fmt/print.js';
import { type FuncContext, type FuncDef, type ParamType, goTypeNames } from './function.js';
import type {
  BranchNode,
  ChainNode,
  CommandNode,
  FieldNode,
  IdentifierNode,
  ListNode,
  Node,
  NumberNode,
  PipeNode,
  TemplateNode,
  Tree,
  VariableNode,
} from './parse/node.js';
import { nodeString } from './parse/node.js';
import { errorLocation } from './parse/parse.js';
import { byteLength, type GoObject, goFloat, hasKey, isTrue, kindOf, sliceMethod, typeName } from './value.js';

/** What exec needs from the template set. */
export interface ExecHost {
  lookup(name: string): Tree | undefined;
  func(name: string): FuncDef | undefined;
  readonly missingKey: 'zero' | 'error' | 'default';
  readonly maxOutputBytes: number;
  readonly maxDepth: number;
  context(state: { templateName: string; depth: number }): FuncContext;
}

const MISSING = Symbol('missing');
type Final = unknown;

class BreakSignal {}
class ContinueSignal {}
const BREAK = new BreakSignal();
const CONTINUE = new ContinueSignal();

interface Variable {
  name: string;
  value: unknown;
}

/** Output buffer with a byte cap. */
export class Output {
  private parts: string[] = [];
  private bytes = 0;
  constructor(private readonly max: number) {}
  write(s: string): void {
    if (s.length === 0) return;
    this.bytes += byteLength(s);
    if (this.bytes > this.max) throw new FuncError(`output exceeds the limit of ${this.max} bytes`, 'TPL_LIMIT');
    this.parts.push(s);
  }
  toString(): string {
    return this.parts.join('');
  }
}

function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, '\\x$1');
}

function truncateContext(s: string): string {
  if (byteLength(s) <= 20) return s;
  return Array.from(s).slice(0, 20).join('') + '...';
}

export class State {
  private vars: Variable[];
  private node: Node | undefined;
  /** Whether dot currently holds an interface{} element (range over a slice or map). */
  private dotIface = false;

  constructor(
    private readonly host: ExecHost,
    private readonly tree: Tree,
    private readonly out: Output,
    dollar: unknown,
    readonly depth: number,
  ) {
    this.vars = [{ name: '$', value: dollar }];
  }

  // ---- errors ----

  errorf(msg: string, code: TemplateErrorCode = 'TPL_EXEC'): never {
    const name = this.tree.name;
    if (!this.node) throw new TemplateError(`template: ${name}: ${msg}`, code, name);
    const { location, line, column } = errorLocation(this.node.tree, this.node.pos);
    const context = truncateContext(nodeString(this.node));
    throw new TemplateError(
      `template: ${location}: executing ${goQuote(name)} at <${context}>: ${msg}`,
      code,
      this.node.tree.parseName,
      line,
      column,
    );
  }

  private at(node: Node): void {
    this.node = node;
  }

  // ---- variables ----

  private push(name: string, value: unknown): void {
    this.vars.push({ name, value });
  }

  private mark(): number {
    return this.vars.length;
  }

  private pop(mark: number): void {
    this.vars.length = mark;
  }

  private setVar(name: string, value: unknown): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i]!.name === name) {
        this.vars[i]!.value = value;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }

  private setTopVar(n: number, value: unknown): void {
    this.vars[this.vars.length - n]!.value = value;
  }

  private varValue(name: string): unknown {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.name === name) return this.vars[i]!.value;
    this.errorf(`undefined variable: ${name}`);
  }

  // ---- walking ----

  run(dot: unknown): void {
    if (!this.tree.root) this.errorf(`${goQuote(this.tree.name)} is an incomplete or empty template`);
    this.walk(dot, this.tree.root);
  }

  private write(s: string): void {
    try {
      this.out.write(s);
    } catch (e) {
      if (e instanceof FuncError) this.errorf(e.message, e.code);
      throw e;
    }
  }

  private walk(dot: unknown, node: Node): void {
    this.at(node);
    switch (node.type) {
      case 'action': {
        const val = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, val);
        return;
      }
      case 'break':
        throw BREAK;
      case 'continue':
        throw CONTINUE;
      case 'comment':
        return;
      case 'if':
      case 'with':
        this.walkIfOrWith(dot, node);
        return;
      case 'list':
        for (const n of node.nodes) this.walk(dot, n);
        return;
      case 'range':
        this.walkRange(dot, node);
        return;
      case 'template':
        this.walkTemplate(dot, node);
        return;
      case 'text':
        this.write(node.text);
        return;
    }
    this.errorf(`unknown node: ${nodeString(node)}`);
  }

  private walkIfOrWith(dot: unknown, node: BranchNode): void {
    const mark = this.mark();
    try {
      const val = this.evalPipeline(dot, node.pipe);
      if (isTrue(val)) {
        if (node.type === 'with') this.walkWithDot(val, false, node.list);
        else this.walk(dot, node.list);
      } else if (node.elseList) this.walk(dot, node.elseList);
    } finally {
      this.pop(mark);
    }
  }

  private walkWithDot(dot: unknown, iface: boolean, list: ListNode): void {
    const saved = this.dotIface;
    this.dotIface = iface;
    try {
      this.walk(dot, list);
    } finally {
      this.dotIface = saved;
    }
  }

  private walkRange(dot: unknown, r: BranchNode): void {
    this.at(r);
    const outer = this.mark();
    try {
      const val = this.evalPipeline(dot, r.pipe);
      const mark = this.mark();
      const decl = r.pipe.decl;
      const oneIteration = (index: unknown, elem: unknown, iface: boolean): void => {
        if (decl.length > 0) {
          if (r.pipe.isAssign) {
            if (decl.length > 1) this.setVar(decl[0]!.ident[0]!, index);
            else this.setVar(decl[0]!.ident[0]!, elem);
          } else this.setTopVar(1, elem);
        }
        if (decl.length > 1) {
          if (r.pipe.isAssign) this.setVar(decl[1]!.ident[0]!, elem);
          else this.setTopVar(2, index);
        }
        try {
          this.walkWithDot(elem, iface, r.list);
        } catch (e) {
          if (e !== CONTINUE) throw e;
        } finally {
          this.pop(mark);
        }
      };
      try {
        switch (kindOf(val)) {
          case 'slice': {
            const arr = val as ArrayLike<unknown>;
            if (arr.length === 0) break;
            for (let i = 0; i < arr.length; i++) oneIteration(i, arr[i], !(arr instanceof Uint8Array));
            return;
          }
          case 'map': {
            const map = val as Record<string, unknown>;
            const keys = Object.keys(map).sort(compareCodepoints);
            if (keys.length === 0) break;
            for (const k of keys) oneIteration(k, map[k], true);
            return;
          }
          case 'int': {
            if (decl.length > 1) this.errorf(`can't use ${formatValue(val)} to iterate over more than one variable`);
            const n = Number(val);
            if (n <= 0) break;
            for (let i = 0; i < n; i++) oneIteration(undefined, i, false);
            return;
          }
          case 'object': {
            const entries = (val as GoObject).mapEntries?.();
            if (!entries) this.errorf(`range can't iterate over ${formatValue(val)}`);
            if (entries.length === 0) break;
            for (const [k, v] of [...entries].sort(([a], [b]) => compareCodepoints(a, b))) oneIteration(k, v, true);
            return;
          }
          case 'invalid':
          case 'nil':
            break;
          default:
            this.errorf(`range can't iterate over ${formatValue(val)}`);
        }
      } catch (e) {
        if (e === BREAK) return;
        throw e;
      }
      if (r.elseList) this.walk(dot, r.elseList);
    } finally {
      this.pop(outer);
    }
  }

  private walkTemplate(dot: unknown, t: TemplateNode): void {
    this.at(t);
    const tree = this.host.lookup(t.name);
    if (!tree) this.errorf(`template ${goQuote(t.name)} not defined`);
    if (this.depth >= this.host.maxDepth)
      this.errorf(`exceeded maximum template depth (${this.host.maxDepth})`, 'TPL_LIMIT');
    const value = this.evalPipeline(dot, t.pipe);
    const next = new State(this.host, tree, this.out, value, this.depth + 1);
    next.walk(value, tree.root);
  }

  // ---- evaluation ----

  evalPipeline(dot: unknown, pipe: PipeNode | undefined): unknown {
    if (!pipe) return undefined;
    this.at(pipe);
    let value: unknown = MISSING;
    for (const cmd of pipe.cmds) {
      value = this.evalCommand(dot, cmd, value);
      // A nil interface{} result is "no value" from here on (Go's "lovely" unwrap).
      if (value === null) value = undefined;
    }
    for (const v of pipe.decl) {
      if (pipe.isAssign) this.setVar(v.ident[0]!, value);
      else this.push(v.ident[0]!, value);
    }
    return value;
  }

  private notAFunction(args: readonly Node[] | undefined, final: Final): void {
    if ((args && args.length > 1) || final !== MISSING)
      this.errorf(`can't give argument to non-function ${nodeString(args![0]!)}`);
  }

  private evalCommand(dot: unknown, cmd: CommandNode, final: Final): unknown {
    const first = cmd.args[0]!;
    switch (first.type) {
      case 'field':
        return this.evalFieldNode(dot, first, cmd.args, final);
      case 'chain':
        return this.evalChainNode(dot, first, cmd.args, final);
      case 'identifier':
        return this.evalFunction(dot, first, cmd, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first);
      case 'variable':
        return this.evalVariableNode(dot, first, cmd.args, final);
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.type) {
      case 'bool':
        return first.value;
      case 'dot':
        return dot;
      case 'nil':
        this.errorf('nil is not a command');
        break;
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return first.text;
    }
    this.errorf(`can't evaluate command ${goQuote(nodeString(first))}`);
  }

  private idealConstant(c: NumberNode): unknown {
    this.at(c);
    const isHexInt = /^[+-]?0[xX]/.test(c.text) && !/[pP]/.test(c.text);
    const isRune = c.text.startsWith("'");
    if (c.isFloat && !isHexInt && !isRune && /[.eEpP]/.test(c.text)) return goFloat(c.float64);
    if (c.isInt) return intValue(c.int64);
    if (c.isUint) this.errorf(`${c.text} overflows int`);
    return undefined;
  }

  private evalFieldNode(dot: unknown, field: FieldNode, args: readonly Node[] | undefined, final: Final): unknown {
    this.at(field);
    return this.evalFieldChain(dot, dot, this.dotIface, field, field.ident, args, final);
  }

  private evalChainNode(dot: unknown, chain: ChainNode, args: readonly Node[] | undefined, final: Final): unknown {
    this.at(chain);
    if (chain.field.length === 0) this.errorf('internal error: no fields in evalChainNode');
    if (chain.node.type === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
    const pipe = this.evalArg(dot, undefined, chain.node);
    return this.evalFieldChain(dot, pipe, false, chain, chain.field, args, final);
  }

  private evalVariableNode(dot: unknown, v: VariableNode, args: readonly Node[] | undefined, final: Final): unknown {
    this.at(v);
    const value = this.varValue(v.ident[0]!);
    if (v.ident.length === 1) {
      this.notAFunction(args, final);
      return value;
    }
    return this.evalFieldChain(dot, value, false, v, v.ident.slice(1), args, final);
  }

  private evalFieldChain(
    dot: unknown,
    receiver: unknown,
    iface: boolean,
    node: Node,
    ident: readonly string[],
    args: readonly Node[] | undefined,
    final: Final,
  ): unknown {
    const n = ident.length;
    let r = receiver;
    let ri = iface;
    for (let i = 0; i < n - 1; i++) {
      r = this.evalField(ident[i]!, undefined, MISSING, r, ri);
      ri = true;
    }
    return this.evalField(ident[n - 1]!, args, final, r, ri);
  }

  private evalField(
    fieldName: string,
    args: readonly Node[] | undefined,
    final: Final,
    receiver: unknown,
    iface: boolean,
  ): unknown {
    if (receiver === undefined) {
      if (this.host.missingKey === 'error') this.errorf(`nil data; no entry for key ${goQuote(fieldName)}`);
      return undefined;
    }
    const typ = iface ? 'interface {}' : typeName(receiver);
    if (receiver === null) this.errorf(`nil pointer evaluating ${typ}.${fieldName}`);
    const hasArgs = (args !== undefined && args.length > 1) || final !== MISSING;
    const kind = kindOf(receiver);
    if (kind === 'map') {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`);
      const map = receiver as Record<string, unknown>;
      if (hasKey(map, fieldName)) return map[fieldName];
      switch (this.host.missingKey) {
        case 'zero':
          return null;
        case 'error':
          this.errorf(`map has no entry for key ${goQuote(fieldName)}`);
          break;
        default:
          return undefined;
      }
    }
    if (kind === 'object') {
      const v = (receiver as { field(name: string): unknown }).field(fieldName);
      if (v !== undefined) {
        if (typeof v === 'function') return this.callMethod(fieldName, v as (...a: unknown[]) => unknown, args, final);
        if (hasArgs) this.errorf(`${fieldName} has arguments but cannot be invoked as function`);
        return v;
      }
    }
    if (kind === 'slice') {
      const method = sliceMethod(receiver as object, fieldName);
      if (method) return this.callMethod(fieldName, method, args, final);
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${typ}`);
  }

  /** A method of a typed Go value (GoObject): arguments are interface{} values. */
  private callMethod(
    name: string,
    method: (...a: unknown[]) => unknown,
    args: readonly Node[] | undefined,
    final: Final,
  ): unknown {
    const node = this.node!;
    const argv = (args ?? []).slice(1).map((a) => this.evalArg(undefined, 'any', a));
    if (final !== MISSING) argv.push(final === undefined ? null : final);
    try {
      return method(...argv);
    } catch (e) {
      this.at(node);
      this.errorf(`error calling ${name}: ${errorMessage(e)}`);
    }
  }

  private evalFunction(
    dot: unknown,
    node: IdentifierNode,
    cmd: Node,
    args: readonly Node[] | undefined,
    final: Final,
  ): unknown {
    this.at(node);
    const name = node.ident;
    const fn = this.host.func(name);
    if (!fn) this.errorf(`${goQuote(name)} is not a defined function`);
    return this.evalCall(dot, fn, cmd, name, args, final);
  }

  private evalCall(
    dot: unknown,
    fn: FuncDef,
    node: Node,
    name: string,
    allArgs: readonly Node[] | undefined,
    final: Final,
  ): unknown {
    const args = allArgs ? allArgs.slice(1) : [];
    let numIn = args.length;
    if (final !== MISSING) numIn++;
    const numFixed = fn.params.length;
    if (fn.variadic) {
      if (numIn < numFixed)
        this.errorf(`wrong number of args for ${name}: want at least ${numFixed} got ${args.length}`);
    } else if (numIn !== numFixed) {
      this.errorf(`wrong number of args for ${name}: want ${numFixed} got ${numIn}`);
    }

    if (fn.shortCircuit) {
      const wantTruth = fn.shortCircuit === 'or';
      let v: unknown = undefined;
      for (const arg of args) {
        v = this.evalArg(dot, 'value', arg);
        if (v === null) v = undefined;
        if (isTrue(v) === wantTruth) return v;
      }
      if (final !== MISSING) v = final === null ? undefined : final;
      return v;
    }

    const argv: unknown[] = [];
    let i = 0;
    for (; i < numFixed && i < args.length; i++) argv.push(this.evalArg(dot, fn.params[i], args[i]!));
    if (fn.variadic) for (; i < args.length; i++) argv.push(this.evalArg(dot, fn.variadic, args[i]!));
    if (final !== MISSING) {
      const t = numIn - 1 < numFixed ? fn.params[numIn - 1]! : fn.variadic!;
      argv.push(this.validateType(final, t));
    }
    let result: unknown;
    try {
      result = fn.impl(this.host.context({ templateName: this.tree.name, depth: this.depth }), ...argv);
    } catch (e) {
      this.at(node);
      if (e instanceof TemplateError && e.code === 'TPL_LIMIT') throw e;
      if (e instanceof RangeError) this.errorf(`exceeded maximum template depth (stack exhausted)`, 'TPL_LIMIT');
      const code: TemplateErrorCode = e instanceof FuncError || e instanceof TemplateError ? e.code : 'TPL_EXEC';
      this.errorf(`error calling ${name}: ${errorMessage(e)}`, code);
    }
    if (
      typeof result === 'string' &&
      result.length > this.host.maxOutputBytes &&
      byteLength(result) > this.host.maxOutputBytes
    ) {
      this.at(node);
      this.errorf(
        `error calling ${name}: result exceeds the output limit of ${this.host.maxOutputBytes} bytes`,
        'TPL_LIMIT',
      );
    }
    if (result === undefined && !fn.raw) return null;
    return result;
  }

  /** Go's validateType: is value assignable to a parameter of type t? */
  private validateType(value: unknown, t: ParamType | undefined): unknown {
    if (value === undefined || value === MISSING) {
      if (t === undefined || t === 'value') return undefined;
      if (t === 'any' || t === 'map' || t === 'slice') return null;
      this.errorf(`invalid value; expected ${goTypeNames[t]}`);
    }
    if (t === undefined || t === 'value' || t === 'any') return value;
    const k = kindOf(value);
    let ok: boolean;
    switch (t) {
      case 'string':
        ok = k === 'string';
        break;
      case 'int':
      case 'int64':
        ok = k === 'int';
        break;
      case 'float64':
        ok = k === 'float';
        break;
      case 'bool':
        ok = k === 'bool';
        break;
      case 'slice':
        ok = k === 'slice' && typeName(value) === '[]interface {}';
        break;
      case 'map':
        ok = k === 'map';
        break;
    }
    if (!ok)
      this.errorf(
        `wrong type for value; expected ${goTypeNames[t]}; got ${value === null ? 'interface {}' : typeName(value)}`,
      );
    return value;
  }

  private evalArg(dot: unknown, t: ParamType | undefined, n: Node): unknown {
    this.at(n);
    switch (n.type) {
      case 'dot':
        return this.validateType(dot, t);
      case 'nil':
        if (t === undefined || t === 'value') return undefined;
        if (t === 'any' || t === 'map' || t === 'slice') return null;
        this.errorf(`cannot assign nil to ${goTypeNames[t]}`);
        break;
      case 'field':
        return this.validateType(this.evalFieldNode(dot, n, [n], MISSING), t);
      case 'variable':
        return this.validateType(this.evalVariableNode(dot, n, undefined, MISSING), t);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, n), t);
      case 'identifier': {
        const fn = this.host.func(n.ident);
        if (!fn) this.errorf(`${goQuote(n.ident)} is not a defined function`);
        return this.validateType(this.evalCall(dot, fn, n, n.ident, undefined, MISSING), t);
      }
      case 'chain':
        return this.validateType(this.evalChainNode(dot, n, undefined, MISSING), t);
    }
    switch (t) {
      case 'bool':
        if (n.type === 'bool') return n.value;
        this.errorf(`expected bool; found ${nodeString(n)}`);
        break;
      case 'string':
        if (n.type === 'string') return n.text;
        this.errorf(`expected string; found ${nodeString(n)}`);
        break;
      case 'int':
      case 'int64':
        if (n.type === 'number' && n.isInt) return intValue(n.int64);
        this.errorf(`expected integer; found ${nodeString(n)}`);
        break;
      case 'float64':
        if (n.type === 'number' && n.isFloat) return goFloat(n.float64);
        this.errorf(`expected float; found ${nodeString(n)}`);
        break;
      case 'map':
      case 'slice':
        this.errorf(`can't handle ${nodeString(n)} for arg of type ${goTypeNames[t]}`);
        break;
    }
    switch (n.type) {
      case 'bool':
        return n.value;
      case 'number':
        return this.idealConstant(n);
      case 'string':
        return n.text;
    }
    this.errorf(`can't handle assignment of ${nodeString(n)} to empty interface argument`);
  }

  private printValue(n: Node, v: unknown): void {
    this.at(n);
    if (v === undefined) {
      this.write('<no value>');
      return;
    }
    if (typeof v === 'function') this.errorf(`can't print ${nodeString(n)} of type ${typeName(v)}`);
    this.write(formatValue(v));
  }
}

/** An int64 constant as our int representation (bigint only beyond 2^53). */
function intValue(i: bigint): number | bigint {
  const n = Number(i);
  return Number.isSafeInteger(n) ? n : i;
}

function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
