/**
 * The daemon's HTTP surface, on the unix socket and (optionally) TCP:
 *   POST /rpc     JSON-RPC 2.0; command methods answer with an NDJSON stream
 *   GET /healthz  "ok"
 *   GET /metrics  Prometheus text
 * Bodies are taken as raw strings so malformed JSON gets JSON-RPC's -32700,
 * not a framework 400. On TCP every request must carry the bearer token and
 * no Origin header (browsers send one: CSRF); both are checked in onRequest,
 * before any body is read or parsed (hazard 30).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { createJSONRPCErrorResponse, JSONRPCErrorException, type JSONRPCRequest } from 'json-rpc-2.0';
import {
  ErrorCodes,
  FRAMED_CONTENT_TYPE,
  HEALTH_PATH,
  isPlainObject,
  METRICS_PATH,
  ParamsError,
  RPC_PATH,
  STDOUT_PIPE_HEADER,
  type CommandParams,
} from '../protocol/index.js';
import type { DaemonContext } from './daemon-context.js';
import { clientSkew } from './handlers/hello.js';
import { createRpcServer, STREAMING } from './rpc/router.js';
import { badIdResponse, hasBadId } from './rpc/request-id.js';
import { errorLine, serveStream } from './rpc/stream.js';
import { parseStdoutPipe } from './rpc/direct-stdout.js';
import { bearerMatches } from './tcp-token.js';
import { IdleCollector } from './idle-gc.js';

const BODY_LIMIT_BYTES = 32 * 1024 * 1024;

export function createHttpApp(ctx: DaemonContext, auth: { token: string } | null): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    forceCloseConnections: true,
    return503OnClosing: true,
  });
  const rpc = createRpcServer();
  rpc.mapErrorToJSONRPCErrorResponse = (id, error: unknown) => {
    if (error instanceof JSONRPCErrorException)
      return createJSONRPCErrorResponse(id, error.code, error.message, error.data);
    ctx.logger.error({ err: error }, 'internal error in a JSON-RPC method');
    return createJSONRPCErrorResponse(
      id,
      ErrorCodes.InternalError,
      `internal error: ${(error as Error)?.message ?? String(error)}`,
    );
  };

  if (auth) {
    app.addHook('onRequest', (req, reply, done) => {
      if (req.headers.origin !== undefined) {
        reply.code(403).header('connection', 'close').send({ error: 'cross-origin requests are refused' });
        return;
      }
      if (!bearerMatches(req.headers.authorization, auth.token)) {
        reply
          .code(401)
          .header('connection', 'close')
          .header('www-authenticate', 'Bearer')
          .send({ error: 'missing or wrong bearer token' });
        return;
      }
      done();
    });
  }

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.get(HEALTH_PATH, async (_req, reply) => reply.type('text/plain').send('ok\n'));
  app.get(METRICS_PATH, async (_req, reply) => {
    const cache = ctx.cache.stats();
    const text = ctx.metrics.render({
      cache: { hits: cache.hits, misses: cache.misses, bytes: cache.bytes, entries: cache.entries },
      watchedFiles: ctx.watcher.status().watchedFiles,
      workersReplaced: ctx.pool.replaced,
      inFlight: ctx.inFlight.size,
    });
    return reply.type('text/plain; version=0.0.4').send(text);
  });

  // The main thread keeps a render's output and its IPC copy as garbage until V8 collects: do it once idle.
  const idleGc = new IdleCollector({ shrinkAfterMs: 250 });
  const settled = (): void => {
    if (ctx.inFlight.size === 0) idleGc.idle();
  };
  app.post(RPC_PATH, async (req, reply) => {
    const started = performance.now();
    idleGc.busy();
    ctx.touch();
    const seconds = (): number => (performance.now() - started) / 1000;
    const text = typeof req.body === 'string' ? req.body : '';
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (err) {
      ctx.metrics.observe('(unparsed)', 'error', seconds());
      return reply
        .type('application/json')
        .send(errorLine(null, ErrorCodes.ParseError, `Parse error: ${(err as Error).message}`));
    }
    const method = isPlainObject(msg) && typeof msg.method === 'string' ? msg.method : '(invalid)';
    if (hasBadId(msg)) {
      ctx.metrics.observe(method, 'error', seconds());
      return reply.type('application/json').send(JSON.stringify(badIdResponse()));
    }
    const refused = Array.isArray(msg) ? msg.filter(hasBadId).map(badIdResponse) : [];
    if (refused.length) {
      msg = (msg as unknown[]).filter((m) => !hasBadId(m));
      if ((msg as unknown[]).length === 0) {
        ctx.metrics.observe(method, 'error', seconds());
        return reply.type('application/json').send(JSON.stringify(refused));
      }
    }
    const streaming = STREAMING.get(method);
    const id = isPlainObject(msg) && (typeof msg.id === 'string' || typeof msg.id === 'number') ? msg.id : undefined;
    if (streaming && isPlainObject(msg) && msg.jsonrpc === '2.0' && id !== undefined) {
      let params: CommandParams;
      try {
        params = streaming.descriptor.validate(msg.params);
      } catch (err) {
        if (!(err instanceof ParamsError)) throw err;
        ctx.metrics.observe(method, 'error', seconds());
        return reply
          .type('application/json')
          .send(errorLine(id, ErrorCodes.InvalidParams, err.message, { field: err.field }));
      }
      const skew = clientSkew(ctx, params.client);
      if (skew) {
        ctx.metrics.observe(method, 'error', seconds());
        return reply.type('application/json').send(errorLine(id, ErrorCodes.VersionMismatch, skew.message, skew.data));
      }
      reply.hijack();
      const res = reply.raw;
      const framed = (req.headers.accept ?? '').includes(FRAMED_CONTENT_TYPE);
      // Only on the per-user unix socket (its directory is the trust boundary; server/rpc/direct-stdout.ts).
      const stdoutPipe = framed && auth === null ? parseStdoutPipe(req.headers[STDOUT_PIPE_HEADER]) : undefined;
      const outcome = await serveStream(
        ctx,
        method,
        id,
        params,
        streaming.handler,
        res,
        (listener) => res.on('close', listener),
        framed,
        stdoutPipe,
      );
      ctx.metrics.observe(method, outcome, seconds());
      ctx.touch();
      settled();
      return;
    }
    const received = await rpc.receive(msg as JSONRPCRequest, ctx);
    const response = refused.length
      ? [...refused, ...(Array.isArray(received) ? received : received ? [received] : [])]
      : received;
    const failed = response !== null && !Array.isArray(response) && 'error' in response && response.error !== undefined;
    ctx.metrics.observe(method, failed ? 'error' : 'ok', seconds());
    ctx.inFlight.countServed();
    ctx.touch();
    settled();
    if (response === null || (Array.isArray(response) && response.length === 0)) return reply.code(204).send();
    return reply.type('application/json').send(JSON.stringify(response));
  });
  return app;
}
