/**
 * The converter's reports on array semantics the KCL tree cannot promise
 * (spec, "Known limitations"). KCL replaces a list where a level states one;
 * myks hands the values to ytt templates through generated files whose arrays
 * carry `#@overlay/replace`, but a key the engine's data schema does not
 * declare travels in a generated schema document, where two levels stating
 * the same array still merge element by element; and such a document cannot
 * carry a multi-element array of a custom (non-engine) scope at all. Both are
 * detected from the legacy sources and reported; the values themselves are
 * proved per leaf like everything else.
 */
import { parseTemplate } from '../ytt/index.js';
import { DATA_SCHEMA, DATA_SCHEMA_PATH } from './data-schema.js';
import { nodePath } from './node-path.js';
import type { SourceValues } from './sources.js';

const ENGINE_SCOPES = new Set(['environment', 'application', 'argocd', 'helm', 'kbld', 'render', 'yttPkg', 'myks']);

let declaredPaths: Set<string> | undefined;
function declared(): Set<string> {
  if (!declaredPaths) {
    const t = parseTemplate(DATA_SCHEMA_PATH, DATA_SCHEMA);
    declaredPaths = new Set(t.nodes.filter((n) => n.kind !== 'doc').map((n) => nodePath(t, n)));
  }
  return declaredPaths;
}

/** A value path the engine's data schema does not declare; an application's own scope is its prototype schema's, not this. */
export function undeclared(path: string): boolean {
  if (path === 'application' || path.startsWith('application.')) return false;
  return !declared().has(path.replace(/\.\[\d+\]/g, '.[0]'));
}

export interface StatedLevel {
  /** the level (or prototype directory) stating values */
  level: string;
  files: readonly SourceValues[];
}

/** One scope of one leaf: the environment's values, or one application's. */
export interface ScopeSources {
  /** `environment prod`, `prod application web` */
  what: string;
  levels: readonly StatedLevel[];
  /** the values the legacy side resolves for it, when known (arrays merged across files) */
  resolved?: Record<string, unknown>;
}

export function arrayReports(scopes: readonly ScopeSources[]): string[] {
  const out: string[] = [];
  for (const sc of scopes) {
    const at = new Map<string, string[]>();
    const multi = new Map<string, number>();
    for (const { level, files } of sc.levels)
      for (const s of files) {
        const t = s.template;
        if (!t || s.kind === 'skipped') continue;
        for (const n of t.nodes) {
          if (n.kind !== 'mapitem' || n.container !== 'array') continue;
          const p = nodePath(t, n);
          const items = t.nodes.filter((k) => k.parent === n.id && k.kind === 'arrayitem').length;
          if (items > 1 && !ENGINE_SCOPES.has(p.split('.')[0]!)) multi.set(p, Math.max(items, multi.get(p) ?? 0));
          if (p.includes('[') || !undeclared(p)) continue;
          const lv = at.get(p) ?? [];
          if (!lv.includes(level)) lv.push(level);
          at.set(p, lv);
        }
      }
    for (const [p, lv] of at)
      if (lv.length > 1)
        out.push(
          `array semantics: ${p} of ${sc.what} is stated at ${lv.join(' and ')} and the engine's data schema does not declare it: the KCL tree replaces it level by level, while ytt templates receive it through a generated schema document, which merges it element by element; trust the gate`,
        );
    for (const [p, n] of multiElementArrays(sc.resolved, '')) multi.set(p, Math.max(n, multi.get(p) ?? 0));
    for (const [p, n] of multi)
      out.push(
        `arrays in custom scopes: ${p} of ${sc.what} has ${n} elements; a custom scope travels to ytt templates through a generated schema document, which cannot carry a multi-element array`,
      );
  }
  return out;
}

function* multiElementArrays(v: unknown, path: string): Generator<[string, number]> {
  if (Array.isArray(v)) {
    if (v.length > 1) yield [path, v.length];
    return;
  }
  if (v === null || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    if (path === '' && ENGINE_SCOPES.has(k)) continue;
    yield* multiElementArrays(x, path ? `${path}.${k}` : k);
  }
}
