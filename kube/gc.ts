/**
 * Garbage collection for `update --gc-tag`: lists every listable resource
 * (preferred versions), picks objects eligible under gc-policy, re-reads
 * each one to verify it before deleting it with a UID precondition and
 * Foreground propagation. Safety rules: an object whose re-read fails
 * (forbidden, network) is "unverifiable" and kept; one whose UID changed
 * since the list is kept; a Namespace is kept unless namespace deletion was
 * explicitly allowed; a dry run performs the same reads and reports exactly
 * the objects a real run would delete, deleting nothing. Listing a
 * forbidden resource is skipped, as kubecfg does.
 */
import { isJsonObject, type JsonObject } from '../lang/common/json.js';
import type { ClusterSession } from './cluster.js';
import { resourcePath, type ApiResource } from './discovery.js';
import { isConflict, isNotFound, KubeApiError, KubeError } from './errors.js';
import { gcVerdict } from './gc-policy.js';
import { fqName, nameOf, namespaceOf, uidOf } from './object-meta.js';

export interface GcOptions {
  readonly gcTags: ReadonlySet<string>;
  readonly appliedUids: ReadonlySet<string>;
  /** Only this namespace (namespaced kinds); every namespace when undefined. */
  readonly namespace?: string;
  readonly dryRun: boolean;
  readonly allowNamespaceDeletion: boolean;
  readonly log: (line: string) => void;
}

export interface GcReport {
  readonly deleted: string[];
  readonly unverifiable: Array<{ readonly desc: string; readonly why: string }>;
  readonly kept: Array<{ readonly desc: string; readonly why: string }>;
}

export async function collectGarbage(session: ClusterSession, options: GcOptions): Promise<GcReport> {
  const report: GcReport = { deleted: [], unverifiable: [], kept: [] };
  const dryRunText = options.dryRun ? ' (dry-run)' : '';
  const seen = new Set<string>();
  // A daemon's cached discovery may predate CRDs created or deleted since: gc walks a fresh list.
  for (const resource of await session.discovery.freshResources()) {
    if (!resource.verbs.includes('list')) continue;
    let items: JsonObject[];
    try {
      items = await listAll(session, resource, options.namespace);
    } catch (err) {
      if (err instanceof KubeApiError && err.isForbidden) continue;
      // A resource that went away after discovery (its CRD deleted meanwhile) holds nothing to collect;
      // the next command discovers again.
      if (isNotFound(err) && !(await stillServed(session, resource))) continue;
      throw err;
    }
    for (const item of items) {
      const uid = uidOf(item);
      if (seen.has(uid)) continue; // the same object served by two groups (e.g. events)
      seen.add(uid);
      if (!gcVerdict(item, options.gcTags, options.appliedUids).eligible) continue;
      const groupVersion = resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
      const desc = `${resource.plural} ${fqName(item)} (${groupVersion})`;
      const path = resourcePath(resource, namespaceOf(item) || undefined, nameOf(item));
      let current: JsonObject;
      try {
        const got = await session.client.request('GET', path);
        if (!isJsonObject(got)) throw new KubeError('KUBE_API', 'not an object');
        current = withType(got, resource);
      } catch (err) {
        if (isNotFound(err)) continue;
        const why = err instanceof Error ? err.message : String(err);
        report.unverifiable.push({ desc, why });
        options.log(`Not garbage collecting ${desc}: ownership cannot be verified (${why})`);
        continue;
      }
      if (uidOf(current) !== uid || !gcVerdict(current, options.gcTags, options.appliedUids).eligible) {
        report.kept.push({ desc, why: 'changed since it was listed' });
        continue;
      }
      if (resource.group === '' && resource.kind === 'Namespace' && !options.allowNamespaceDeletion) {
        report.kept.push({ desc, why: 'deleting a Namespace needs explicit confirmation' });
        options.log(`Not garbage collecting ${desc}: deleting a Namespace needs explicit confirmation`);
        continue;
      }
      options.log(`Garbage collecting ${desc}${dryRunText}`);
      report.deleted.push(desc);
      if (options.dryRun) continue;
      try {
        await session.client.request('DELETE', path, {
          body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid }, propagationPolicy: 'Foreground' },
        });
      } catch (err) {
        // Lost a race with something else changing or deleting the object: keep going.
        if (isNotFound(err) || isConflict(err)) continue;
        throw new KubeError(
          err instanceof KubeError ? err.code : 'KUBE_API',
          `Error deleting ${desc}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
  }
  return report;
}

async function stillServed(session: ClusterSession, resource: ApiResource): Promise<boolean> {
  const fresh = await session.discovery.freshResources();
  return fresh.some(
    (r) => r.group === resource.group && r.version === resource.version && r.plural === resource.plural,
  );
}

async function listAll(
  session: ClusterSession,
  resource: ApiResource,
  namespace: string | undefined,
): Promise<JsonObject[]> {
  const list = await session.client.request('GET', resourcePath(resource, resource.namespaced ? namespace : undefined));
  const items = isJsonObject(list) && Array.isArray(list['items']) ? list['items'] : [];
  return items.filter(isJsonObject).map((item) => withType(item, resource));
}

/** Built-in list items come without kind/apiVersion: fill them in from the resource. */
function withType(obj: JsonObject, resource: ApiResource): JsonObject {
  return {
    ...obj,
    apiVersion: resource.group === '' ? resource.version : `${resource.group}/${resource.version}`,
    kind: resource.kind,
  };
}
