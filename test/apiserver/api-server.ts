/**
 * A real HTTP(S) server speaking the Kubernetes REST protocol closely enough
 * for kubectl, client libraries and our kube/ commands: version, discovery
 * (legacy, non-aggregated), /openapi/v2, CRUD, list with selectors, three
 * patch types, dry runs and delete preconditions over an in-memory
 * ObjectStore. Invariants: every failure is answered with a Kubernetes
 * Status body; a handler bug answers 500 and never stops the server; every
 * request is recorded (method, path, query, content type, body) for tests.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { stringify as toYaml } from 'yaml';
import { isJsonObject, type JsonObject, type JsonValue } from '../../lang/common/json.js';
import type { OpenApiDocument } from '../../kube/openapi-schema.js';
import { apiVersionOf, ObjectStore, type DeleteOptionsBody } from './object-store.js';
import type { ServedResource } from './resource-table.js';
import { ApiStatusError, badRequest, qualifiedResource } from './status.js';

export interface RequestInfo {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly contentType: string | undefined;
  readonly accept: string | undefined;
  readonly body: JsonValue | undefined;
  /** Kubernetes verb (get, list, create, update, patch, delete, deletecollection) for resource requests. */
  readonly verb?: string;
  readonly resource?: ServedResource;
  readonly namespace?: string;
  readonly name?: string;
  /** The Accept-Encoding header as received. */
  readonly acceptEncoding?: string;
  /** Impersonate-User and Impersonate-Group headers as received (recorded, not enforced). */
  readonly impersonateUser?: string;
  readonly impersonateGroups?: readonly string[];
}

export interface TestApiServerOptions {
  readonly openapi: OpenApiDocument;
  /** Raw bytes served at /openapi/v2 (defaults to JSON.stringify(openapi)). */
  readonly openapiBytes?: Buffer;
  readonly now?: () => Date;
  readonly newUid?: () => string;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** PEM key and certificate: serve HTTPS instead of HTTP. */
  readonly tls?: { readonly key: string; readonly cert: string };
  /** Fault injection: return an error to answer a request with it instead of serving it. */
  readonly intercept?: (req: RequestInfo) => ApiStatusError | undefined;
  readonly gitVersion?: string;
  /** See StoreOptions.crdEstablishDelayReads. */
  readonly crdEstablishDelayReads?: number;
}

export interface TestApiServer {
  readonly url: string;
  readonly store: ObjectStore;
  readonly requests: RequestInfo[];
  /** A kubeconfig (YAML) with one context pointing at this server. */
  kubeconfig(opts?: { namespace?: string; caData?: string }): string;
  close(): Promise<void>;
}

const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];

