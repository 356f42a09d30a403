/**
 * The state of the test API server: served resources (built-in plus those
 * CRDs add), stored objects, and the REST semantics applied to them —
 * resourceVersion and conflict checks, generation, uid, creationTimestamp,
 * namespace existence, dry runs, delete preconditions, the three patch
 * types, and CRD establishment. Invariants: one global resourceVersion
 * counter increases on every persisted write; dry runs never change state;
 * objects are stored per group/resource (shared by every served version, no
 * conversion) and copied on the way in and out.
 */
import { randomUUID } from 'node:crypto';
import { isJsonObject, jsonObject, type JsonObject, type JsonValue } from '../../lang/common/json.js';
import { OpenApiSchema, type OpenApiDocument } from '../../kube/openapi-schema.js';
import { applyJsonPatch } from './json-patch.js';
import { applyMergePatch } from './json-merge-patch.js';
import { labelsMatch, parseLabelSelector } from './label-selector.js';
import { compareKubeVersions, resourcesFromOpenApi, type ServedResource } from './resource-table.js';
import { alreadyExists, ApiStatusError, badRequest, conflict, invalid, notFound } from './status.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

export interface StoreOptions {
  readonly openapi: OpenApiDocument;
  /** Source of creationTimestamp; injected so tests are deterministic. */
  readonly now: () => Date;
  readonly newUid?: () => string;
  /** Namespaces that exist at start (default: default, kube-system, kube-public, kube-node-lease). */
  readonly namespaces?: readonly string[];
  /**
   * Simulates the CRD controller's lag: a new CRD reports Established only
   * after this many reads of it (default 0: at once).
   */
  readonly crdEstablishDelayReads?: number;
}

export interface DeleteOptionsBody {
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: string;
}

const CRD_GROUP = 'apiextensions.k8s.io';

export class ObjectStore {
  readonly schema: OpenApiSchema;
  private readonly resources = new Map<string, ServedResource>();
  private readonly objects = new Map<string, Map<string, JsonObject>>();
  private resourceVersion = 1;
  /** allResources() memo; dropped whenever a CRD changes the resource set. */
  private sortedResources: ServedResource[] | undefined;
  private readonly newUid: () => string;
  /** CRD name → reads left before it reports Established. */
  private readonly pendingCrds = new Map<string, number>();

  constructor(private readonly options: StoreOptions) {
    this.schema = new OpenApiSchema(options.openapi);
    this.newUid = options.newUid ?? randomUUID;
    for (const r of resourcesFromOpenApi(options.openapi))
      this.resources.set(resourceKey(r.group, r.version, r.plural), r);
    for (const ns of options.namespaces ?? ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      this.create(
        this.mustFind('', 'v1', 'namespaces'),
        undefined,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
        false,
      );
    }
  }

  /** Every served resource, in a stable order (group, version priority, plural). */
  allResources(): readonly ServedResource[] {
    this.sortedResources ??= [...this.resources.values()].sort(
      (a, b) => cmp(a.group, b.group) || compareKubeVersions(a.version, b.version) || cmp(a.plural, b.plural),
    );
    return this.sortedResources;
  }

  /** Group name → served versions, preferred first. */
  groups(): Map<string, string[]> {
    const groups = new Map<string, Set<string>>();
    for (const r of this.resources.values()) {
      let versions = groups.get(r.group);
      if (versions === undefined) groups.set(r.group, (versions = new Set()));
      versions.add(r.version);
    }
    return new Map([...groups].map(([g, vs]) => [g, [...vs].sort(compareKubeVersions)]));
  }

  find(group: string, version: string, plural: string): ServedResource | undefined {
    return this.resources.get(resourceKey(group, version, plural));
  }

  currentResourceVersion(): string {
    return String(this.resourceVersion);
  }

  get(res: ServedResource, ns: string | undefined, name: string): JsonObject {
    const stored = this.bucket(res).get(objectKey(ns, name));
    if (stored === undefined) throw notFound(res.plural, res.group, res.kind, name);
    const pending = this.pendingCrds.get(name);
    if (pending !== undefined && res.group === CRD_GROUP && res.plural === 'customresourcedefinitions') {
      if (pending <= 1) {
        this.pendingCrds.delete(name);
        this.establishCrd(stored);
      } else {
        this.pendingCrds.set(name, pending - 1);
      }
    }
    return this.present(res, stored, true);
  }

