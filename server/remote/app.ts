/**
 * The remote service's HTTPS surface:
 *   POST /rpc     JSON-RPC 2.0 (remote/missing, remote/upload, remote/render), bearer token required
 *   GET /healthz  "ok" while the process serves
 *   GET /readyz   "ok", or 503 while draining (the load balancer stops sending work)
 *   GET /metrics  Prometheus text (no tenant data beyond tenant names)
 * The token and the absence of an Origin header (browsers send one: CSRF) are
 * checked in onRequest, before the body is read or parsed (hazard 30). Bodies
 * are raw strings so malformed JSON gets -32700. One JSON-RPC request per
 * POST; batches are refused. Every answer to a tenant is built from typed
 * errors with fixed messages; internal errors are logged, not echoed. A
 * render whose connection closes before the answer is sent (the client was
 * interrupted or died) is cancelled: it leaves the queue, or its child is
 * killed and its slot released.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import {
  ErrorCodes,
  HEALTH_PATH,
  isPlainObject,
  METRICS_PATH,
  ParamsError,
  REMOTE_READY_PATH,
  RemoteErrorCodes,
  RemoteMethods,
  RPC_PATH,
  validateRemoteMissing,
  validateRemoteRender,
  validateRemoteUpload,
} from '../../protocol/index.js';
import type { Logger } from '../logger.js';
import type { Admission } from './admission.js';
import { RemoteError, type RenderService } from './render-service.js';
import type { RemoteMetrics } from './remote-metrics.js';
import type { RemoteResults } from './remote-results.js';
import type { TenantConfig, Tenants } from './tenants.js';
import type { Fleet } from './fleet.js';
import type { PathRedactor } from './path-redactor.js';

const REMOTE_BODY_LIMIT = 40 * 1024 * 1024;

export interface RemoteAppDeps {
  tls: { cert: string | Buffer; key: string | Buffer };
  tenants: Tenants;
  service: RenderService;
  metrics: RemoteMetrics;
  admission: Admission;
  results: RemoteResults;
  logger: Logger;
  /** Takes the service's own paths out of every answer (hazard 26). */
  redactor: PathRedactor;
  /** The shared Redis of a fleet of replicas, if configured. */
  fleet?: Fleet;
}

declare module 'fastify' {
  interface FastifyRequest {
    tenant?: TenantConfig;
  }
}

