/**
 * A set of named templates sharing options and functions, like Go's
 * *template.Template with its associated templates. Parsing more text into
 * the set follows Go's association rule: a non-empty definition replaces an
 * earlier one, an empty one never does. Execution is synchronous and pure:
 * time and randomness come only from the injected clock and random source.
 */

import { FuncError, TemplateError } from './errors.js';
import { type ExecHost, Output, State } from './exec.js';
import { type FuncContext, type FuncDef, FunctionProfile } from './function.js';
import { builtinFuncs } from './funcs.js';
import { type MissingKey, type TemplateOptions, resolveOptions, type ResolvedOptions } from './option.js';
import { isEmptyTree, type Tree } from './parse/node.js';
import { parse } from './parse/parse.js';

const builtinNames = new Set(Object.keys(builtinFuncs));

export class TemplateSet {
  private readonly trees = new Map<string, Tree>();
  private readonly opts: ResolvedOptions;

  constructor(
    /** Name of the set's first template (used in "no template X associated with template Y"). */
    readonly name: string,
    options: TemplateOptions = {},
  ) {
    this.opts = resolveOptions(options);
  }

  get options(): ResolvedOptions {
    return this.opts;
  }

  /** The function Go would call for `name`: profile functions override builtins, as Funcs does. */
  func(name: string): FuncDef | undefined {
    return this.opts.functions.get(name) ?? (builtinNames.has(name) ? builtinFuncs[name] : undefined);
  }

  /** Parses `text` as template `name` (and its defines) into this set. Throws TemplateError. */
  parse(name: string, text: string): this {
    const profile = this.opts.functions;
    let trees: Map<string, Tree>;
    try {
      trees = parse(name, text, {
        hasFunction: (n) => this.func(n) !== undefined,
        unavailable: (n) => profile.unavailable(n),
        leftDelim: this.opts.leftDelim,
        rightDelim: this.opts.rightDelim,
      });
    } catch (e) {
      if (e instanceof TemplateError) throw e;
      if (e instanceof RangeError)
        throw new TemplateError(`template: ${name}: input too deeply nested`, 'TPL_LIMIT', name);
      throw new TemplateError(
        `template: ${name}: internal error: ${e instanceof Error ? e.message : String(e)}`,
        'TPL_PARSE',
        name,
      );
    }
    for (const [n, tree] of trees) {
      const old = this.trees.get(n);
      if (old && isEmptyTree(tree.root)) continue;
      this.trees.set(n, tree);
    }
    return this;
  }

  lookup(name: string): Tree | undefined {
    return this.trees.get(name);
  }

  /** Names of all templates in the set, sorted. */
  templateNames(): string[] {
    return [...this.trees.keys()].sort();
  }

  /** A copy sharing parsed trees (which are immutable) but not the name table. */
  clone(): TemplateSet {
    const c = new TemplateSet(this.name, this.opts);
    for (const [k, v] of this.trees) c.trees.set(k, v);
    return c;
  }

  /** Executes template `name` with `data` and returns its output. Throws TemplateError. */
  execute(name: string, data: unknown): string {
    return this.run(name, data, new Map(), 0);
  }

  private run(name: string, data: unknown, scratch: Map<string, unknown>, depth: number): string {
    if (depth >= this.opts.maxDepth)
      throw new FuncError(`exceeded maximum template depth (${this.opts.maxDepth})`, 'TPL_LIMIT');
    const tree = this.trees.get(name);
    if (!tree)
      throw new TemplateError(`template: no template "${name}" associated with template "${this.name}"`, 'TPL_EXEC');
    const out = new Output(this.opts.maxOutputBytes);
    const host = this.host(scratch);
    const dot = data === null ? undefined : data;
    try {
      new State(host, tree, out, dot, depth).run(dot);
    } catch (e) {
      if (e instanceof TemplateError) throw e;
      if (e instanceof FuncError) throw new TemplateError(`template: ${name}: ${e.message}`, e.code, name);
      if (e instanceof RangeError)
        throw new TemplateError(
          `template: ${name}: exceeded maximum template depth (stack exhausted)`,
          'TPL_LIMIT',
          name,
        );
      // Never let a raw JS exception escape: report it as a template failure.
      throw new TemplateError(
        `template: ${name}: internal error: ${e instanceof Error ? e.message : String(e)}`,
        'TPL_EXEC',
        name,
      );
    }
    return out.toString();
  }

  private host(scratch: Map<string, unknown>): ExecHost {
    const opts = this.opts;
    const run = (n: string, data: unknown, depth: number) => this.run(n, data, scratch, depth);
    const runText = (n: string, text: string, data: unknown, depth: number) =>
      this.clone().parse(n, text).run(n, data, scratch, depth);
    return {
      lookup: (n) => this.trees.get(n),
      func: (n) => this.func(n),
      missingKey: opts.missingKey,
      maxOutputBytes: opts.maxOutputBytes,
      maxDepth: opts.maxDepth,
      context(state): FuncContext {
        return {
          now: opts.clock,
          random: opts.random,
          maxOutputBytes: opts.maxOutputBytes,
          templateName: state.templateName,
          scratch,
          executeTemplate: (n, data) => run(n, data, state.depth + 1),
          executeText: (n, text, data) => runText(n, text, data, state.depth + 1),
        };
      },
    };
  }
}

/** Parses `text` as template `name` into a new set. Throws TemplateError on syntax errors. */
export function parseTemplate(name: string, text: string, options?: TemplateOptions): TemplateSet {
  return new TemplateSet(name, options).parse(name, text);
}

export type { MissingKey, TemplateOptions };
export { FunctionProfile };