  list(
    res: ServedResource,
    ns: string | undefined,
    labelSelector: string | undefined,
    fieldSelector: string | undefined,
  ): JsonObject {
    const selector = parseLabelSelector(labelSelector ?? '');
    if (!selector.ok) throw badRequest(`invalid labelSelector: ${selector.error}`);
    const fields = parseFieldSelector(fieldSelector ?? '');
    const items: JsonObject[] = [];
    for (const obj of this.bucket(res).values()) {
      const meta = metadataOf(obj);
      if (ns !== undefined && meta['namespace'] !== ns) continue;
      if (!labelsMatch(selector.requirements, stringMap(meta['labels']))) continue;
      if (!fields.every(([k, op, v]) => (String(meta[k] ?? '') === v) === (op === '='))) continue;
      // Real servers omit kind/apiVersion on the items of built-in lists; clients must fill them in.
      items.push(this.present(res, obj, res.custom));
    }
    items.sort((a, b) =>
      cmp(
        `${metadataOf(a)['namespace'] ?? ''}/${metadataOf(a)['name']}`,
        `${metadataOf(b)['namespace'] ?? ''}/${metadataOf(b)['name']}`,
      ),
    );
    return {
      kind: `${res.kind}List`,
      apiVersion: apiVersionOf(res),
      metadata: { resourceVersion: this.currentResourceVersion() },
      items,
    };
  }

  create(res: ServedResource, ns: string | undefined, body: JsonValue, dryRun: boolean): JsonObject {
    const obj = this.checkBody(res, ns, body);
    const meta = metadataOf(obj);
    if (typeof meta['name'] !== 'string' || meta['name'] === '') {
      if (typeof meta['generateName'] === 'string' && meta['generateName'] !== '') {
        meta['name'] = meta['generateName'] + this.newUid().replace(/-/g, '').slice(0, 5);
      } else {
        throw invalid(`${res.kind} "" is invalid: metadata.name: Required value: name or generateName is required`);
      }
    }
    const name = meta['name'];
    if (res.namespaced) this.requireNamespace(ns!);
    const bucket = this.bucket(res);
    if (bucket.has(objectKey(ns, name))) throw alreadyExists(res.plural, res.group, name);
    meta['uid'] = this.newUid();
    meta['creationTimestamp'] = rfc3339Seconds(this.options.now());
    meta['generation'] = 1;
    delete meta['resourceVersion'];
    delete meta['deletionTimestamp'];
    if (res.group === '' && res.plural === 'namespaces') obj['status'] = { phase: 'Active' };
    if (res.group === CRD_GROUP && res.plural === 'customresourcedefinitions') this.checkCrd(obj);
    if (dryRun) return this.present(res, { ...obj, metadata: meta }, true);
    meta['resourceVersion'] = this.nextResourceVersion();
    bucket.set(objectKey(ns, name), obj);
    if (res.group === CRD_GROUP && res.plural === 'customresourcedefinitions') {
      const delay = this.options.crdEstablishDelayReads ?? 0;
      if (delay > 0) this.pendingCrds.set(name, delay);
      else this.establishCrd(obj);
    }
    return this.present(res, obj, true);
  }