export function createRemoteApp(deps: RemoteAppDeps): FastifyInstance {
  const { service, metrics, logger, redactor } = deps;
  // Every answer on /rpc is built by one of these two: the only way out for render text (hazard 26).
  const rpcError = (id: unknown, code: number, message: string, data?: unknown): string =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error:
        data === undefined
          ? { code, message: redactor.errorText(message) }
          : { code, message: redactor.errorText(message), data: redactor.value(data) },
    });
  const rpcResult = (id: unknown, result: unknown): string =>
    JSON.stringify({ jsonrpc: '2.0', id: id ?? null, result });
  const app = Fastify({
    logger: false,
    https: { cert: deps.tls.cert, key: deps.tls.key },
    bodyLimit: REMOTE_BODY_LIMIT,
    return503OnClosing: true,
  }) as unknown as FastifyInstance;

  app.addHook('onRequest', (req, reply, done) => {
    if (req.url !== RPC_PATH) return done();
    if (req.headers.origin !== undefined) {
      reply.code(403).header('connection', 'close').send({ error: 'cross-origin requests are refused' });
      return;
    }
    const tenant = deps.tenants.authenticate(req.headers.authorization);
    if (!tenant) {
      metrics.requests.inc(['(unauthenticated)', 'unauthorized']);
      reply
        .code(401)
        .header('connection', 'close')
        .header('www-authenticate', 'Bearer')
        .send({ error: 'missing or wrong bearer token' });
      return;
    }
    req.tenant = tenant;
    done();
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.get(HEALTH_PATH, async (_req, reply) => reply.type('text/plain').send('ok\n'));
  // A down Redis does not make the replica unready (it renders without the shared cache): detail only.
  const redisDetail = (): string =>
    deps.fleet
      ? deps.fleet.state === 'up'
        ? 'redis: up\n'
        : 'redis: down (rendering without the shared cache)\n'
      : '';
  app.get(REMOTE_READY_PATH, async (_req, reply) =>
    service.draining
      ? reply
          .code(503)
          .type('text/plain')
          .send('draining\n' + redisDetail())
      : reply.type('text/plain').send('ok\n' + redisDetail()),
  );
  app.get(METRICS_PATH, async (_req, reply) => {
    const cache = deps.results.stats();
    return reply.type('text/plain; version=0.0.4').send(
      metrics.render({
        inFlight: deps.admission.inFlight,
        queued: deps.admission.waiting,
        cacheEntries: cache.entries,
        cacheBytes: cache.bytes,
        draining: service.draining,
        ...(deps.fleet
          ? {
              redis: {
                up: deps.fleet.state === 'up',
                pulledBytes: deps.fleet.blobs.stats.pulledBytes,
                rejectedBlobs: deps.fleet.blobs.stats.rejected,
              },
            }
          : {}),
      }),
    );
  });

  app.post(RPC_PATH, async (req, reply) => {
    const tenant = req.tenant!;
    reply.type('application/json');
    let msg: unknown;
    try {
      msg = JSON.parse(typeof req.body === 'string' ? req.body : '');
    } catch {
      return reply.send(rpcError(null, ErrorCodes.ParseError, 'Parse error: the body is not JSON'));
    }
    if (!isPlainObject(msg) || msg.jsonrpc !== '2.0' || typeof msg.method !== 'string')
      return reply.send(
        rpcError(null, ErrorCodes.InvalidRequest, 'not a JSON-RPC 2.0 request (batches are not accepted)'),
      );
    const id = msg.id;
    const outcome = (name: string): void => metrics.requests.inc([tenant.name, name]);
    try {
      let result: unknown;
      switch (msg.method) {
        case RemoteMethods.missing:
          result = await service.missing(tenant, validateRemoteMissing(msg.params).digests);
          break;
        case RemoteMethods.upload:
          result = await service.upload(tenant, validateRemoteUpload(msg.params));
          break;
        case RemoteMethods.render: {
          const params = validateRemoteRender(msg.params);
          const gone = new AbortController();
          const onClose = (): void => {
            if (!reply.raw.writableFinished) gone.abort();
          };
          reply.raw.once('close', onClose);
          let rendered;
          try {
            rendered = await service.render(tenant, params, gone.signal);
          } finally {
            reply.raw.off('close', onClose);
          }
          outcome(rendered.cached ? 'cached' : rendered.exitCode === 0 ? 'ok' : 'render_error');
          result = {
            ...rendered,
            stdout: redactor.output(rendered.stdout),
            stderr: redactor.errorText(rendered.stderr),
          };
          break;
        }
        default:
          return reply.send(rpcError(id, ErrorCodes.MethodNotFound, `method not found: ${msg.method.slice(0, 64)}`));
      }
      return reply.send(rpcResult(id, result));
    } catch (err) {
      if (err instanceof ParamsError) {
        outcome('invalid');
        return reply.send(rpcError(id, ErrorCodes.InvalidParams, err.message, { field: err.field }));
      }
      if (err instanceof RemoteError) {
        if (msg.method === RemoteMethods.render) outcome(outcomeName(err.code));
        return reply.send(rpcError(id, err.code, err.message, err.data));
      }
      outcome('internal');
      logger.error({ err, tenant: tenant.name, method: msg.method }, 'internal error in a remote request');
      return reply.send(rpcError(id, ErrorCodes.InternalError, 'internal error in the render service (logged)'));
    }
  });
  return app;
}

function outcomeName(code: number): string {
  switch (code) {
    case RemoteErrorCodes.Busy:
      return 'busy';
    case RemoteErrorCodes.LimitExceeded:
      return 'limit';
    case RemoteErrorCodes.MissingBlobs:
      return 'missing_blobs';
    case RemoteErrorCodes.Backoff:
      return 'backoff';
    case RemoteErrorCodes.Draining:
      return 'draining';
    case ErrorCodes.RequestCancelled:
      return 'cancelled';
    default:
      return 'refused';
  }
}
