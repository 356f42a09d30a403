/**
 * A small Kubernetes REST client on undici: JSON in and out, TLS, proxy
 * (http-proxy.ts) and credentials from a ResolvedConnection, Status bodies
 * turned into KubeApiError. Invariants: one keep-alive dispatcher per client;
 * a 401 with an exec plugin refreshes the credential once and retries;
 * network failures become KUBE_UNREACHABLE naming the server but not its
 * credentials.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { request, type Dispatcher } from 'undici';
import { isJsonObject, type JsonValue } from '../lang/common/json.js';
import type { ResolvedConnection } from './connection.js';
import { KubeApiError, KubeError } from './errors.js';
import { runExecPlugin, type ExecCredential, type ExecOutput } from './exec-credential.js';
import { clusterDispatcher } from './http-proxy.js';
import { OidcTokenSource } from './oidc-auth.js';
import type { FileReader } from './kubeconfig.js';
import { rateLimits, type LimiterClock, type RateLimits } from './rate-limiter.js';

const gunzipAsync = promisify(gunzip);

export interface RequestOptions {
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: JsonValue;
  readonly contentType?: string;
  /** A discovery request (/api, /apis, /openapi/v2): client-go's discovery client has its own bucket. */
  readonly discovery?: boolean;
}

export interface KubeClientOptions {
  readonly timeoutMs?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly files?: FileReader;
  readonly now?: () => number;
  /** Where an exec credential plugin's stderr goes (its login prompts): the user's terminal. */
  readonly execStderr?: ExecOutput;
  /** kubecfg's --qps-limit: 0 or unset is client-go's 5 QPS, negative disables (rate-limiter.ts). */
  readonly qps?: number;
  /** The rate limiter's clock (tests). */
  readonly limiterClock?: LimiterClock;
}

export class KubeClient {
  private agent: Dispatcher;
  private execCredential: ExecCredential | undefined;
  private oidc: OidcTokenSource | undefined;
  /** Set after a 401: the next OIDC token is refreshed even if its `exp` says it is valid. */
  private forceOidcRefresh = false;
  private readonly base: URL;
  private readonly limits: RateLimits;

  constructor(
    readonly connection: ResolvedConnection,
    private readonly options: KubeClientOptions = {},
  ) {
    this.base = new URL(connection.server);
    this.agent = this.makeAgent(undefined);
    this.limits = rateLimits(options.qps, options.limiterClock);
  }

  /** Sends one request; resolves with the parsed JSON body of a 2xx answer. */
  async request(method: string, path: string, opts: RequestOptions = {}): Promise<JsonValue> {
    const first = await this.send(method, path, opts);
    if (first.status === 401 && (this.connection.auth.kind === 'exec' || this.connection.auth.kind === 'oidc')) {
      this.execCredential = undefined;
      this.forceOidcRefresh = true;
      return this.finish(method, path, await this.send(method, path, opts));
    }
    return this.finish(method, path, first);
  }

  close(): void {
    void this.agent.destroy().catch(() => undefined);
  }

  private finish(method: string, path: string, res: { status: number; text: string }): JsonValue {
    let body: JsonValue | undefined;
    try {
      body = res.text === '' ? null : (JSON.parse(res.text) as JsonValue);
    } catch {
      body = undefined;
    }
    if (res.status >= 200 && res.status < 300) {
      if (body === undefined)
        throw new KubeError(
          'KUBE_API',
          `${method} ${path}: the server answered ${res.status} with a body that is not JSON`,
        );
      return body;
    }
    if (body !== undefined && isJsonObject(body) && body['kind'] === 'Status') {
      const reason = typeof body['reason'] === 'string' ? body['reason'] : '';
      const message = typeof body['message'] === 'string' ? body['message'] : `HTTP ${res.status}`;
      throw new KubeApiError(res.status, reason, message);
    }
    throw new KubeApiError(
      res.status,
      statusReason(res.status),
      `${method} ${path}: the server answered HTTP ${res.status}`,
    );
  }

  private async send(method: string, path: string, opts: RequestOptions): Promise<{ status: number; text: string }> {
    // As client-go, every attempt (a 401 retry too) waits for a token before it is sent.
    await (opts.discovery === true ? this.limits.discovery : this.limits.requests)?.take();
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'kubecfg-ts' };
    // Go's transport asks for gzip (and decodes it) unless DisableCompression is set.
    const gzip = this.connection.disableCompression !== true;
    if (gzip) headers['accept-encoding'] = 'gzip';
    await this.authorize(headers);
    const sent: Record<string, string | string[]> = headers;
    this.impersonate(sent);
    const url = new URL(this.base.pathname.replace(/\/$/, '') + path, this.base);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.append(k, v);
    let payload: Buffer | undefined;
    if (opts.body !== undefined) {
      payload = Buffer.from(JSON.stringify(opts.body));
      headers['content-type'] = opts.contentType ?? 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const timeout = this.options.timeoutMs ?? 60_000;
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method,
        headers: sent,
        body: payload,
        dispatcher: this.agent,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (err) {
      throw this.networkError(err as Error);
    }
    let raw: Buffer;
    try {
      raw = Buffer.from(await res.body.arrayBuffer());
    } catch (err) {
      throw this.networkError(err as Error);
    }
    if (gzip && String(res.headers['content-encoding'] ?? '').toLowerCase() === 'gzip') {
      try {
        raw = await gunzipAsync(raw);
      } catch {
        throw new KubeError(
          'KUBE_API',
          `${method} ${path}: the server answered ${res.statusCode} with a gzip body that does not decompress`,
        );
      }
    }
    return { status: res.statusCode, text: raw.toString('utf8') };
  }