  update(res: ServedResource, ns: string | undefined, name: string, body: JsonValue, dryRun: boolean): JsonObject {
    const bucket = this.bucket(res);
    const existing = bucket.get(objectKey(ns, name));
    if (existing === undefined) throw notFound(res.plural, res.group, res.kind, name);
    const obj = this.checkBody(res, ns, body);
    const meta = metadataOf(obj);
    if (meta['name'] !== undefined && meta['name'] !== name) {
      throw badRequest(`the name of the object (${String(meta['name'])}) does not match the name on the URL (${name})`);
    }
    const oldMeta = metadataOf(existing);
    const sentVersion = meta['resourceVersion'];
    if (sentVersion !== undefined && sentVersion !== '' && sentVersion !== oldMeta['resourceVersion']) {
      throw conflict(
        res.plural,
        res.group,
        name,
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
    if (meta['uid'] !== undefined && meta['uid'] !== '' && meta['uid'] !== oldMeta['uid']) {
      throw conflict(
        res.plural,
        res.group,
        name,
        `Precondition failed: UID in precondition: ${String(meta['uid'])}, UID in object meta: ${String(oldMeta['uid'])}`,
      );
    }
    meta['name'] = name;
    meta['uid'] = oldMeta['uid']!;
    meta['creationTimestamp'] = oldMeta['creationTimestamp']!;
    const changedSpec =
      JSON.stringify(sortDeep(withoutMetaAndStatus(existing))) !== JSON.stringify(sortDeep(withoutMetaAndStatus(obj)));
    meta['generation'] =
      (typeof oldMeta['generation'] === 'number' ? oldMeta['generation'] : 1) + (changedSpec ? 1 : 0);
    if (res.group === CRD_GROUP && res.plural === 'customresourcedefinitions') this.checkCrd(obj);
    if (dryRun)
      return this.present(res, { ...obj, metadata: { ...meta, resourceVersion: oldMeta['resourceVersion']! } }, true);
    meta['resourceVersion'] = this.nextResourceVersion();
    if (res.group === '' && res.plural === 'namespaces') obj['status'] = existing['status'] ?? { phase: 'Active' };
    bucket.set(objectKey(ns, name), obj);
    if (res.group === CRD_GROUP && res.plural === 'customresourcedefinitions') {
      this.unregisterCrd(existing, false);
      if (this.pendingCrds.has(name)) obj['status'] = existing['status'] ?? {};
      else this.establishCrd(obj);
    }
    return this.present(res, obj, true);
  }

  patch(
    res: ServedResource,
    ns: string | undefined,
    name: string,
    contentType: string,
    patch: JsonValue,
    dryRun: boolean,
  ): JsonObject {
    const existing = this.bucket(res).get(objectKey(ns, name));
    if (existing === undefined) throw notFound(res.plural, res.group, res.kind, name);
    const current = this.present(res, existing, true);
    let patched: JsonValue;
    switch (contentType) {
      case 'application/merge-patch+json':
        patched = applyMergePatch(current, patch);
        break;
      case 'application/json-patch+json': {
        const r = applyJsonPatch(current, patch);
        if (!r.ok) throw invalid(r.error);
        patched = r.value;
        break;
      }
      case 'application/strategic-merge-patch+json': {
        const kindSchema = res.custom
          ? undefined
          : this.schema.forKind({ group: res.group, version: res.version, kind: res.kind });
        if (kindSchema === undefined) {
          throw new ApiStatusError(
            415,
            'UnsupportedMediaType',
            `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
          );
        }
        const r = applyStrategicMergePatch(this.schema, kindSchema, current, patch);
        if (!r.ok) throw invalid(r.error);
        patched = r.value;
        break;
      }
      default:
        throw new ApiStatusError(
          415,
          'UnsupportedMediaType',
          `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json${res.custom ? '' : ', application/strategic-merge-patch+json'}`,
        );
    }
    if (!isJsonObject(patched)) throw badRequest('patch result is not an object');
    const patchedMeta = isJsonObject(patched['metadata']) ? patched['metadata'] : undefined;
    // A patch that does not mention resourceVersion is unconditional.
    if (
      patchedMeta !== undefined &&
      patchedMeta['resourceVersion'] === metadataOf(existing)['resourceVersion'] &&
      !mentionsResourceVersion(patch)
    ) {
      delete patchedMeta['resourceVersion'];
    }
    return this.update(res, ns, name, patched, dryRun);
  }

  delete(
    res: ServedResource,
    ns: string | undefined,
    name: string,
    options: DeleteOptionsBody,
    dryRun: boolean,
  ): JsonObject {
    const bucket = this.bucket(res);
    const existing = bucket.get(objectKey(ns, name));
    if (existing === undefined) throw notFound(res.plural, res.group, res.kind, name);
    const meta = metadataOf(existing);
    const pre = options.preconditions;
    if (pre?.uid !== undefined && pre.uid !== meta['uid']) {
      throw conflict(
        res.plural,
        res.group,
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${String(meta['uid'])}`,
      );
    }
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== meta['resourceVersion']) {
      throw conflict(
        res.plural,
        res.group,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${String(meta['resourceVersion'])}`,
      );
    }
    const shown = this.present(res, existing, true);
    if (dryRun) return shown;
    bucket.delete(objectKey(ns, name));
    this.nextResourceVersion();
    if (res.group === '' && res.plural === 'namespaces') this.dropNamespace(name);
    if (res.group === CRD_GROUP && res.plural === 'customresourcedefinitions') this.unregisterCrd(existing, true);
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: res.group, kind: res.plural, uid: meta['uid'] ?? null },
    };
  }

  deleteCollection(
    res: ServedResource,
    ns: string | undefined,
    labelSelector: string | undefined,
    dryRun: boolean,
  ): JsonObject {
    const list = this.list(res, ns, labelSelector, undefined);
    for (const item of list['items'] as JsonObject[]) {
      const meta = metadataOf(item);
      this.delete(res, meta['namespace'] as string | undefined, meta['name'] as string, {}, dryRun);
    }
    return list;
  }

  private requireNamespace(ns: string): void {
    if (!this.bucket(this.mustFind('', 'v1', 'namespaces')).has(objectKey(undefined, ns)))
      throw notFound('namespaces', '', 'Namespace', ns);
  }

  /** Copies and checks an incoming body against the endpoint it was sent to. */
  private checkBody(res: ServedResource, ns: string | undefined, body: JsonValue): JsonObject {
    if (!isJsonObject(body)) throw badRequest('the request body must be a JSON object');
    const obj = structuredClone(body);
    const apiVersion = apiVersionOf(res);
    if (obj['kind'] !== undefined && obj['kind'] !== res.kind) {
      throw badRequest(
        `the kind of the provided object (${String(obj['kind'])}) does not match the endpoint kind (${res.kind})`,
      );
    }
    if (obj['apiVersion'] !== undefined && obj['apiVersion'] !== apiVersion) {
      throw badRequest(
        `the API version in the data (${String(obj['apiVersion'])}) does not match the expected API version (${apiVersion})`,
      );
    }
    obj['kind'] = res.kind;
    obj['apiVersion'] = apiVersion;
    const meta = isJsonObject(obj['metadata']) ? obj['metadata'] : jsonObject([]);
    obj['metadata'] = meta;
    if (res.namespaced) {
      if (meta['namespace'] !== undefined && meta['namespace'] !== ns) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      meta['namespace'] = ns!;
    } else {
      delete meta['namespace'];
    }
    return obj;
  }

  private checkCrd(obj: JsonObject): void {
    const spec = isJsonObject(obj['spec']) ? obj['spec'] : undefined;
    const names = spec !== undefined && isJsonObject(spec['names']) ? spec['names'] : undefined;
    const name = metadataOf(obj)['name'];
    if (
      spec === undefined ||
      names === undefined ||
      typeof spec['group'] !== 'string' ||
      typeof names['plural'] !== 'string' ||
      typeof names['kind'] !== 'string'
    ) {
      throw invalid(
        `CustomResourceDefinition "${String(name)}" is invalid: spec.group, spec.names.plural and spec.names.kind are required`,
      );
    }
    if (name !== `${names['plural']}.${spec['group']}`) {
      throw invalid(
        `CustomResourceDefinition "${String(name)}" is invalid: metadata.name: Invalid value: must be spec.names.plural+"."+spec.group`,
      );
    }
    if (!Array.isArray(spec['versions']) || spec['versions'].length === 0) {
      throw invalid(`CustomResourceDefinition "${String(name)}" is invalid: spec.versions: Required value`);
    }
  }

  /** Registers the CRD's served versions and marks it Established, as the real controller soon does. */
  private establishCrd(obj: JsonObject): void {
    const spec = obj['spec'] as JsonObject;
    const names = spec['names'] as JsonObject;
    const group = spec['group'] as string;
    for (const v of spec['versions'] as JsonValue[]) {
      if (!isJsonObject(v) || typeof v['name'] !== 'string' || v['served'] === false) continue;
      const res: ServedResource = {
        group,
        version: v['name'],
        plural: names['plural'] as string,
        singular: typeof names['singular'] === 'string' ? names['singular'] : (names['kind'] as string).toLowerCase(),
        kind: names['kind'] as string,
        namespaced: spec['scope'] !== 'Cluster',
        verbs: new Set(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update']),
        shortNames: Array.isArray(names['shortNames'])
          ? names['shortNames'].filter((s): s is string => typeof s === 'string')
          : [],
        custom: true,
      };
      this.resources.set(resourceKey(group, res.version, res.plural), res);
    }
    this.sortedResources = undefined;
    const ts = rfc3339Seconds(this.options.now());
    obj['status'] = {
      acceptedNames: structuredClone(names),
      storedVersions: (spec['versions'] as JsonValue[])
        .filter((v) => isJsonObject(v) && v['storage'] === true)
        .map((v) => (v as JsonObject)['name']!),
      conditions: [
        {
          type: 'NamesAccepted',
          status: 'True',
          reason: 'NoConflicts',
          message: 'no conflicts found',
          lastTransitionTime: ts,
        },
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
          lastTransitionTime: ts,
        },
      ],
    };
  }

  private unregisterCrd(obj: JsonObject, dropObjects: boolean): void {
    const spec = obj['spec'] as JsonObject;
    const plural = (spec['names'] as JsonObject)['plural'] as string;
    const group = spec['group'] as string;
    for (const [key, r] of this.resources)
      if (r.custom && r.group === group && r.plural === plural) this.resources.delete(key);
    this.sortedResources = undefined;
    if (dropObjects) this.objects.delete(`${group}/${plural}`);
  }

  private dropNamespace(ns: string): void {
    for (const bucket of this.objects.values()) {
      for (const [key, obj] of bucket) if (metadataOf(obj)['namespace'] === ns) bucket.delete(key);
    }
  }

  private present(res: ServedResource, obj: JsonObject, withType: boolean): JsonObject {
    const copy = structuredClone(obj);
    if (withType) {
      copy['apiVersion'] = apiVersionOf(res);
      copy['kind'] = res.kind;
    } else {
      delete copy['apiVersion'];
      delete copy['kind'];
    }
    return copy;
  }

  private bucket(res: ServedResource): Map<string, JsonObject> {
    const key = `${res.group}/${res.plural}`;
    let bucket = this.objects.get(key);
    if (bucket === undefined) this.objects.set(key, (bucket = new Map()));
    return bucket;
  }

  private mustFind(group: string, version: string, plural: string): ServedResource {
    const r = this.find(group, version, plural);
    if (r === undefined) throw new Error(`OpenAPI document does not define ${group}/${version}/${plural}`);
    return r;
  }

  private nextResourceVersion(): string {
    this.resourceVersion += 1;
    return String(this.resourceVersion);
  }
}

export function apiVersionOf(res: { group: string; version: string }): string {
  return res.group === '' ? res.version : `${res.group}/${res.version}`;
}

function resourceKey(group: string, version: string, plural: string): string {
  return `${group}/${version}/${plural}`;
}

function objectKey(ns: string | undefined, name: string): string {
  return `${ns ?? ''}/${name}`;
}

function metadataOf(obj: JsonObject): JsonObject {
  return isJsonObject(obj['metadata']) ? obj['metadata'] : jsonObject([]);
}

function stringMap(v: JsonValue | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (isJsonObject(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

function parseFieldSelector(text: string): Array<[string, '=' | '!=', string]> {
  const out: Array<[string, '=' | '!=', string]> = [];
  for (const part of text.split(',').filter((p) => p.trim() !== '')) {
    const m = /^\s*metadata\.(name|namespace)\s*(==|=|!=)\s*(.*?)\s*$/.exec(part);
    if (m === null) throw badRequest(`field label not supported: ${part.split(/[=!]/)[0]!.trim()}`);
    out.push([m[1]!, m[2] === '!=' ? '!=' : '=', m[3]!]);
  }
  return out;
}

function withoutMetaAndStatus(obj: JsonObject): JsonObject {
  return jsonObject(Object.entries(obj).filter(([k]) => k !== 'metadata' && k !== 'status'));
}

function sortDeep(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (isJsonObject(v))
    return jsonObject(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortDeep(v[k]!)] as const),
    );
  return v;
}

function mentionsResourceVersion(patch: JsonValue): boolean {
  if (Array.isArray(patch))
    return patch.some(
      (op) => isJsonObject(op) && typeof op['path'] === 'string' && op['path'].startsWith('/metadata/resourceVersion'),
    );
  return isJsonObject(patch) && isJsonObject(patch['metadata']) && Object.hasOwn(patch['metadata'], 'resourceVersion');
}

function rfc3339Seconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
