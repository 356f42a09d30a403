/**
 * API discovery (legacy /api and /apis documents) and the OpenAPI v2
 * schema, cached per cluster identity. A kind that is not found triggers
 * one refresh (it may come from a CRD created a moment ago) before the
 * lookup fails; update() also invalidates after creating a CRD, and a
 * snapshot older than the TTL (default 5 minutes) is fetched again.
 * Invariants: subresources (`deployments/status`) are not resources here;
 * preferredResources() lists each group/resource once, at the most
 * preferred version that serves it.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../lang/common/json.js';
import { KubeError } from './errors.js';
import { OpenApiSchema, parseApiVersion } from './openapi-schema.js';
import type { KubeClient } from './rest-client.js';

export interface ApiResource {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

interface Snapshot {
  /** `group/version/kind` → resource. */
  readonly byKind: ReadonlyMap<string, ApiResource>;
  /** groupVersions in preference order (core first, then groups as the server lists them). */
  readonly preferred: readonly ApiResource[];
}

export interface DiscoveryTiming {
  /** A cached snapshot older than this is fetched again (a long-lived daemon sees CRD removals). */
  readonly ttlMs: number;
  readonly now: () => number;
}

/** Discovery goes through client-go's discovery client, whose rate-limit bucket is its own. */
const DISCOVERY = { discovery: true } as const;

const DEFAULT_TIMING: DiscoveryTiming = { ttlMs: 5 * 60_000, now: () => Date.now() };

export class ClusterDiscovery {
  private snapshot: Promise<Snapshot> | undefined;
  private schema: Promise<OpenApiSchema> | undefined;
  private loadedAt = 0;

  constructor(
    private client: KubeClient,
    private readonly timing: DiscoveryTiming = DEFAULT_TIMING,
  ) {}

  /** Later runs against the same cluster reuse the cache through a fresh client. */
  useClient(client: KubeClient): void {
    this.client = client;
  }

  /** Forgets resources (and the schema, which a CRD may extend); the next lookup fetches again. */
  invalidate(): void {
    this.snapshot = undefined;
    this.schema = undefined;
  }

  /**
   * Fetches the resource list again, keeping the schema: for a walk over every resource (gc), which
   * must see CRDs created or deleted by anyone since the cached answer.
   */
  async freshResources(): Promise<readonly ApiResource[]> {
    this.snapshot = undefined;
    return this.preferredResources();
  }

  async resourceFor(apiVersion: string, kind: string): Promise<ApiResource> {
    const { group, version } = parseApiVersion(apiVersion);
    const key = `${group}/${version}/${kind}`;
    let found = (await this.load()).byKind.get(key);
    if (found === undefined) {
      this.invalidate();
      found = (await this.load()).byKind.get(key);
    }
    if (found === undefined) {
      throw new KubeError(
        'KUBE_UNKNOWN_KIND',
        `the server has no resource for kind "${kind}" in version "${apiVersion}"`,
      );
    }
    return found;
  }

  /** Like resourceFor, but undefined instead of an error when the kind is unknown (no refresh). */
  async lookup(apiVersion: string, kind: string): Promise<ApiResource | undefined> {
    const { group, version } = parseApiVersion(apiVersion);
    return (await this.load()).byKind.get(`${group}/${version}/${kind}`);
  }

  async preferredResources(): Promise<readonly ApiResource[]> {
    return (await this.load()).preferred;
  }

  async openapi(): Promise<OpenApiSchema> {
    this.expireIfStale();
    this.schema ??= this.client.request('GET', '/openapi/v2', DISCOVERY).then((doc) => {
      if (!isJsonObject(doc)) throw new KubeError('KUBE_API', '/openapi/v2 did not return a JSON object');
      return new OpenApiSchema(doc);
    });
    const p = this.schema;
    p.catch(() => {
      if (this.schema === p) this.schema = undefined;
    });
    return p;
  }

