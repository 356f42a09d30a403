/**
 * `kubecfg diff`: compares each configured object with its live version and
 * prints what kubecfg prints — `--- live <desc>` / `+++ config <desc>`, then
 * "doesn't exist on server", "unchanged", or unified hunks of the two
 * objects as indented Go JSON. Strategies: `all` (whole live object),
 * `subset` (live restricted to the fields the config sets), `last-applied`
 * (the last applied configuration instead of the live object).
 * Invariants: read-only against the cluster; objects in alphabetical order;
 * exit code 10 when any difference is found, 0 otherwise.
 */
import { isJsonObject, jsonObject, setJsonKey, type JsonObject, type JsonValue } from '../lang/common/json.js';
import { describe, locate, type ClusterSession } from './cluster.js';
import { isNotFound, KubeError } from './errors.js';
import { goJson } from './go-json.js';
import { decodeLastApplied } from './last-applied.js';
import { kindOf } from './object-meta.js';
import { alphabeticalOrder } from './object-order.js';
import { formatHunks, unifiedHunks } from './unified-diff.js';

export type DiffStrategy = 'all' | 'subset' | 'last-applied';

export const DIFF_STRATEGIES: readonly DiffStrategy[] = ['all', 'subset', 'last-applied'];

export interface DiffOptions {
  readonly strategy: DiffStrategy;
  /** Hide the values of `"key": "value"` lines (and context lines) of Secrets. */
  readonly omitSecrets: boolean;
  /** ANSI colours, as kubecfg uses when stdout is a terminal. */
  readonly color?: boolean;
  /** Receives output as it is produced; the full text is also returned. */
  readonly write?: (text: string) => void;
}

export interface DiffResult {
  readonly output: string;
  readonly differencesFound: boolean;
  /** 10 when differences were found (kubecfg's ErrDiffFound), else 0. */
  readonly exitCode: 0 | 10;
}

export async function diffObjects(
  session: ClusterSession,
  objects: readonly JsonObject[],
  options: DiffOptions,
): Promise<DiffResult> {
  let output = '';
  const emit = (text: string): void => {
    output += text;
    options.write?.(text);
  };
  let found = false;
  for (const obj of alphabeticalOrder(objects)) {
    const desc = await describe(session, obj);
    const where = await locate(session, obj);
    let live: JsonObject | undefined;
    try {
      const got = await session.client.request('GET', where.path);
      live = isJsonObject(got) ? got : undefined;
    } catch (err) {
      if (!isNotFound(err))
        throw new KubeError(
          err instanceof KubeError ? err.code : 'KUBE_API',
          `Error fetching ${desc}: ${err instanceof Error ? err.message : String(err)}`,
        );
    }
    if (renderDiff(emit, desc, live, obj, options)) found = true;
  }
  return { output, differencesFound: found, exitCode: found ? 10 : 0 };
}

/** Prints one object's diff; true when it differs. Pure apart from `emit`. */
export function renderDiff(
  emit: (text: string) => void,
  desc: string,
  live: JsonObject | undefined,
  obj: JsonObject,
  options: DiffOptions,
): boolean {
  emit(`--- live ${desc}\n+++ config ${desc}\n`);
  if (live === undefined) {
    emit(`${desc} doesn't exist on server\n`);
    return true;
  }
  const liveView = liveViewFor(options.strategy, obj, live, desc);
  const liveText = goJson(liveView, { indent: '  ', escapeHtml: true });
  const objText = goJson(obj, { indent: '  ', escapeHtml: true });
  if (liveText === objText) {
    emit(`${desc} unchanged\n`);
    return false;
  }
  emit(
    formatHunks(
      unifiedHunks(liveText, objText),
      options.color ?? false,
      options.omitSecrets && kindOf(obj) === 'Secret',
    ),
  );
  emit('\n');
  return true;
}

function liveViewFor(strategy: DiffStrategy, obj: JsonObject, live: JsonObject, desc: string): JsonValue {
  switch (strategy) {
    case 'subset':
      return subsetOfLive(obj, live);
    case 'last-applied': {
      const orig = decodeLastApplied(live);
      if (orig === undefined) throw new KubeError('KUBE_INVALID_OBJECT', `${desc}: no original object annotation`);
      return orig;
    }
    case 'all':
      return live;
  }
}

/**
 * The live object restricted to the fields the config sets. Config fields
 * with empty values that the server omits are copied from the config so
 * they do not show as differences; extra trailing live list elements stay.
 */
export function subsetOfLive(config: JsonObject, live: JsonObject): JsonObject {
  const result = jsonObject([]);
  for (const [k, want] of Object.entries(config)) {
    if (!Object.hasOwn(live, k)) {
      if (isEmptyValue(want)) setJsonKey(result, k, want);
      continue;
    }
    setJsonKey(result, k, subsetValue(want, live[k]!));
  }
  return result;
}

function subsetValue(config: JsonValue, live: JsonValue): JsonValue {
  if (isJsonObject(config) && isJsonObject(live)) return subsetOfLive(config, live);
  if (Array.isArray(config) && Array.isArray(live))
    return live.map((v, i) => (i < config.length ? subsetValue(config[i]!, v) : v));
  return live;
}

function isEmptyValue(v: JsonValue): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isJsonObject(v)) return Object.keys(v).length === 0;
  return v === false || v === 0 || v === '';
}
