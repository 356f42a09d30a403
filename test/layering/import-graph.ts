/**
 * The runtime import graph of the compiled tree (dist/): type-only imports
 * are gone after tsc, so an edge here is a module that really loads another.
 * Used by the layering test and runnable by hand:
 *   node dist/test/layering/import-graph.js   (prints cycles, if any)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/, found from this file's place in it (or beside the sources when run with tsx). */
const here = dirname(fileURLToPath(import.meta.url));
const distRoot = import.meta.url.endsWith('.ts') ? resolve(here, '../../dist') : resolve(here, '../..');

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function jsFiles(dir: string, out: string[]): string[] {
  for (const ent of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, ent.name);
    if (ent.isDirectory()) jsFiles(p, out);
    else if (ent.name.endsWith('.js') && !ent.name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

/** Production modules (no tests, no test/ or bench/ folders) → the relative modules each imports, paths relative to dist/. */
export function runtimeImportGraph(root = distRoot): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of jsFiles(root, [])) {
    const rel = relative(root, file);
    if (rel.startsWith('test/') || rel.startsWith('bench/')) continue;
    const text = readFileSync(file, 'utf8');
    const deps: string[] = [];
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (!spec.startsWith('.')) continue;
      deps.push(relative(root, resolve(dirname(file), spec)));
    }
    graph.set(rel, deps);
  }
  return graph;
}

/** Strongly connected components with more than one member (or a self-import): the cycles. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** The graph with each module replaced by its folder (as folderOf names it), edges inside one folder dropped. */
export function folderGraph(graph: Map<string, string[]>, folderOf: (module: string) => string): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const [from, deps] of graph) {
    const f = folderOf(from);
    if (!out.has(f)) out.set(f, new Set());
    for (const d of deps) {
      const g = folderOf(d);
      if (g !== f) out.get(f)!.add(g);
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = runtimeImportGraph();
  const found = cycles(graph);
  for (const c of found) console.log('cycle:', c.join(' <-> '));
  console.log(`${graph.size} modules, ${found.length} cycles`);
}
