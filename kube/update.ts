/**
 * `kubecfg update`: creates or updates every object in dependency order,
 * then (with --gc-tag, unless --skip-gc) garbage-collects tagged objects
 * that are no longer in the configuration. Updates are kubecfg's: a
 * three-way merge of last-applied annotation, new configuration and live
 * object (strategic for kinds the OpenAPI schema describes, JSON merge for
 * custom resources), written with PUT and retried on conflict. After a CRD
 * is applied the command waits for it to be Established and refreshes
 * discovery. With `parallelism` > 1, objects of one dependency tier are
 * applied concurrently (kube/parallel.ts), tiers strictly in order, CRDs one
 * at a time, progress lines in the sequential order.
 * Invariants: GC starts only after every apply succeeded; a dry
 * run writes nothing (no create, update or delete request is sent); input
 * objects are not mutated.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../lang/common/json.js';
import { locate, objectRef, type ClusterSession, type ObjectLocation, type ObjectRef } from './cluster.js';
import { resourcePath } from './discovery.js';
import { isNotFound, KubeError } from './errors.js';
import { collectGarbage, type GcReport } from './gc.js';
import { ANNOTATION_GC_TAG, gcTagOf, LABEL_GC_TAG } from './gc-policy.js';
import { decodeLastApplied, withLastApplied } from './last-applied.js';
import { apiVersionOfObject, groupOf, kindOf, uidOf, withMetaEntry } from './object-meta.js';
import { dependencyOrder, dependencyTiers, type ObjectOrder } from './object-order.js';
import { mapInOrder } from './parallel.js';
import { parseApiVersion, type OpenApiSchema } from './openapi-schema.js';
import { realSleep, retryOnConflict, type Sleep } from './retry.js';
import { threeWayMerge, type MergeSchema } from './three-way-merge.js';

export interface UpdateOptions {
  /** Create objects that do not exist (kubecfg --create, default true). */
  readonly create?: boolean;
  readonly dryRun?: boolean;
  readonly gcTag?: string;
  /** Also collect under the gc tags found on the input objects. */
  readonly gcTagsFromInput?: boolean;
  /** Restrict GC to one namespace; all namespaces when undefined. */
  readonly gcNamespace?: string;
  readonly skipGc?: boolean;
  /** GC may delete Namespace objects (hazard 36: off unless confirmed). */
  readonly allowNamespaceGc?: boolean;
  /** Apply order; defaults to kubecfg's dependency order. */
  readonly order?: ObjectOrder;
  /** Receives kubecfg's info lines ("Creating ...", "Updating ...", "Garbage collecting ..."). */
  readonly log?: (line: string) => void;
  readonly crdEstablishTimeoutMs?: number;
  /** Requests in flight at once within one dependency tier (--parallelism); 1 = one object at a time. */
  readonly parallelism?: number;
  readonly sleep?: Sleep;
}

export type ApplyAction = 'created' | 'updated' | 'unchanged';

export interface UpdateReport {
  readonly applied: Array<{ readonly desc: string; readonly ref: ObjectRef; readonly action: ApplyAction }>;
  /** Undefined when GC did not run. */
  readonly gc?: GcReport;
}

const CRD_GROUP = 'apiextensions.k8s.io';
const CRD_POLL_MS = 100;

