/**
 * The resources a test API server serves: built-in ones derived from the
 * OpenAPI document's paths (`x-kubernetes-action` and
 * `x-kubernetes-group-version-kind`), plus ones added at run time by
 * CustomResourceDefinitions. Invariants: one entry per group/version/plural;
 * subresources (`/status`, `/scale`) and watch paths are not resources here.
 */
import type { OpenApiDocument } from '../../kube/openapi-schema.js';

export interface ServedResource {
  readonly group: string;
  readonly version: string;
  /** URL segment, e.g. `deployments`. */
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: ReadonlySet<string>;
  readonly shortNames: readonly string[];
  /** True for resources defined by a CRD (objects are stored without schema knowledge). */
  readonly custom: boolean;
}

const ACTION_TO_VERB: Readonly<Record<string, string>> = {
  get: 'get',
  list: 'list',
  post: 'create',
  put: 'update',
  patch: 'patch',
  delete: 'delete',
  deletecollection: 'deletecollection',
  watch: 'watch',
  watchlist: 'watch',
};

/** Short names real servers report for built-in resources (the OpenAPI document does not carry them). */
const SHORT_NAMES: Readonly<Record<string, readonly string[]>> = {
  '/componentstatuses': ['cs'],
  '/configmaps': ['cm'],
  '/endpoints': ['ep'],
  '/events': ['ev'],
  '/limitranges': ['limits'],
  '/namespaces': ['ns'],
  '/nodes': ['no'],
  '/persistentvolumeclaims': ['pvc'],
  '/persistentvolumes': ['pv'],
  '/pods': ['po'],
  '/replicationcontrollers': ['rc'],
  '/resourcequotas': ['quota'],
  '/serviceaccounts': ['sa'],
  '/services': ['svc'],
  'apiextensions.k8s.io/customresourcedefinitions': ['crd', 'crds'],
  'apps/daemonsets': ['ds'],
  'apps/deployments': ['deploy'],
  'apps/replicasets': ['rs'],
  'apps/statefulsets': ['sts'],
  'autoscaling/horizontalpodautoscalers': ['hpa'],
  'batch/cronjobs': ['cj'],
  'certificates.k8s.io/certificatesigningrequests': ['csr'],
  'events.k8s.io/events': ['ev'],
  'networking.k8s.io/ingresses': ['ing'],
  'networking.k8s.io/networkpolicies': ['netpol'],
  'policy/poddisruptionbudgets': ['pdb'],
  'scheduling.k8s.io/priorityclasses': ['pc'],
  'storage.k8s.io/storageclasses': ['sc'],
};

interface Draft {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  verbs: Set<string>;
}

/** Builds the built-in resource list from an OpenAPI v2 document. */
export function resourcesFromOpenApi(doc: OpenApiDocument): ServedResource[] {
  const drafts = new Map<string, Draft>();
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    const parsed = parseResourcePath(path);
    if (parsed === undefined) continue;
    for (const op of Object.values(operations)) {
      if (typeof op !== 'object' || op === null) continue;
      const action = (op as Record<string, unknown>)['x-kubernetes-action'];
      const gvk = (op as Record<string, unknown>)['x-kubernetes-group-version-kind'] as { kind?: unknown } | undefined;
      if (typeof action !== 'string' || typeof gvk?.kind !== 'string') continue;
      const verb = ACTION_TO_VERB[action];
      if (verb === undefined) continue;
      const key = `${parsed.group}/${parsed.version}/${parsed.plural}`;
      let draft = drafts.get(key);
      if (draft === undefined) {
        draft = { ...parsed, kind: gvk.kind, verbs: new Set() };
        drafts.set(key, draft);
      }
      draft.namespaced ||= parsed.namespaced;
      draft.verbs.add(verb);
    }
  }
  return [...drafts.values()].map((d) => ({
    ...d,
    singular: d.kind.toLowerCase(),
    shortNames: SHORT_NAMES[`${d.group}/${d.plural}`] ?? [],
    custom: false,
  }));
}

function parseResourcePath(
  path: string,
): { group: string; version: string; plural: string; namespaced: boolean } | undefined {
  const segs = path.split('/').filter((s) => s !== '');
  let group: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 3) {
    group = '';
    rest = segs.slice(1);
  } else if (segs[0] === 'apis' && segs.length >= 4) {
    group = segs[1]!;
    rest = segs.slice(2);
  } else {
    return undefined;
  }
  const version = rest[0]!;
  let tail = rest.slice(1);
  if (tail[0] === 'watch') return undefined;
  let namespaced = false;
  if (tail[0] === 'namespaces' && tail[1] === '{namespace}' && tail.length >= 3) {
    namespaced = true;
    tail = tail.slice(2);
  }
  // Only the collection and the item path; anything longer is a subresource.
  if (tail.length === 1 || (tail.length === 2 && tail[1] === '{name}')) {
    return { group, version, plural: tail[0]!, namespaced };
  }
  return undefined;
}

/**
 * Kubernetes version priority: GA before beta before alpha, higher numbers
 * first; non-conforming names last, alphabetically.
 */
export function compareKubeVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number, string] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (m === null) return [3, 0, 0, v];
    const level = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2;
    return [level, -Number(m[1]), -Number(m[3] ?? 0), v];
  };
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return (ra[i] as number) - (rb[i] as number);
  return ra[3] < rb[3] ? -1 : ra[3] > rb[3] ? 1 : 0;
}
