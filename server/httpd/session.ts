/**
 * `kubecfg httpd FILE...` in the daemon: checks every hook file (each must
 * have a top-level function with a `request` parameter), then serves
 * `POST /<file without .jsonnet>` until the client's streaming request ends
 * (Ctrl-C sends request/cancel; a hang-up cancels too; both close the
 * listener). Log lines stream to the client's stderr; the first one names
 * the bound address, so `--listen-addr 127.0.0.1:0` is usable.
 *
 * Each POST: the body must be JSON (else 400); it is re-serialized and
 * rendered on the worker pool through the result cache (deps re-validated by
 * digest on every hit, so an edited file or import takes effect on the next
 * request), with a deadline (--timeout; 504 past it). An evaluation error is
 * a 500 whose body is the located Jsonnet error, also logged. Other paths:
 * 404; other methods on a hook: 405; GET /healthz, GET /metrics.
 */
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';
import { HEALTH_PATH, METRICS_PATH, type CommandParams, type CommandResult } from '../../protocol/index.js';
import type { CommandRunner, OutputSink } from '../command-runner.js';
import { logLine, logStyle, type LogLevel, type LogStyle } from '../commands/output.js';
import { OptionsError, parseDuration } from '../options.js';
import { JobCancelledError, WorkerCrashedError } from '../worker/pool.js';
import { HTTPD_REQUEST_FLAG } from '../commands/httpd-hook.js';
import { HttpdMetrics } from './httpd-metrics.js';
import { ListenAddressError, parseListenAddress, type ListenAddress } from './listen-address.js';
import { RouteError, routeTable } from './routes.js';

export const HTTPD_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

/** kubecfg's log layout (logLine), on the client's stderr. */
function logger(sink: OutputSink, style: LogStyle): (level: LogLevel, message: string) => void {
  return (level, message) => sink.write('stderr', logLine(style, level, message));
}

class UsageError extends Error {}

function listenAddressOf(params: CommandParams): ListenAddress {
  const given = (name: string): string | undefined =>
    typeof params.flags[name] === 'string' ? params.flags[name] : undefined;
  if (given('listen') !== undefined && given('listen-addr') !== undefined)
    throw new UsageError('give --listen-addr or --listen, not both');
  return parseListenAddress(given('listen') ?? given('listen-addr') ?? ':8080');
}

function timeoutOf(params: CommandParams): number {
  const text = typeof params.flags.timeout === 'string' ? params.flags.timeout : '30s';
  try {
    return parseDuration(text);
  } catch (err) {
    throw new UsageError(`--timeout: ${(err as OptionsError).message}`);
  }
}

function hostPort(addr: AddressInfo): string {
  return addr.family === 'IPv6' ? `[${addr.address}]:${addr.port}` : `${addr.address}:${addr.port}`;
}

/** Go's http.Error: the message and a newline, as text. */
function textReply(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .send(text.endsWith('\n') ? text : text + '\n');
}