  private networkError(err: Error): KubeError {
    // undici wraps the socket error (ECONNREFUSED …) as `cause`; a proxy refusing the tunnel has no code.
    const cause = (err as { cause?: NodeJS.ErrnoException }).cause;
    const code = cause?.code ?? (err as NodeJS.ErrnoException).code;
    return new KubeError(
      'KUBE_UNREACHABLE',
      `cannot reach the API server at ${this.base.protocol}//${this.base.host}: ${code ?? err.message}`,
    );
  }

  private async authorize(headers: Record<string, string>): Promise<void> {
    const auth = this.connection.auth;
    switch (auth.kind) {
      case 'none':
        return;
      case 'token':
        headers['authorization'] = `Bearer ${auth.token}`;
        return;
      case 'tokenFile': {
        // Re-read each time: projected service-account tokens rotate on disk.
        const token = this.options.files?.read(auth.path) ?? readTokenFile(auth.path);
        if (token === undefined) throw new KubeError('KUBE_AUTH', `token file ${auth.path} does not exist`);
        headers['authorization'] = `Bearer ${token.trim()}`;
        return;
      }
      case 'basic':
        headers['authorization'] = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
        return;
      case 'oidc': {
        this.oidc ??= new OidcTokenSource(
          auth.oidc,
          this.options.env ?? process.env,
          this.options.files ?? defaultFiles,
        );
        const force = this.forceOidcRefresh;
        this.forceOidcRefresh = false;
        headers['authorization'] = `Bearer ${await this.oidc.token((this.options.now ?? Date.now)(), force)}`;
        return;
      }
      case 'exec': {
        const now = (this.options.now ?? Date.now)();
        if (
          this.execCredential === undefined ||
          (this.execCredential.expiresAt !== undefined && this.execCredential.expiresAt <= now)
        ) {
          this.execCredential = await runExecPlugin(
            auth.exec,
            auth.clusterServer,
            this.options.env ?? process.env,
            this.options.execStderr,
          );
          if (this.execCredential.clientCertificateData !== undefined) {
            void this.agent.destroy().catch(() => undefined);
            this.agent = this.makeAgent(this.execCredential);
          }
        }
        if (this.execCredential.token !== undefined) headers['authorization'] = `Bearer ${this.execCredential.token}`;
        return;
      }
    }
  }

  /** Impersonate-User, and one Impersonate-Group header per group (node sends an array as repeated headers). */
  private impersonate(headers: Record<string, string | string[]>): void {
    const imp = this.connection.impersonate;
    if (imp === undefined) return;
    headers['impersonate-user'] = imp.user;
    if (imp.groups.length > 0) headers['impersonate-group'] = [...imp.groups];
    if (imp.uid !== undefined) headers['impersonate-uid'] = imp.uid;
    for (const [key, values] of imp.extra ?? [])
      if (values.length > 0) headers[`impersonate-extra-${escapeExtraKey(key)}`] = [...values];
  }

  private makeAgent(cred: ExecCredential | undefined): Dispatcher {
    const c = this.connection;
    const tls: ConnectionOptions = {
      ...(c.ca !== undefined ? { ca: c.ca } : {}),
      ...((cred?.clientCertificateData ?? c.clientCert) !== undefined
        ? { cert: cred?.clientCertificateData ?? c.clientCert }
        : {}),
      ...((cred?.clientKeyData ?? c.clientKey) !== undefined ? { key: cred?.clientKeyData ?? c.clientKey } : {}),
      rejectUnauthorized: !c.insecureSkipTlsVerify,
      ...(c.tlsServerName !== undefined ? { servername: c.tlsServerName } : {}),
    };
    return clusterDispatcher(this.base, tls, this.options.env ?? process.env, c.proxyUrl);
  }
}

const defaultFiles: FileReader = { read: readTokenFile };

function readTokenFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function statusReason(code: number): string {
  return (
    (
      {
        401: 'Unauthorized',
        403: 'Forbidden',
        404: 'NotFound',
        405: 'MethodNotAllowed',
        409: 'Conflict',
        422: 'Invalid',
        429: 'TooManyRequests',
      } as Record<number, string>
    )[code] ?? 'Unknown'
  );
}

/**
 * An extra key as a header-name suffix, as client-go writes it: bytes that are
 * not HTTP token characters, and '%', become %XX (the API server unescapes them).
 */
export function escapeExtraKey(key: string): string {
  let out = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /^[A-Za-z0-9!#$&'*+\-.^_`|~]$/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
