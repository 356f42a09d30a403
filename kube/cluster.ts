/**
 * One connection to one cluster for the duration of a command: the REST
 * client, the (shared, cached) discovery for that cluster, and the default
 * namespace. Also finds where an object lives (resource, namespace, path)
 * and how kubecfg names it in messages (`deployments ns.name`).
 * Invariants: objects passed in are never mutated.
 */
import type { JsonObject } from '../lang/common/json.js';
import {
  resolveConnection,
  defaultEnvironment,
  type ConnectionEnvironment,
  type ConnectionFlags,
  type ResolvedConnection,
} from './connection.js';
import { DiscoveryCache, resourcePath, type ApiResource, type ClusterDiscovery } from './discovery.js';
import { KubeError } from './errors.js';
import { apiVersionOfObject, fqName, kindOf, nameOf, namespaceOf } from './object-meta.js';
import { KubeClient } from './rest-client.js';

export interface ClusterSession {
  readonly client: KubeClient;
  readonly discovery: ClusterDiscovery;
  readonly defaultNamespace: string;
  close(): void;
}

export interface OpenClusterOptions {
  readonly environment?: ConnectionEnvironment;
  /** Share one cache across commands (the daemon); a fresh one otherwise. */
  readonly cache?: DiscoveryCache;
  readonly timeoutMs?: number;
  /** Where exec credential plugins' stderr (login prompts) goes; default this process's stderr. */
  readonly execStderr?: (text: string) => void;
  /** kubecfg's --qps-limit (rate-limiter.ts). */
  readonly qps?: number;
}

const processCache = new DiscoveryCache();

export function openCluster(flags: ConnectionFlags, options: OpenClusterOptions = {}): ClusterSession {
  const environment = options.environment ?? defaultEnvironment();
  return sessionFor(resolveConnection(flags, environment), { ...options, environment });
}

export function sessionFor(connection: ResolvedConnection, options: OpenClusterOptions = {}): ClusterSession {
  const client = new KubeClient(connection, {
    timeoutMs: options.timeoutMs,
    env: options.environment?.env,
    files: options.environment?.files,
    ...(options.execStderr !== undefined ? { execStderr: options.execStderr } : {}),
    ...(options.qps !== undefined ? { qps: options.qps } : {}),
  });
  const discovery = (options.cache ?? processCache).for(client);
  return { client, discovery, defaultNamespace: connection.namespace, close: () => client.close() };
}

export interface ObjectLocation {
  readonly resource: ApiResource;
  /** Namespace the object goes to (object's own or the default); undefined for cluster-scoped kinds. */
  readonly namespace: string | undefined;
  /** REST path of the item. */
  readonly path: string;
  /** kubecfg's description: `<plural> <namespace.name>`. */
  readonly desc: string;
}

export async function locate(session: ClusterSession, obj: JsonObject): Promise<ObjectLocation> {
  const kind = kindOf(obj);
  const apiVersion = apiVersionOfObject(obj);
  if (kind === '' || apiVersion === '')
    throw new KubeError('KUBE_INVALID_OBJECT', `object ${fqName(obj) || '<unnamed>'} has no kind or apiVersion`);
  const resource = await session.discovery.resourceFor(apiVersion, kind);
  const desc = `${resource.plural} ${fqName(obj)}`;
  const name = nameOf(obj);
  if (name === '')
    throw new KubeError(
      'KUBE_INVALID_OBJECT',
      `Error fetching one of the ${resource.plural}: it does not have a name set`,
    );
  const namespace = resource.namespaced ? namespaceOf(obj) || session.defaultNamespace : undefined;
  return { resource, namespace, path: resourcePath(resource, namespace, name), desc };
}

/** Which object a summary line is about (`-o json` of diff and update): stable keys, namespace only when namespaced. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name: string;
}

export function objectRef(obj: JsonObject, where: ObjectLocation): ObjectRef {
  return {
    apiVersion: apiVersionOfObject(obj),
    kind: kindOf(obj),
    resource: where.resource.plural,
    ...(where.namespace !== undefined ? { namespace: where.namespace } : {}),
    name: nameOf(obj),
  };
}

/** kubecfg's description when the kind cannot be mapped: lower-case kind. */
export async function describe(session: ClusterSession, obj: JsonObject): Promise<string> {
  const r = await session.discovery.lookup(apiVersionOfObject(obj), kindOf(obj)).catch(() => undefined);
  return `${r?.plural ?? kindOf(obj).toLowerCase()} ${fqName(obj)}`;
}
