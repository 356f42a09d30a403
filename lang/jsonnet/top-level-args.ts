/**
 * Top-level arguments (`--tla-str`, `--tla-code`): a module whose value is a
 * function is called with them by name, as the jsonnet command does; any
 * other value is left as it is. Code arguments are parsed as their own
 * `<top-level-arg:NAME>` snippets and evaluated lazily, like any argument.
 */
import type { Evaluator } from './evaluator.js';
import type { RuntimeOptions } from './module.js';
import { FuncValue, Thunk, type Value } from './value.js';

export function applyTopLevelArgs(ev: Evaluator, top: Value, tlas: RuntimeOptions['tlas']): Value {
  if (!(top instanceof FuncValue)) return top;
  const named: [string, Thunk][] = [];
  for (const [name, tla] of Object.entries(tlas ?? {})) {
    if (tla.kind === 'string') named.push([name, Thunk.ready(tla.value)]);
    else {
      const m = ev.parseCodeVar(`<top-level-arg:${name}>`, tla.value);
      named.push([name, Thunk.computed(() => ev.evaluateModule(m))]);
    }
  }
  ev.cur = 'Top-level function call';
  return ev.callFunction(top, [], named, false);
}
