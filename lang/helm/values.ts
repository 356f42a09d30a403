/**
 * Helm's values coalescing (chartutil.CoalesceValues): user values win over
 * chart defaults, maps merge recursively, a user `null` deletes the default
 * key, subchart defaults land under the subchart's name, and `global` is
 * copied down from parent to every subchart (parent entries win). Also the
 * dependency `condition`/`tags` rules that enable or drop subcharts.
 * Invariant: inputs are deep-copied first; the result shares nothing with them.
 */

import { goFloat, hasKey, isMap, mapSet } from '../gotemplate/value.js';
import type { Chart } from './chart.js';

export type Values = Record<string, unknown>;

function copyValues<T>(v: T): T {
  if (Array.isArray(v)) return v.map(copyValues) as T;
  if (isMap(v)) {
    const out: Values = {};
    for (const k of Object.keys(v)) mapSet(out, k, copyValues(v[k]));
    return out as T;
  }
  return v;
}

/** dst (higher precedence) ← src defaults; nulls in dst delete the key unless merging. */
function coalesceTables(dst: Values, src: Values, merge: boolean): Values {
  for (const key of Object.keys(src)) {
    const val = src[key];
    if (hasKey(dst, key) && !merge && dst[key] === null) delete dst[key];
    else if (!hasKey(dst, key)) mapSet(dst, key, copyValues(val));
    else if (isMap(val) && isMap(dst[key])) coalesceTables(dst[key], val, merge);
  }
  return dst;
}

function coalesceValues(chart: Chart, v: Values): void {
  const defaults = copyValues(chart.values);
  for (const key of Object.keys(defaults)) {
    const val = defaults[key];
    if (hasKey(v, key)) {
      const value = v[key];
      if (value === null) delete v[key];
      else if (isMap(value) && isMap(val)) coalesceTables(value, val, false);
    } else mapSet(v, key, val);
  }
}

function coalesceGlobals(dest: Values, src: Values): void {
  const dg = hasKey(dest, 'global') ? dest.global : {};
  const sg = hasKey(src, 'global') ? src.global : {};
  if (!isMap(dg) || !isMap(sg)) return;
  for (const key of Object.keys(sg)) {
    const val = sg[key];
    if (isMap(val)) {
      const vv = copyValues(val);
      if (!hasKey(dg, key)) mapSet(dg, key, vv);
      else if (isMap(dg[key])) {
        coalesceTables(vv, dg[key], true);
        mapSet(dg, key, vv);
      }
    } else if (!(hasKey(dg, key) && isMap(dg[key]))) mapSet(dg, key, val);
  }
  mapSet(dest, 'global', dg);
}

function coalesce(chart: Chart, dest: Values): Values {
  coalesceValues(chart, dest);
  for (const sub of chart.dependencies) {
    if (!hasKey(dest, sub.name)) mapSet(dest, sub.name, {});
    const dv = dest[sub.name];
    if (!isMap(dv)) throw new Error(`type mismatch on ${sub.name}: %!t(${typeof dv}=${String(dv)})`);
    coalesceGlobals(dv, dest);
    mapSet(dest, sub.name, coalesce(sub, dv));
  }
  return dest;
}

/** The values templates see: user values coalesced over the chart's (and subcharts') defaults. */
export function coalesceChartValues(chart: Chart, user: Values): Values {
  return coalesce(chart, copyValues(user));
}

function pathValue(v: Values, path: string): unknown {
  let cur: unknown = v;
  for (const p of path.split('.')) {
    if (!isMap(cur) || !hasKey(cur, p)) return undefined;
    cur = cur[p];
  }
  return cur;
}

/**
 * Applies dependency conditions and tags (Helm's ProcessDependencies) and
 * aliases: returns the chart with disabled subcharts removed and aliased ones renamed.
 */
