// Registry authentication: parses WWW-Authenticate challenges, answers Basic challenges with the
// registry's credentials, and runs the Bearer token flow of the distribution spec (GET realm with
// service+scope, basic auth if we have a password; POST grant_type=refresh_token when we have an
// identity token). Tokens are cached per registry+scope until expiry (clock injected).
// Invariants: credentials go only to the registry they belong to and to the token realm it names,
// never over plain http unless the registry itself is insecure; no token or password appears in
// an error message.
import { OciError } from './errors.js';
import type { CredentialSource, RegistryCredential } from './docker-config.js';
import type { HttpTransport } from './http-transport.js';

export interface Challenge {
  scheme: string; // lower-case: "basic", "bearer"
  params: Record<string, string>;
}

/** Parses `Bearer realm="...",service="...",scope="..."` (several challenges may be comma-joined). */
export function parseChallenges(header: string): Challenge[] {
  const out: Challenge[] = [];
  let i = 0;
  const skip = (chars: string): void => {
    while (i < header.length && chars.includes(header[i]!)) i++;
  };
  const readToken = (): string => {
    const start = i;
    while (i < header.length && /[A-Za-z0-9!#$%&'*+.^_`|~-]/.test(header[i]!)) i++;
    return header.slice(start, i);
  };
  let current: Challenge | undefined;
  while (i < header.length) {
    skip(' \t,');
    const name = readToken();
    if (name === '') break;
    skip(' \t');
    if (header[i] === '=' && current !== undefined) {
      i++;
      skip(' \t');
      let value = '';
      if (header[i] === '"') {
        i++;
        while (i < header.length && header[i] !== '"') {
          if (header[i] === '\\' && i + 1 < header.length) i++;
          value += header[i];
          i++;
        }
        i++;
      } else {
        value = readToken();
      }
      current.params[name.toLowerCase()] = value;
    } else {
      current = { scheme: name.toLowerCase(), params: {} };
      out.push(current);
    }
  }
  return out;
}

interface CachedToken {
  header: string;
  expiresAt: number;
}

export interface AuthenticatorOptions {
  credentials?: CredentialSource;
  transport: HttpTransport;
  now: () => number;
  timeoutMs: number;
  isInsecure: (registry: string) => boolean;
}

const MAX_TOKEN_RESPONSE = 256 * 1024;

export class Authenticator {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly basic = new Map<string, string>();
  private readonly credentialCache = new Map<string, Promise<RegistryCredential | undefined>>();

  constructor(private readonly opts: AuthenticatorOptions) {}

  /** The Authorization header to try first for this registry and scope, if we learned one. */
  cachedAuthorization(registry: string, scope: string): string | undefined {
    const token = this.tokens.get(`${registry} ${scope}`);
    if (token !== undefined && token.expiresAt > this.opts.now()) return token.header;
    return this.basic.get(registry);
  }

  /** Drops what we learned for a registry after it rejected it. */
  forget(registry: string, scope: string): void {
    this.tokens.delete(`${registry} ${scope}`);
    this.basic.delete(registry);
  }

  /**
   * Answers a 401 challenge. Returns the Authorization header to retry with, or throws
   * OCI_UNAUTHORIZED when we have nothing that could satisfy it.
   */
  async answer(registry: string, scope: string, wwwAuthenticate: string | undefined, what: string): Promise<string> {
    const challenges = parseChallenges(wwwAuthenticate ?? '');
    const bearer = challenges.find((c) => c.scheme === 'bearer');
    const cred = await this.credentialsFor(registry);
    if (bearer !== undefined) return this.fetchToken(registry, scope, bearer, cred, what);
    if (challenges.some((c) => c.scheme === 'basic')) {
      if (cred?.username === undefined || cred.password === undefined) {
        throw new OciError(
          'OCI_UNAUTHORIZED',
          `${what}: ${registry} requires a username and password and none is configured for it (docker login ${registry})`,
          { status: 401 },
        );
      }
      const header = basicHeader(cred.username, cred.password);
      this.basic.set(registry, header);
      return header;
    }
    throw new OciError('OCI_UNAUTHORIZED', `${what}: ${registry} answered 401 without a Basic or Bearer challenge`, {
      status: 401,
    });
  }

  private credentialsFor(registry: string): Promise<RegistryCredential | undefined> {
    const source = this.opts.credentials;
    if (source === undefined) return Promise.resolve(undefined);
    let p = this.credentialCache.get(registry);
    if (p === undefined) {
      p = source.get(registry);
      this.credentialCache.set(registry, p);
      // A failed lookup (helper timed out...) is retried next time rather than remembered.
      p.catch(() => this.credentialCache.delete(registry));
    }
    return p;
  }

  private async fetchToken(
    registry: string,
    scope: string,
    challenge: Challenge,
    cred: RegistryCredential | undefined,
    what: string,
  ): Promise<string> {
    if (cred?.registryToken !== undefined) return `Bearer ${cred.registryToken}`;
    const realmText = challenge.params['realm'];
    if (realmText === undefined)
      throw new OciError('OCI_UNAUTHORIZED', `${what}: Bearer challenge from ${registry} has no realm`, {
        status: 401,
      });
    let realm: URL;
    try {
      realm = new URL(realmText);
    } catch {
      throw new OciError('OCI_UNAUTHORIZED', `${what}: Bearer realm from ${registry} is not a URL`, { status: 401 });
    }
    if (realm.protocol !== 'https:' && !(realm.protocol === 'http:' && this.opts.isInsecure(registry))) {
      throw new OciError(
        'OCI_UNAUTHORIZED',
        `${what}: refusing token realm ${realm.protocol}//${realm.host} (not https) for ${registry}`,
        { status: 401 },
      );
    }
    const service = challenge.params['service'];
    // Ours plus whatever the registry asked for (it may name scopes we did not think of).
    const wantedScope = [
      ...new Set(`${scope} ${challenge.params['scope'] ?? ''}`.split(' ').filter((x) => x !== '')),
    ].join(' ');
    let res;
    if (cred?.identityToken !== undefined) {
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: cred.identityToken,
        client_id: 'kubecfg',
      });
      if (service !== undefined) form.set('service', service);
      if (wantedScope !== '') form.set('scope', wantedScope);
      res = await this.opts.transport.send({
        method: 'POST',
        url: realm,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new TextEncoder().encode(form.toString()),
        maxBytes: MAX_TOKEN_RESPONSE,
        timeoutMs: this.opts.timeoutMs,
        retryable: true,
        followRedirects: false,
        what: `${what} (token from ${realm.host})`,
      });
    } else {
      const url = new URL(realm);
      if (service !== undefined) url.searchParams.set('service', service);
      // The token spec passes several scopes as repeated `scope` parameters.
      for (const one of wantedScope.split(' ')) if (one !== '') url.searchParams.append('scope', one);
      const authorization =
        cred?.username !== undefined && cred.password !== undefined
          ? basicHeader(cred.username, cred.password)
          : undefined;
      res = await this.opts.transport.send({
        method: 'GET',
        url,
        ...(authorization === undefined ? {} : { authorization }),
        maxBytes: MAX_TOKEN_RESPONSE,
        timeoutMs: this.opts.timeoutMs,
        retryable: true,
        followRedirects: true,
        what: `${what} (token from ${realm.host})`,
      });
    }
    if (res.status === 401 || res.status === 403) {
      throw new OciError(
        'OCI_UNAUTHORIZED',
        `${what}: token server ${realm.host} refused ${cred === undefined ? 'anonymous access' : 'the configured credentials'} (HTTP ${res.status})`,
        { status: res.status },
      );
    }
    if (res.status !== 200)
      throw new OciError('OCI_REGISTRY', `${what}: token server ${realm.host} answered HTTP ${res.status}`, {
        status: res.status,
      });
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(res.body));
    } catch {
      throw new OciError(
        'OCI_REGISTRY',
        `${what}: token server ${realm.host} answered with something that is not JSON`,
      );
    }
    const rec = (body ?? {}) as { token?: unknown; access_token?: unknown; expires_in?: unknown };
    const token = typeof rec.token === 'string' && rec.token !== '' ? rec.token : rec.access_token;
    if (typeof token !== 'string' || token === '')
      throw new OciError('OCI_REGISTRY', `${what}: token server ${realm.host} answered without a token`);
    // The spec's default lifetime is 60 s; renew a little early.
    const lifetime = typeof rec.expires_in === 'number' && rec.expires_in > 0 ? rec.expires_in : 60;
    const header = `Bearer ${token}`;
    this.tokens.set(`${registry} ${scope}`, { header, expiresAt: this.opts.now() + Math.max(1, lifetime - 10) * 1000 });
    return header;
  }
}

function basicHeader(username: string, password: string): string {
  return 'Basic ' + Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
}
