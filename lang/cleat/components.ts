/**
 * Components (spec §9): named exports with `after`. Checks that dependencies
 * exist, that no component depends on itself, and that there are no cycles
 * (reported as `a -> b -> a`); computes waves (0 without dependencies, else
 * one more than the largest dependency wave). Unnamed exports form the
 * implicit component `default`, which has no dependencies.
 */
import type { Diagnostic, Span } from '../common/source.js';
import type * as A from './ast.js';
import { CleatCodes, didYouMean } from './diagnostics.js';

export interface ComponentDecl {
  name: string;
  after: string[];
  span: Span;
}

/** Component declarations in source order (the implicit `default` first appears where its first export is). */
export function componentDecls(items: A.Item[], diags: Diagnostic[]): ComponentDecl[] {
  const out: ComponentDecl[] = [];
  const byName = new Map<string, ComponentDecl>();
  for (const it of items) {
    if (it.kind !== 'Export') continue;
    const name = it.name ?? 'default';
    const existing = byName.get(name);
    if (existing) {
      if (it.name !== undefined)
        diags.push({ code: CleatCodes.COMPONENT, message: `component \`${name}\` is exported twice`, span: it.span });
      continue;
    }
    const c: ComponentDecl = { name, after: it.after.map((a) => a.name), span: it.span };
    byName.set(name, c);
    out.push(c);
  }
  for (const it of items) {
    if (it.kind !== 'Export') continue;
    for (const a of it.after) {
      if (a.name === it.name)
        diags.push({
          code: CleatCodes.COMPONENT_CYCLE,
          message: `component \`${a.name}\` cannot depend on itself`,
          span: a.span,
        });
      else if (!byName.has(a.name))
        diags.push({
          code: CleatCodes.COMPONENT,
          message: `unknown component \`${a.name}\`${didYouMean(a.name, byName.keys())}`,
          span: a.span,
        });
    }
  }
  return out;
}

/** Waves by component name, or the cycles found (each reported once). */
export function componentWaves(decls: ComponentDecl[], diags: Diagnostic[]): Map<string, number> {
  const byName = new Map(decls.map((d) => [d.name, d]));
  const waves = new Map<string, number>();
  const state = new Map<string, 'active' | 'done'>();
  const reported = new Set<string>();
  const visit = (name: string, stack: string[]): number => {
    const s = state.get(name);
    if (s === 'done') return waves.get(name)!;
    if (s === 'active') {
      const cycle = [...stack.slice(stack.indexOf(name)), name];
      const key = [...cycle].slice(0, -1).sort().join(',');
      if (!reported.has(key)) {
        reported.add(key);
        diags.push({
          code: CleatCodes.COMPONENT_CYCLE,
          message: `component cycle: ${cycle.join(' -> ')}`,
          span: byName.get(name)!.span,
        });
      }
      return 0;
    }
    state.set(name, 'active');
    let wave = 0;
    for (const dep of byName.get(name)!.after) {
      if (dep === name || !byName.has(dep)) continue;
      wave = Math.max(wave, visit(dep, [...stack, name]) + 1);
    }
    state.set(name, 'done');
    waves.set(name, wave);
    return wave;
  };
  for (const d of decls) visit(d.name, []);
  return waves;
}
