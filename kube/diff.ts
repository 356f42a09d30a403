/**
 * `kubecfg diff`: compares each configured object with its live version and
 * prints what kubecfg prints — `--- live <desc>` / `+++ config <desc>`, then
 * "doesn't exist on server", "unchanged", or unified hunks of the two
 * objects as indented Go JSON. Strategies: `all` (whole live object),
 * `subset` (live restricted to the fields the config sets), `last-applied`
 * (the last applied configuration instead of the live object).
 * Live objects are fetched with as few requests as possible: objects of one
 * resource in one namespace are read with one LIST when there are two or
 * more of them (one GET otherwise, and GETs again if the LIST is refused),
 * with up to `parallelism` requests in flight.
 * Invariants: read-only against the cluster; objects in alphabetical order;
 * exit code 10 when any difference is found, 0 otherwise.
 */
import { isJsonObject, jsonObject, setJsonKey, type JsonObject, type JsonValue } from '../lang/common/json.js';
import { describe, locate, objectRef, type ClusterSession, type ObjectLocation, type ObjectRef } from './cluster.js';
import { resourcePath } from './discovery.js';
import { mapInOrder } from './parallel.js';
import { isNotFound, KubeError } from './errors.js';
import { marshal as goJson } from '../lang/go/encoding-json.js';
import { decodeLastApplied } from './last-applied.js';
import { kindOf } from './object-meta.js';
import { alphabeticalOrder } from './object-order.js';
import { formatHunks, unifiedHunks } from './unified-diff.js';

export type DiffStrategy = 'all' | 'subset' | 'last-applied';

export interface DiffOptions {
  readonly strategy: DiffStrategy;
  /** Hide the values of `"key": "value"` lines (and context lines) of Secrets. */
  readonly omitSecrets: boolean;
  /** ANSI colours, as kubecfg uses when stdout is a terminal. */
  readonly color?: boolean;
  /** Receives output as it is produced; the full text is also returned. */
  readonly write?: (text: string) => void;
  /** Requests in flight at once while fetching live objects (--parallelism); default 1. */
  readonly parallelism?: number;
}

/** One object's outcome: `missing` (not on the server), `changed` or `unchanged`. */
export interface DiffObjectResult {
  readonly desc: string;
  readonly ref: ObjectRef;
  readonly status: 'missing' | 'changed' | 'unchanged';
  /** The hunks printed for a changed object (never coloured), else ''. */
  readonly diff: string;
}

export interface DiffResult {
  readonly output: string;
  readonly differencesFound: boolean;
  /** In the order printed (alphabetical). */
  readonly objects: readonly DiffObjectResult[];
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
  const ordered = alphabeticalOrder(objects);
  // Locate everything first (discovery is cached); a failure stops the diff at that object, as before.
  const located: Array<{ obj: JsonObject; desc: string; where: ObjectLocation }> = [];
  let locateError: unknown;
  for (const obj of ordered) {
    try {
      located.push({ obj, desc: await describe(session, obj), where: await locate(session, obj) });
    } catch (err) {
      locateError = err;
      break;
    }
  }
  const live = await fetchLive(session, located, options.parallelism ?? 1);
  const results: DiffObjectResult[] = [];
  for (let i = 0; i < located.length; i++) {
    const { obj, desc, where } = located[i]!;
    const got = live[i]!;
    if (got.error !== undefined)
      throw new KubeError(
        got.error instanceof KubeError ? got.error.code : 'KUBE_API',
        `Error fetching ${desc}: ${got.error instanceof Error ? got.error.message : String(got.error)}`,
      );
    let printed = '';
    const changed = renderDiff(
      (text) => {
        printed += text;
        emit(text);
      },
      desc,
      got.live,
      obj,
      options,
    );
    if (changed) found = true;
    const header = `--- live ${desc}\n+++ config ${desc}\n`;
    results.push({
      desc,
      ref: objectRef(obj, where),
      status: got.live === undefined ? 'missing' : changed ? 'changed' : 'unchanged',
      // The printed hunks between the header and the closing blank line; recomputed only when coloured.
      diff:
        !changed || got.live === undefined
          ? ''
          : options.color
            ? plainHunks(desc, got.live, obj, options)
            : printed.slice(header.length, -1),
    });
  }
  if (locateError !== undefined) throw locateError;
  return { output, differencesFound: found, objects: results, exitCode: found ? 10 : 0 };
}