  private expireIfStale(): void {
    const now = this.timing.now();
    if (now - this.loadedAt > this.timing.ttlMs) {
      this.invalidate();
      this.loadedAt = now;
    }
  }

  private load(): Promise<Snapshot> {
    this.expireIfStale();
    this.snapshot ??= fetchSnapshot(this.client);
    const p = this.snapshot;
    p.catch(() => {
      if (this.snapshot === p) this.snapshot = undefined;
    });
    return p;
  }
}

/** Discovery state per cluster identity, shared by the commands of one process (the daemon). */
export class DiscoveryCache {
  private readonly clusters = new Map<string, ClusterDiscovery>();

  constructor(private readonly timing: DiscoveryTiming = DEFAULT_TIMING) {}

  for(client: KubeClient): ClusterDiscovery {
    const id = client.connection.identity;
    let d = this.clusters.get(id);
    if (d === undefined) this.clusters.set(id, (d = new ClusterDiscovery(client, this.timing)));
    else d.useClient(client);
    return d;
  }

  clear(): void {
    this.clusters.clear();
  }
}

async function fetchSnapshot(client: KubeClient): Promise<Snapshot> {
  const groupVersions: Array<{ group: string; versions: string[] }> = [];
  const core = await client.request('GET', '/api', DISCOVERY);
  groupVersions.push({ group: '', versions: stringList(isJsonObject(core) ? core['versions'] : undefined) });
  const apis = await client.request('GET', '/apis', DISCOVERY);
  for (const g of isJsonObject(apis) && Array.isArray(apis['groups']) ? apis['groups'] : []) {
    if (!isJsonObject(g) || typeof g['name'] !== 'string') continue;
    const preferred = isJsonObject(g['preferredVersion']) ? g['preferredVersion']['version'] : undefined;
    const versions = (Array.isArray(g['versions']) ? g['versions'] : [])
      .map((v) => (isJsonObject(v) && typeof v['version'] === 'string' ? v['version'] : undefined))
      .filter((v): v is string => v !== undefined);
    // Preferred version first, then the server's order.
    versions.sort((a, b) => (a === preferred ? -1 : b === preferred ? 1 : 0));
    groupVersions.push({ group: g['name'], versions });
  }
  const lists = await Promise.all(
    groupVersions.flatMap(({ group, versions }) =>
      versions.map(async (version) => ({
        group,
        version,
        list: await client.request('GET', group === '' ? `/api/${version}` : `/apis/${group}/${version}`, DISCOVERY),
      })),
    ),
  );
  const byKind = new Map<string, ApiResource>();
  const preferred: ApiResource[] = [];
  const seen = new Set<string>();
  for (const { group, version, list } of lists) {
    for (const r of resourcesOf(list)) {
      if (r.plural.includes('/')) continue;
      const res: ApiResource = {
        group,
        version,
        plural: r.plural,
        kind: r.kind,
        namespaced: r.namespaced,
        verbs: r.verbs,
      };
      byKind.set(`${group}/${version}/${r.kind}`, res);
      if (!seen.has(`${group}/${r.plural}`)) {
        seen.add(`${group}/${r.plural}`);
        preferred.push(res);
      }
    }
  }
  return { byKind, preferred };
}

function resourcesOf(list: JsonValue): Array<{ plural: string; kind: string; namespaced: boolean; verbs: string[] }> {
  if (!isJsonObject(list) || !Array.isArray(list['resources'])) return [];
  return list['resources']
    .filter(isJsonObject)
    .flatMap((r: JsonObject) =>
      typeof r['name'] === 'string' && typeof r['kind'] === 'string'
        ? [{ plural: r['name'], kind: r['kind'], namespaced: r['namespaced'] === true, verbs: stringList(r['verbs']) }]
        : [],
    );
}

function stringList(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The REST path of a resource collection or item. */
export function resourcePath(r: ApiResource, namespace: string | undefined, name?: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const ns = r.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${r.plural}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
}
