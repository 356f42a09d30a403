/**
 * Typed access to a command's flag values: what the client sent, else the
 * catalog default. Paths resolve against the client's cwd, not the daemon's.
 */
import { isAbsolute, resolve } from 'node:path';
import { findCommand, flagsOf, type CommandParams, type FlagSpec } from '../../protocol/index.js';

export class Flags {
  private readonly specs: Map<string, FlagSpec>;

  constructor(
    command: string,
    private readonly params: CommandParams,
  ) {
    const spec = findCommand(command);
    this.specs = new Map((spec ? flagsOf(spec) : []).map((f) => [f.name, f]));
  }

  private value(name: string): unknown {
    if (!this.specs.has(name)) throw new Error(`internal: flag --${name} is not in the catalog`);
    return this.params.flags[name] ?? this.specs.get(name)!.default;
  }

  str(name: string): string {
    const v = this.value(name);
    return typeof v === 'string' ? v : '';
  }

  bool(name: string): boolean {
    return this.value(name) === true;
  }

  int(name: string): number {
    const v = this.value(name);
    return typeof v === 'number' ? v : 0;
  }

  /** A `float` flag (--qps-limit); 0 when unset, as pflag's Float32 zero value. */
  float(name: string): number {
    return this.int(name);
  }

  list(name: string): string[] {
    const v = this.value(name);
    return Array.isArray(v) ? v : [];
  }

  /** True when the client set the flag (CLI or env), as opposed to its default. */
  given(name: string): boolean {
    return this.params.flags[name] !== undefined;
  }

  path(p: string): string {
    return isAbsolute(p) ? p : resolve(this.params.cwd, p);
  }
}