interface LiveResult {
  live?: JsonObject;
  error?: unknown;
}

/** The live object of each located object (undefined when absent), in the same order. */
async function fetchLive(
  session: ClusterSession,
  located: ReadonlyArray<{ where: ObjectLocation }>,
  parallelism: number,
): Promise<LiveResult[]> {
  const results: LiveResult[] = located.map(() => ({}));
  const groups = new Map<string, number[]>();
  for (let i = 0; i < located.length; i++) {
    const { resource, namespace } = located[i]!.where;
    const key = `${resource.group}/${resource.version}/${resource.plural}|${namespace ?? ''}`;
    const members = groups.get(key);
    if (members === undefined) groups.set(key, [i]);
    else members.push(i);
  }
  const units = [...groups.values()];
  const getOne = async (i: number): Promise<void> => {
    try {
      const got = await session.client.request('GET', located[i]!.where.path);
      results[i] = isJsonObject(got) ? { live: got } : {};
    } catch (err) {
      results[i] = isNotFound(err) ? {} : { error: err };
    }
  };
  await mapInOrder(
    units,
    parallelism,
    () => undefined,
    async (members) => {
      const first = located[members[0]!]!.where;
      if (members.length > 1 && first.resource.verbs.includes('list')) {
        const byName = await listByName(session, first).catch(() => undefined);
        if (byName !== undefined) {
          for (const i of members) {
            const live = byName.get(nameOfPath(located[i]!.where.path));
            results[i] = live === undefined ? {} : { live };
          }
          return;
        }
      }
      // One object, or a LIST the server refused: GET each.
      await mapInOrder(
        members,
        1,
        () => undefined,
        (i) => getOne(i),
      );
    },
  );
  return results;
}

async function listByName(session: ClusterSession, where: ObjectLocation): Promise<Map<string, JsonObject>> {
  const { resource, namespace } = where;
  const list = await session.client.request('GET', resourcePath(resource, namespace));
  const items = isJsonObject(list) && Array.isArray(list['items']) ? list['items'] : [];
  const byName = new Map<string, JsonObject>();
  const apiVersion = resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
  for (const item of items) {
    if (!isJsonObject(item)) continue;
    const meta = item['metadata'];
    const name = isJsonObject(meta) && typeof meta['name'] === 'string' ? meta['name'] : undefined;
    // List items of built-in kinds come without apiVersion/kind; a GET returns them.
    if (name !== undefined) byName.set(name, { ...item, apiVersion, kind: resource.kind });
  }
  return byName;
}

/** The object name at the end of an item path (resourcePath encodes it). */
function nameOfPath(path: string): string {
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
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
  const hunks = hunksOf(desc, live, obj, options, options.color ?? false);
  if (hunks === undefined) {
    emit(`${desc} unchanged\n`);
    return false;
  }
  emit(hunks);
  emit('\n');
  return true;
}

/** The formatted hunks between the live view and the config, or undefined when they are equal. */
function hunksOf(
  desc: string,
  live: JsonObject,
  obj: JsonObject,
  options: DiffOptions,
  color: boolean,
): string | undefined {
  const liveView = liveViewFor(options.strategy, obj, live, desc);
  const liveText = goJson(liveView, { indent: '  ', escapeHtml: true });
  const objText = goJson(obj, { indent: '  ', escapeHtml: true });
  if (liveText === objText) return undefined;
  return formatHunks(unifiedHunks(liveText, objText), color, options.omitSecrets && kindOf(obj) === 'Secret');
}

/** The hunks without colour, for `-o json` (the printed ones may carry ANSI codes). */
function plainHunks(desc: string, live: JsonObject, obj: JsonObject, options: DiffOptions): string {
  return hunksOf(desc, live, obj, options, false) ?? '';
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
