/**
 * How template functions are declared. Each function lists Go parameter types
 * so exec can reproduce Go's argument checks and messages ("wrong number of
 * args for X: want 2 got 1", "wrong type for value; expected string; got int",
 * "invalid value; expected string"). A FunctionProfile is an immutable name →
 * definition table plus names withheld on purpose (non-hermetic functions).
 */

/**
 * Go parameter types: 'value' is reflect.Value (the raw exec value, undefined
 * for "no value"); 'any' is interface{} (missing → null); the rest are the Go
 * types of the same name.
 */
export type ParamType = 'value' | 'any' | 'string' | 'int' | 'int64' | 'float64' | 'bool' | 'slice' | 'map';

export const goTypeNames: Record<ParamType, string> = {
  value: 'reflect.Value',
  any: 'interface {}',
  string: 'string',
  int: 'int',
  int64: 'int64',
  float64: 'float64',
  bool: 'bool',
  slice: '[]interface {}',
  map: 'map[string]interface {}',
};

/** What a function may reach besides its arguments (never the host). */
export interface FuncContext {
  /** Milliseconds since the epoch, from the injected clock. */
  now(): number;
  /** A number in [0, 1) from the injected random source. */
  random(): number;
  /** The output cap in bytes; functions building strings check against it. */
  readonly maxOutputBytes: number;
  /** Executes a named template of the current set with `data` (Helm's include). */
  executeTemplate(name: string, data: unknown): string;
  /** Parses `text` into the current set as template `name` and executes it (Helm's tpl). */
  executeText(name: string, text: string, data: unknown): string;
  /** Name of the template being executed. */
  readonly templateName: string;
  /** State shared by every function call of one top-level execution (e.g. include's recursion counts). */
  readonly scratch: Map<string, unknown>;
}

export interface FuncDef {
  readonly params: readonly ParamType[];
  /** Element type of a trailing variadic parameter. */
  readonly variadic?: ParamType;
  readonly impl: (ctx: FuncContext, ...args: any[]) => unknown;
  /** Result is a raw exec value (undefined = no value) rather than an interface{}. */
  readonly raw?: boolean;
  /** Builtin `and`/`or`: arguments are evaluated lazily. */
  readonly shortCircuit?: 'and' | 'or';
}

/** Declares a function. */
export function def(
  params: readonly ParamType[],
  impl: (ctx: FuncContext, ...args: any[]) => unknown,
  variadic?: ParamType,
): FuncDef {
  return variadic ? { params, impl, variadic } : { params, impl };
}

/** Declares a function that does not need the context. */
export function pure(params: readonly ParamType[], impl: (...args: any[]) => unknown, variadic?: ParamType): FuncDef {
  return def(params, (_ctx, ...args) => impl(...args), variadic);
}

export class FunctionProfile {
  private readonly funcs: ReadonlyMap<string, FuncDef>;
  private readonly withheld: ReadonlyMap<string, string>;

  constructor(funcs: Record<string, FuncDef> | ReadonlyMap<string, FuncDef>, withheld: Record<string, string> = {}) {
    this.funcs = funcs instanceof Map ? new Map(funcs) : new Map(Object.entries(funcs));
    this.withheld = new Map(Object.entries(withheld));
  }

  get(name: string): FuncDef | undefined {
    return this.funcs.get(name);
  }

  has(name: string): boolean {
    return this.funcs.has(name);
  }

  names(): string[] {
    return [...this.funcs.keys()].sort();
  }

  /** Why a withheld name is unavailable, or undefined. */
  unavailable(name: string): string | undefined {
    return this.withheld.get(name);
  }

  /** A new profile with more functions (overriding same names) and more withheld names. */
  extend(funcs: Record<string, FuncDef>, withheld: Record<string, string> = {}): FunctionProfile {
    const merged = new Map(this.funcs);
    for (const [k, v] of Object.entries(funcs)) merged.set(k, v);
    const w: Record<string, string> = Object.fromEntries(this.withheld);
    for (const [k, v] of Object.entries(withheld)) {
      w[k] = v;
      merged.delete(k);
    }
    for (const k of Object.keys(funcs)) delete w[k];
    return new FunctionProfile(merged, w);
  }
}
