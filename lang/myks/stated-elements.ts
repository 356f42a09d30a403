/**
 * The keys every element the sources state sets, for an element schema's
 * required fields: computed or not, an element states a key when its
 * template writes it. Undefined when no element is stated, or when one is
 * computed whole (its keys cannot be known), so nothing is made required.
 */
import { nodePath } from './node-path.js';
import { isMap, type Value } from './kcl-write.js';
import type { SourceValues } from './sources.js';

export function elementKeys(srcs: readonly SourceValues[], arrayPath: string): Set<string> | undefined {
  const re = new RegExp(
    `^${arrayPath
      .split('.')
      .map((s) => (/^\[\d+\]$/.test(s) ? '\\[\\d+\\]' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('\\.')}$`,
  );
  let keys: Set<string> | undefined;
  for (const s of srcs) {
    if (s.isSchema || !s.template) continue;
    const t = s.template;
    for (const n of t.nodes) {
      if (n.kind === 'doc' || !re.test(nodePath(t, n))) continue;
      if (n.code || (n.container !== 'array' && n.scalar !== null && n.scalar !== undefined)) return undefined;
      for (const item of t.nodes.filter((k) => k.parent === n.id && k.kind === 'arrayitem')) {
        if (item.code || item.container !== 'map') return undefined;
        const own = new Set(t.nodes.filter((k) => k.parent === item.id).map((k) => String(k.key)));
        keys = keys ? new Set([...keys].filter((k) => own.has(k))) : own;
      }
    }
  }
  return keys;
}

/**
 * The value paths (`application.image`) every declaration states plainly: each
 * declaration is the sources its level carries for one application. Empty when
 * there is no declaration.
 */
export function statedByEvery(declarations: readonly (readonly SourceValues[])[]): Set<string> {
  let out: Set<string> | undefined;
  for (const d of declarations) {
    const own = new Set<string>();
    const walk = (v: Value, path: string): void => {
      if (path) own.add(path);
      if (isMap(v)) for (const e of v.map) walk(e.value, path ? `${path}.${e.key}` : e.key);
    };
    for (const s of d) if (s.value) walk(s.value, '');
    out = out ? new Set([...out].filter((p) => own.has(p))) : own;
  }
  return out ?? new Set();
}
