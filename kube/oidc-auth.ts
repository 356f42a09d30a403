/**
 * The kubeconfig `auth-provider: oidc` as client-go runs it: the id-token is
 * sent while it is valid; when it has expired (its JWT `exp`), or the server
 * answered 401, the refresh-token is exchanged at the issuer's token endpoint
 * (found through `<idp-issuer-url>/.well-known/openid-configuration`) for a
 * new id-token. The issuer is trusted through `idp-certificate-authority` /
 * `-data` when given, and reached through the client's proxy settings.
 * Invariants: no token, secret or response body ever appears in an error;
 * refreshed tokens live in memory for the client's lifetime (client-go also
 * writes them back to the kubeconfig: we do not, see docs/cluster.md).
 */
import { isAbsolute, join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { request, type Dispatcher } from 'undici';
import { KubeError } from './errors.js';
import { clusterDispatcher } from './http-proxy.js';
import type { FileReader } from './kubeconfig.js';

export interface OidcConfig {
  readonly userName: string;
  readonly config: Readonly<Record<string, string>>;
  readonly baseDir: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Seconds since the epoch of a JWT's `exp`, or undefined when it has none or is not a JWT. */
function jwtExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp : undefined;
  } catch {
    return undefined;
  }
}

export class OidcTokenSource {
  private idToken: string | undefined;
  private refreshToken: string | undefined;

  constructor(
    private readonly oidc: OidcConfig,
    private readonly env: Env,
    private readonly files: FileReader,
  ) {
    this.idToken = oidc.config['id-token'] || undefined;
    this.refreshToken = oidc.config['refresh-token'] || undefined;
  }

  /** The id-token to send; refreshed first when it has expired (or `force`, after a 401). */
  async token(nowMs: number, force = false): Promise<string> {
    const exp = this.idToken !== undefined ? jwtExpiry(this.idToken) : undefined;
    const valid = this.idToken !== undefined && !force && (exp === undefined || exp * 1000 > nowMs);
    if (valid) return this.idToken!;
    this.idToken = await this.refresh();
    return this.idToken;
  }

  private fail(why: string): KubeError {
    return new KubeError('KUBE_AUTH', `user "${this.oidc.userName}": oidc auth-provider: ${why}`);
  }

  private async refresh(): Promise<string> {
    const c = this.oidc.config;
    const issuer = c['idp-issuer-url'];
    const clientId = c['client-id'];
    if (this.refreshToken === undefined || !issuer || !clientId)
      throw this.fail(
        'the id-token has expired (or is missing) and no refresh is possible: the config needs refresh-token, idp-issuer-url and client-id',
      );
    const dispatcher = this.dispatcher(new URL(issuer));
    try {
      const discovery = await this.json(
        dispatcher,
        `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
        { method: 'GET' },
        'issuer discovery',
      );
      const endpoint = discovery['token_endpoint'];
      if (typeof endpoint !== 'string' || endpoint === '')
        throw this.fail(`issuer ${issuer} does not name a token_endpoint`);
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: this.refreshToken,
        client_id: clientId,
      });
      if (c['client-secret']) form.set('client_secret', c['client-secret']);
      const answer = await this.json(
        dispatcher,
        endpoint,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form.toString(),
        },
        'token refresh',
      );
      const idToken = answer['id_token'];
      if (typeof idToken !== 'string' || idToken === '')
        throw this.fail('the token endpoint answered without an id_token');
      const refreshed = answer['refresh_token'];
      if (typeof refreshed === 'string' && refreshed !== '') this.refreshToken = refreshed;
      return idToken;
    } finally {
      void dispatcher.close().catch(() => undefined);
    }
  }

  private async json(
    dispatcher: Dispatcher,
    url: string,
    opts: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
    what: string,
  ): Promise<Record<string, unknown>> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, { ...opts, dispatcher, headersTimeout: 30_000, bodyTimeout: 30_000 });
    } catch (err) {
      const cause = (err as { cause?: NodeJS.ErrnoException }).cause;
      throw this.fail(
        `${what} at ${new URL(url).origin} failed: ${cause?.code ?? (err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    const text = await res.body.text().catch(() => '');
    if (res.statusCode !== 200) throw this.fail(`${what} at ${new URL(url).origin} answered HTTP ${res.statusCode}`);
    try {
      const value: unknown = JSON.parse(text);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // reported below
    }
    throw this.fail(`${what} at ${new URL(url).origin} answered with a body that is not a JSON object`);
  }

  private dispatcher(issuer: URL): Dispatcher {
    const c = this.oidc.config;
    let ca: string | undefined;
    if (c['idp-certificate-authority-data']) ca = Buffer.from(c['idp-certificate-authority-data'], 'base64').toString();
    else if (c['idp-certificate-authority']) {
      const path = c['idp-certificate-authority'];
      const full = isAbsolute(path) ? path : join(this.oidc.baseDir, path);
      ca = this.files.read(full);
      if (ca === undefined) throw this.fail(`idp-certificate-authority file ${full} does not exist`);
    }
    return clusterDispatcher(issuer, ca !== undefined ? { ca: [...rootCertificates, ca] } : {}, this.env, undefined);
  }
}