export async function updateObjects(
  session: ClusterSession,
  objects: readonly JsonObject[],
  options: UpdateOptions = {},
): Promise<UpdateReport> {
  const log = options.log ?? (() => undefined);
  const sleep = options.sleep ?? realSleep;
  const dryRunText = options.dryRun === true ? ' (dry-run)' : '';
  const gcTags = new Set<string>();
  if (options.gcTag !== undefined && options.gcTag !== '') gcTags.add(options.gcTag);

  log(`Fetching schemas for ${objects.length} resources`);
  const parallelism = Math.max(1, Math.floor(options.parallelism ?? 1));
  // Tiers (CRDs, cluster-scoped, ...) stay in order; objects within one tier may be applied in parallel.
  const groups =
    parallelism > 1 && options.order === undefined
      ? await dependencyTiers(session.discovery, objects)
      : (await (options.order ?? dependencyOrder(session.discovery))(objects)).map((o) => [o]);
  const schema = await session.discovery.openapi();
  const appliedUids = new Set<string>();
  const applied: Array<{ desc: string; ref: ObjectRef; action: ApplyAction }> = [];

  const applyOne = async (
    input: JsonObject,
    objLog: (line: string) => void,
  ): Promise<{ desc: string; ref: ObjectRef; action: ApplyAction; uid: string }> => {
    let obj = input;
    if (options.gcTag !== undefined && options.gcTag !== '') {
      obj = withMetaEntry(obj, 'annotations', ANNOTATION_GC_TAG, options.gcTag);
      obj = withMetaEntry(obj, 'labels', LABEL_GC_TAG, options.gcTag);
    }
    if (options.gcTagsFromInput === true) {
      const tag = gcTagOf(obj);
      if (tag !== undefined) gcTags.add(tag);
    }
    const where = await locate(session, obj);
    const mergeSchema = mergeSchemaFor(schema, obj);
    let result: { obj: JsonObject; action: ApplyAction };
    try {
      result = await retryOnConflict(
        () => createOrUpdate(session, where, obj, mergeSchema, options, objLog, dryRunText),
        sleep,
      );
    } catch (err) {
      throw new KubeError(
        err instanceof KubeError ? err.code : 'KUBE_API',
        `Error updating ${where.desc}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (options.dryRun !== true && groupOf(obj) === CRD_GROUP && kindOf(obj) === 'CustomResourceDefinition') {
      await waitForEstablished(session, where, result.obj, options.crdEstablishTimeoutMs ?? 300_000, sleep, objLog);
    }
    return { desc: where.desc, ref: objectRef(obj, where), action: result.action, uid: uidOf(result.obj) };
  };

  for (const group of groups) {
    // A new CRD changes discovery for what follows: CRDs are applied one at a time.
    const isCrdTier = group.some((o) => groupOf(o) === CRD_GROUP && kindOf(o) === 'CustomResourceDefinition');
    const results = await mapInOrder(group, isCrdTier ? 1 : parallelism, log, (obj, _i, objLog) =>
      applyOne(obj, objLog),
    );
    for (const r of results) {
      applied.push({ desc: r.desc, ref: r.ref, action: r.action });
      appliedUids.add(r.uid);
    }
  }

  if (gcTags.size === 0 || options.skipGc === true) return { applied };
  const gc = await collectGarbage(session, {
    gcTags,
    appliedUids,
    namespace: options.gcNamespace,
    dryRun: options.dryRun === true,
    allowNamespaceDeletion: options.allowNamespaceGc === true,
    log,
  });
  return { applied, gc };
}

async function createOrUpdate(
  session: ClusterSession,
  where: ObjectLocation,
  obj: JsonObject,
  schema: MergeSchema | undefined,
  options: UpdateOptions,
  log: (line: string) => void,
  dryRunText: string,
): Promise<{ obj: JsonObject; action: ApplyAction }> {
  let existing: JsonObject | undefined;
  try {
    const got = await session.client.request('GET', where.path);
    existing = isJsonObject(got) ? got : undefined;
  } catch (err) {
    if (!(isNotFound(err) && options.create !== false)) throw err;
  }
  const desired = withLastApplied(obj);
  if (existing === undefined) {
    log(`Creating ${where.desc}${dryRunText}`);
    if (options.dryRun === true) return { obj: desired, action: 'created' };
    const created = await session.client.request('POST', resourcePath(where.resource, where.namespace), {
      body: desired,
    });
    return { obj: isJsonObject(created) ? created : desired, action: 'created' };
  }
  const merged = threeWayMerge(decodeLastApplied(existing, false), desired, existing, schema);
  if (!isJsonObject(merged))
    throw new KubeError('KUBE_INVALID_OBJECT', `${where.desc}: merge did not produce an object`);
  if (canonical(withoutZeroTimestamp(merged, merged)) === canonical(withoutZeroTimestamp(existing, merged)))
    return { obj: merged, action: 'unchanged' };
  log(`Updating ${where.desc}${dryRunText}`);
  if (options.dryRun === true) return { obj: merged, action: 'updated' };
  const updated = await session.client.request('PUT', where.path, { body: merged });
  return { obj: isJsonObject(updated) ? updated : merged, action: 'updated' };
}

/** Strategic merge needs a schema whose kind has `metadata` (custom resources get none: JSON merge). */
function mergeSchemaFor(schema: OpenApiSchema, obj: JsonObject): MergeSchema | undefined {
  const { group, version } = parseApiVersion(apiVersionOfObject(obj));
  const kind = schema.forKind({ group, version, kind: kindOf(obj) });
  if (kind === undefined || schema.resolve(schema.fieldSchema(kind, 'metadata')) === undefined) return undefined;
  return { schema, kind };
}

async function waitForEstablished(
  session: ClusterSession,
  where: ObjectLocation,
  crd: JsonObject,
  timeoutMs: number,
  sleep: Sleep,
  log: (line: string) => void,
): Promise<void> {
  session.discovery.invalidate();
  let current: JsonObject | undefined = crd;
  for (let waited = 0; ; waited += CRD_POLL_MS) {
    if (current !== undefined && isEstablished(current)) {
      session.discovery.invalidate();
      return;
    }
    if (waited >= timeoutMs) {
      log(
        `Warning: ${where.desc} did not become Established within ${Math.round(timeoutMs / 1000)}s; continuing, which may lead to further errors`,
      );
      return;
    }
    await sleep(CRD_POLL_MS);
    session.discovery.invalidate();
    try {
      const got = await session.client.request('GET', where.path);
      current = isJsonObject(got) ? got : undefined;
    } catch (err) {
      if (!isNotFound(err)) throw err;
      current = undefined;
    }
  }
}

function isEstablished(crd: JsonObject): boolean {
  const status = crd['status'];
  const conditions = isJsonObject(status) ? status['conditions'] : undefined;
  return (
    Array.isArray(conditions) &&
    conditions.some((c) => isJsonObject(c) && c['type'] === 'Established' && c['status'] === 'True')
  );
}

/**
 * client-go writes `metadata.creationTimestamp: null` into objects it serialises; merged with the live
 * object it would erase the server's timestamp and make every update a change. As kubecfg does, when
 * the merged object has no timestamp the comparison ignores the live one.
 */
function withoutZeroTimestamp(obj: JsonObject, merged: JsonObject): JsonObject {
  const mergedMeta = merged['metadata'];
  const ts = isJsonObject(mergedMeta) ? mergedMeta['creationTimestamp'] : undefined;
  if (ts !== undefined && ts !== null && ts !== '') return obj;
  const meta = obj['metadata'];
  if (!isJsonObject(meta) || !('creationTimestamp' in meta)) return obj;
  const { creationTimestamp: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}

function canonical(v: JsonValue): string {
  const sort = (x: JsonValue): JsonValue =>
    Array.isArray(x)
      ? x.map(sort)
      : isJsonObject(x)
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, sort(x[k]!)]),
          )
        : x;
  return JSON.stringify(sort(v));
}
