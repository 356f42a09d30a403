import type { TemplateFile, TemplateNode } from '../ytt/index.js';

/** A template node's value path (`a.b.[0].c`), as warnings and frozen values name it. */
export function nodePath(t: TemplateFile, n: TemplateNode): string {
  const parts: string[] = [];
  for (let c: TemplateNode | undefined = n; c && c.kind !== 'doc'; c = t.nodes[c.parent]) {
    const siblings = t.nodes.filter((x) => x.parent === c!.parent && x.kind === 'arrayitem');
    parts.unshift(c.kind === 'mapitem' ? String(c.key) : `[${siblings.indexOf(c)}]`);
  }
  return parts.join('.');
}