const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function startTestApiServer(
  options: TestApiServerOptions,
  port = 0,
  host = '127.0.0.1',
): Promise<TestApiServer> {
  const store = new ObjectStore({
    openapi: options.openapi,
    now: options.now ?? (() => new Date()),
    newUid: options.newUid,
    crdEstablishDelayReads: options.crdEstablishDelayReads,
  });
  const openapiBytes = options.openapiBytes ?? Buffer.from(JSON.stringify(options.openapi));
  const requests: RequestInfo[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    void serve(req, res).catch((err: unknown) => {
      send(
        res,
        500,
        new ApiStatusError(
          500,
          'InternalError',
          `internal error: ${err instanceof Error ? err.message : String(err)}`,
        ).toStatus(),
      );
    });
  };
  const server: Server =
    options.tls === undefined
      ? createHttpServer(handler)
      : createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler);

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const contentType = req.headers['content-type']?.split(';')[0]?.trim();
    let body: JsonValue | undefined;
    try {
      body = await readJsonBody(req, contentType);
    } catch (err) {
      const e = err instanceof ApiStatusError ? err : badRequest(String(err));
      send(res, e.code, e.toStatus());
      return;
    }
    const info: RequestInfo = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      contentType,
      accept: req.headers.accept,
      ...(req.headers['accept-encoding'] !== undefined ? { acceptEncoding: req.headers['accept-encoding'] } : {}),
      body,
      ...resolveResource(store, req.method ?? 'GET', url),
      ...impersonationOf(req),
    };
    requests.push(info);
    try {
      if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
        throw new ApiStatusError(401, 'Unauthorized', 'Unauthorized');
      }
      const injected = options.intercept?.(info);
      if (injected !== undefined) throw injected;
      const out = route(info);
      const gzip = /\bgzip\b/.test(info.acceptEncoding ?? '');
      if (Buffer.isBuffer(out)) reply(res, 200, 'application/json', out, gzip);
      else send(res, info.verb === 'create' ? 201 : 200, out, gzip);
    } catch (err) {
      if (err instanceof ApiStatusError) send(res, err.code, err.toStatus());
      else throw err;
    }
  }

  function route(info: RequestInfo): JsonValue | Buffer {
    const p = info.path.replace(/\/+$/, '') || '/';
    if (info.method === 'GET') {
      if (p === '/version') return versionInfo(options.gitVersion ?? 'v1.36.0');
      if (p === '/healthz' || p === '/readyz' || p === '/livez') return 'ok';
      if (p === '/openapi/v2') {
        if (!acceptsJson(info.accept))
          throw new ApiStatusError(
            406,
            'NotAcceptable',
            'only application/json is served at /openapi/v2 (no protobuf)',
          );
        return openapiBytes;
      }
      if (p === '/api')
        return {
          kind: 'APIVersions',
          versions: ['v1'],
          serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: address() }],
        };
      if (p === '/apis') return groupList(store);
      const groupMatch = /^\/apis\/([^/]+)$/.exec(p);
      if (groupMatch !== null) return apiGroup(store, groupMatch[1]!);
      const gv = /^\/api\/(v1)$/.exec(p) ?? /^\/apis\/([^/]+\/[^/]+)$/.exec(p);
      if (gv !== null) return resourceList(store, gv[1]!);
    }
    if (info.resource === undefined)
      throw new ApiStatusError(404, 'NotFound', 'the server could not find the requested resource');
    return serveResource(info);
  }

  function serveResource(info: RequestInfo): JsonValue {
    const res = info.resource!;
    const verb = info.verb!;
    if (!res.verbs.has(verb)) {
      throw new ApiStatusError(
        405,
        'MethodNotAllowed',
        `the server does not allow this method on the requested resource (${verb} ${qualifiedResource(res.plural, res.group)})`,
      );
    }
    const dryRunParam = info.query.getAll('dryRun');
    if (dryRunParam.some((d) => d !== 'All'))
      throw badRequest(`Invalid dryRun value: ${dryRunParam.join(',')}; only "All" is supported`);
    const dryRun = dryRunParam.length > 0;
    const ns = info.namespace;
    switch (verb) {
      case 'get':
        return store.get(res, ns, info.name!);
      case 'list':
        if (info.query.get('watch') === 'true' || info.query.get('watch') === '1') {
          throw new ApiStatusError(405, 'MethodNotAllowed', 'watch is not supported by the test API server');
        }
        return store.list(
          res,
          ns,
          info.query.get('labelSelector') ?? undefined,
          info.query.get('fieldSelector') ?? undefined,
        );
      case 'create':
        requireJsonBody(info);
        return store.create(res, ns, info.body ?? null, dryRun);
      case 'update':
        requireJsonBody(info);
        return store.update(res, ns, info.name!, info.body ?? null, dryRun);
      case 'patch':
        if (!PATCH_TYPES.includes(info.contentType ?? '')) {
          throw new ApiStatusError(
            415,
            'UnsupportedMediaType',
            `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES.join(', ')}`,
          );
        }
        if (info.body === undefined) throw badRequest('a patch needs a body');
        return store.patch(res, ns, info.name!, info.contentType ?? '', info.body, dryRun);
      case 'delete':
        return store.delete(res, ns, info.name!, deleteOptions(info), dryRun);
      case 'deletecollection':
        return store.deleteCollection(res, ns, info.query.get('labelSelector') ?? undefined, dryRun);
      default:
        throw new ApiStatusError(405, 'MethodNotAllowed', `unsupported verb ${verb}`);
    }
  }

  function address(): string {
    const a = server.address() as AddressInfo;
    return `${a.address}:${a.port}`;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  const url = `${options.tls === undefined ? 'http' : 'https'}://${host}:${a.port}`;
  return {
    url,
    store,
    requests,
    kubeconfig: (opts = {}) =>
      toYaml({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'test',
            cluster: {
              server: url,
              ...(opts.caData !== undefined ? { 'certificate-authority-data': opts.caData } : {}),
            },
          },
        ],
        users: [{ name: 'test', user: options.token !== undefined ? { token: options.token } : {} }],
        contexts: [
          {
            name: 'test',
            context: {
              cluster: 'test',
              user: 'test',
              ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
            },
          },
        ],
        'current-context': 'test',
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Works out which resource, namespace, name and verb a request addresses; empty for non-resource paths. */
function resolveResource(store: ObjectStore, method: string, url: URL): Partial<RequestInfo> {
  const segs = url.pathname.split('/').filter((s) => s !== '');
  let group: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 3) {
    group = '';
    rest = segs.slice(1);
  } else if (segs[0] === 'apis' && segs.length >= 4) {
    group = segs[1]!;
    rest = segs.slice(2);
  } else {
    return {};
  }
  const version = rest[0]!;
  let tail: string[];
  try {
    tail = rest.slice(1).map((s) => decodeURIComponent(s));
  } catch {
    return {}; // malformed %-escape: not a resource path (404)
  }
  let namespace: string | undefined;
  if (tail[0] === 'namespaces' && tail.length >= 3) {
    namespace = tail[1];
    tail = tail.slice(2);
  }
  if (tail.length > 2) return {};
  const resource = store.find(group, version, tail[0]!);
  if (resource === undefined) return {};
  if (namespace !== undefined && !resource.namespaced) return {};
  const name = tail[1];
  if (resource.namespaced && namespace === undefined && !(method === 'GET' && name === undefined)) return {};
  const verb =
    name === undefined
      ? { GET: 'list', POST: 'create', DELETE: 'deletecollection' }[method]
      : { GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' }[method];
  if (verb === undefined) return {};
  return { resource, namespace, name, verb };
}

function requireJsonBody(info: RequestInfo): void {
  if (info.contentType !== undefined && info.contentType !== 'application/json') {
    throw new ApiStatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json (got ${info.contentType})`,
    );
  }
}

function acceptsJson(accept: string | undefined): boolean {
  return (
    accept === undefined ||
    accept.split(',').some((a) => /^\s*(application\/json|\*\/\*|application\/\*)\s*(;|$)/.test(a))
  );
}

function deleteOptions(info: RequestInfo): DeleteOptionsBody {
  const body = info.body;
  const out: {
    preconditions?: { uid?: string; resourceVersion?: string };
    gracePeriodSeconds?: number;
    propagationPolicy?: string;
  } = {};
  if (isJsonObject(body)) {
    const pre = body['preconditions'];
    if (isJsonObject(pre)) {
      out.preconditions = {};
      if (typeof pre['uid'] === 'string') out.preconditions.uid = pre['uid'];
      if (typeof pre['resourceVersion'] === 'string') out.preconditions.resourceVersion = pre['resourceVersion'];
    }
    if (typeof body['gracePeriodSeconds'] === 'number') out.gracePeriodSeconds = body['gracePeriodSeconds'];
    if (typeof body['propagationPolicy'] === 'string') out.propagationPolicy = body['propagationPolicy'];
  }
  const grace = info.query.get('gracePeriodSeconds');
  if (grace !== null) out.gracePeriodSeconds = Number(grace);
  const propagation = info.query.get('propagationPolicy');
  if (propagation !== null) out.propagationPolicy = propagation;
  if (out.propagationPolicy !== undefined && !['Foreground', 'Background', 'Orphan'].includes(out.propagationPolicy)) {
    throw badRequest(`Invalid propagationPolicy: ${out.propagationPolicy}`);
  }
  return out;
}

function versionInfo(gitVersion: string): JsonObject {
  const m = /^v(\d+)\.(\d+)/.exec(gitVersion);
  return {
    major: m?.[1] ?? '1',
    minor: m?.[2] ?? '36',
    gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.25.0',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

function groupEntry(name: string, versions: readonly string[]): JsonObject {
  const gv = (v: string): JsonObject => ({ groupVersion: name === '' ? v : `${name}/${v}`, version: v });
  return { name, versions: versions.map(gv), preferredVersion: gv(versions[0]!) };
}

function groupList(store: ObjectStore): JsonObject {
  const groups = [...store.groups()].filter(([g]) => g !== '').map(([g, vs]) => groupEntry(g, vs));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

function apiGroup(store: ObjectStore, name: string): JsonObject {
  const versions = store.groups().get(name);
  if (versions === undefined || name === '')
    throw new ApiStatusError(404, 'NotFound', 'the server could not find the requested resource');
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(name, versions) };
}

function resourceList(store: ObjectStore, groupVersion: string): JsonObject {
  const resources = store.allResources().filter((r) => apiVersionOf(r) === groupVersion);
  if (resources.length === 0)
    throw new ApiStatusError(404, 'NotFound', 'the server could not find the requested resource');
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion,
    resources: resources.map((r) => ({
      name: r.plural,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: [...r.verbs].sort(),
      ...(r.shortNames.length > 0 ? { shortNames: [...r.shortNames] } : {}),
    })),
  };
}

/** kube-apiserver compresses a response of at least 128 KiB when the client accepts gzip. */
const GZIP_THRESHOLD_BYTES = 128 * 1024;

function send(res: ServerResponse, code: number, body: JsonValue, gzip = false): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  reply(res, code, typeof body === 'string' ? 'text/plain' : 'application/json', Buffer.from(text), gzip);
}

function reply(res: ServerResponse, code: number, contentType: string, bytes: Buffer, gzip: boolean): void {
  if (res.headersSent) return;
  const compress = gzip && bytes.length >= GZIP_THRESHOLD_BYTES;
  const out = compress ? gzipSync(bytes) : bytes;
  res.writeHead(code, {
    'content-type': contentType,
    'content-length': out.length,
    ...(compress ? { 'content-encoding': 'gzip' } : {}),
  });
  res.end(out);
}

async function readJsonBody(req: IncomingMessage, contentType: string | undefined): Promise<JsonValue | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new ApiStatusError(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  // Non-JSON media types (protobuf, YAML) are refused later with 415, naming the type.
  if (contentType !== undefined && !/json/.test(contentType)) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonValue;
  } catch (err) {
    throw badRequest(`the request body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The impersonation headers of a request; node joins repeated Impersonate-Group headers with ', '. */
function impersonationOf(req: IncomingMessage): { impersonateUser?: string; impersonateGroups?: string[] } {
  const user = req.headers['impersonate-user'];
  const groups: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i]!.toLowerCase() === 'impersonate-group') groups.push(req.rawHeaders[i + 1]!);
  return {
    ...(typeof user === 'string' ? { impersonateUser: user } : {}),
    ...(groups.length > 0 ? { impersonateGroups: groups } : {}),
  };
}