export function processDependencies(chart: Chart, user: Values): Chart {
  const cvals = coalesceChartValues(chart, user);
  const tags = isMap(cvals.tags) ? cvals.tags : {};
  const kept: Chart[] = [];
  const used = new Set<Chart>();
  for (const req of chart.requirements) {
    const sub = chart.dependencies.find((d) => d.name === req.name && !used.has(d));
    if (!sub) continue;
    used.add(sub);
    let enabled = true;
    if (req.tags && req.tags.length > 0) {
      let hasTrue = false;
      let hasFalse = false;
      for (const t of req.tags) {
        if (hasKey(tags, t) && typeof tags[t] === 'boolean') {
          if (tags[t]) hasTrue = true;
          else hasFalse = true;
        }
      }
      enabled = !(!hasTrue && hasFalse);
    }
    for (const c of (req.condition ?? '').split(',').map((s) => s.trim())) {
      if (c === '') continue;
      const v = pathValue(cvals, c);
      if (typeof v === 'boolean') {
        enabled = v;
        break;
      }
    }
    if (!enabled) continue;
    const named = req.alias ? { ...sub, name: req.alias, metadata: { ...sub.metadata, name: req.alias } } : sub;
    const subUser = isMap(user[named.name]) ? (user[named.name] as Values) : {};
    kept.push(processDependencies(named, subUser));
  }
  for (const d of chart.dependencies)
    if (!used.has(d)) kept.push(processDependencies(d, isMap(user[d.name]) ? (user[d.name] as Values) : {}));
  return importDependencyValues({ ...chart, dependencies: kept });
}

/** Values.Table: the map at a dotted path, or undefined when a step is missing or not a map. */
function table(v: Values, path: string): Values | undefined {
  let cur: unknown = v;
  for (const p of path.split('.')) {
    if (p === '') continue;
    if (!isMap(cur) || !hasKey(cur, p)) return undefined;
    cur = cur[p];
  }
  return isMap(cur) ? cur : undefined;
}

function underPath(path: string, data: Values): Values {
  if (path === '.') return data;
  let cur: Values = data;
  const parts = path.split('.').filter((p) => p !== '');
  for (let i = parts.length - 1; i >= 0; i--) {
    const m: Values = {};
    mapSet(m, parts[i]!, cur);
    cur = m;
  }
  return cur;
}

function withoutNulls(v: Values): Values {
  const out: Values = {};
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (x === null) continue;
    mapSet(out, k, isMap(x) ? withoutNulls(x) : x);
  }
  return out;
}

/**
 * Helm's processImportValues (subcharts already processed): the chart's
 * values become its coalesced tree plus the imported tables, the chart's
 * own values winning over imported ones. A missing child table is skipped
 * (Helm only logs a warning). The child path starts at the dependency's
 * name, not its alias, as in Helm.
 */
function importDependencyValues(chart: Chart): Chart {
  if (!chart.requirements.some((r) => r.importValues && r.importValues.length > 0)) return chart;
  const cvals = withoutNulls(coalesceChartValues(chart, {}));
  let imported: Values = {};
  for (const req of chart.requirements) {
    for (const iv of req.importValues ?? []) {
      const child = table(cvals, `${req.name}.${iv.child}`);
      if (!child) continue;
      imported = coalesceTables(imported, underPath(iv.parent, copyValues(child)), false);
    }
  }
  return { ...chart, values: coalesceTables(cvals, imported, false) };
}

/**
 * Values given as plain JSON (e.g. from Jsonnet) as Go sees them after
 * json.Unmarshal: every number is a float64 (integral ones wrapped in GoFloat).
 */
export function valuesFromJson(v: unknown): unknown {
  if (typeof v === 'number') return goFloat(v);
  if (Array.isArray(v)) return v.map(valuesFromJson);
  if (isMap(v)) {
    const out: Values = {};
    for (const k of Object.keys(v)) mapSet(out, k, valuesFromJson(v[k]));
    return out;
  }
  return v;
}