export async function runHttpd(
  runner: CommandRunner,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  const log = logger(sink, logStyle(params.tty));
  let routes: Map<string, string>;
  let address: ListenAddress;
  let timeoutMs: number;
  const fail = (message: string): CommandResult => {
    log('ERROR', message);
    return { exitCode: 1, cached: false };
  };

  // Start-up: every file checked on the worker pool (gate, parse, top-level function).
  let failed = false;
  for (const file of params.args) {
    const { output } = await runner.renderOnce('httpd', { ...params, args: [file] }, signal);
    if (output.exitCode !== 0) {
      failed = true;
      log('ERROR', output.stderr);
    }
  }
  if (failed) return { exitCode: 1, cached: false };
  try {
    routes = routeTable(params.args);
    address = listenAddressOf(params);
    timeoutMs = timeoutOf(params);
  } catch (err) {
    if (err instanceof RouteError || err instanceof ListenAddressError || err instanceof UsageError)
      return fail(err.message);
    throw err;
  }

  const metrics = new HttpdMetrics(new Set(routes.keys()));
  let served = 0;
  const app = Fastify({ logger: false, bodyLimit: HTTPD_BODY_LIMIT_BYTES, forceCloseConnections: true });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  // Fastify's own 400/413 answers (e.g. a body over the limit) count and log like ours.
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    metrics.observe(pathOf(req), status, 0);
    log('ERROR', `${req.method} ${pathOf(req)} ${status}: ${err.message}`);
    return textReply(reply, status, err.message);
  });

  const hook = async (req: FastifyRequest, reply: FastifyReply, route: string, file: string): Promise<FastifyReply> => {
    const started = performance.now();
    const done = (status: number, note = ''): void => {
      const seconds = (performance.now() - started) / 1000;
      metrics.observe(route, status, seconds);
      log(status < 400 ? 'INFO' : 'ERROR', `POST ${route} ${status} ${Math.round(seconds * 1000)}ms${note}`);
    };
    const body = typeof req.body === 'string' ? req.body : '';
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch (err) {
      done(400, `: the body is not JSON (${(err as Error).message})`);
      return textReply(reply, 400, `malformed JSON request body: ${(err as Error).message}`);
    }
    const deadline = timeoutMs > 0 ? [AbortSignal.timeout(timeoutMs)] : [];
    const requestSignal = AbortSignal.any([signal, ...deadline]);
    const job: CommandParams = {
      ...params,
      requestId: `${params.requestId}/${++served}`,
      args: [file],
      flags: { ...params.flags, [HTTPD_REQUEST_FLAG]: JSON.stringify(request) },
    };
    try {
      const { output, cached } = await runner.renderOnce('httpd', job, requestSignal);
      // std.trace lines and warnings of the evaluation go to the log as they are.
      if (output.exitCode === 0 && output.stderr !== '') sink.write('stderr', output.stderr);
      if (output.exitCode !== 0) {
        done(500, `\n${output.stderr}`);
        return textReply(reply, 500, output.stderr);
      }
      done(200, cached ? ' (cached)' : '');
      // A Buffer, so the type stays exactly kubecfg's `application/json` (fastify adds a charset to strings).
      return reply.code(200).header('content-type', 'application/json').send(Buffer.from(output.stdout));
    } catch (err) {
      if (err instanceof JobCancelledError && !signal.aborted) {
        const why = `evaluating ${file} took longer than --timeout ${timeoutMs}ms`;
        done(504, `: ${why}`);
        return textReply(reply, 504, why);
      }
      if (err instanceof JobCancelledError) {
        done(503, ': the server is stopping');
        return textReply(reply, 503, 'the server is stopping');
      }
      const why = err instanceof WorkerCrashedError ? err.message : `internal error: ${(err as Error).message}`;
      done(500, `: ${why}`);
      return textReply(reply, 500, why);
    }
  };

  app.all('/*', async (req, reply) => {
    const path = pathOf(req);
    const file = routes.get(path);
    if (file !== undefined) {
      if (req.method !== 'POST') {
        metrics.observe(path, 405, 0);
        return textReply(reply.header('allow', 'POST'), 405, 'Method not allowed');
      }
      return hook(req, reply, path, file);
    }
    if (path === HEALTH_PATH) {
      metrics.observe(path, 200, 0);
      return textReply(reply, 200, 'ok');
    }
    if (path === METRICS_PATH) {
      metrics.observe(path, 200, 0);
      return reply.code(200).header('content-type', 'text/plain; version=0.0.4').send(metrics.render());
    }
    metrics.observe(path, 404, 0);
    return textReply(reply, 404, '404 page not found');
  });

  try {
    await app.listen({ host: address.host, port: address.port });
  } catch (err) {
    // Every interface without IPv6 on the machine: IPv4 only, as Go falls back.
    const noV6 = address.host === '::' && /EAFNOSUPPORT|EADDRNOTAVAIL/.test((err as Error).message);
    try {
      if (!noV6) throw err;
      await app.listen({ host: '0.0.0.0', port: address.port });
    } catch (err2) {
      await app.close();
      return fail(`cannot listen on ${address.host}:${address.port}: ${(err2 as Error).message}`);
    }
  }
  log('INFO', `Listening on ${hostPort(app.server.address() as AddressInfo)}`);
  for (const [route, file] of routes) log('INFO', `POST ${route} calls the top-level function of ${file}`);

  try {
    await new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await app.close();
  }
  throw new JobCancelledError();
}

/** The request's path, %-decoded as Go's URL.Path is (routes are matched on it). */
function pathOf(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  const raw = q < 0 ? req.url : req.url.slice(0, q);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
