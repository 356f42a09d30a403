/**
 * Turns kubectl-style flags (--kubeconfig, --context, --cluster, --user,
 * -n, --server, --token, --insecure-skip-tls-verify, --certificate-authority,
 * --client-certificate, --client-key, --tls-server-name, --as, --as-group)
 * plus the environment into one resolved connection, or the in-cluster
 * service-account connection when no kubeconfig exists. Invariants: flags
 * override the kubeconfig exactly where kubectl's do (--insecure-skip-tls-verify
 * drops the CA and cannot be combined with --certificate-authority, --token
 * replaces other user credentials, the TLS file flags replace the
 * kubeconfig's data and files; --as and --as-group replace the kubeconfig
 * user's `as` and `as-groups`, its `as-uid` and `as-user-extra` are kept, as
 * client-go merges them; groups, uid or extra need a user); `identity` keys caches
 * per cluster+user+impersonation and holds no secret.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeError } from './errors.js';
import type { OidcConfig } from './oidc-auth.js';
import {
  kubeconfigFiles,
  loadKubeconfig,
  type ExecConfig,
  type FileReader,
  type KubeconfigUser,
} from './kubeconfig.js';

export interface ConnectionFlags {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly cluster?: string;
  readonly user?: string;
  readonly namespace?: string;
  readonly server?: string;
  readonly token?: string;
  readonly insecureSkipTlsVerify?: boolean;
  /** --certificate-authority: CA file replacing the cluster's. */
  readonly certificateAuthority?: string;
  /** --client-certificate / --client-key: files replacing the user's. */
  readonly clientCertificate?: string;
  readonly clientKey?: string;
  /** --tls-server-name: name checked against the server's certificate. */
  readonly tlsServerName?: string;
  /** --as: user to impersonate. */
  readonly as?: string;
  /** --as-group: groups to impersonate (needs `as`). */
  readonly asGroups?: readonly string[];
  /** --as-uid: UID to impersonate (needs `as`). */
  readonly asUid?: string;
  /** --username / --password: basic authentication, replacing the kubeconfig user's. */
  readonly username?: string;
  readonly password?: string;
  /** --disable-compression: true turns compression off whatever the cluster's `disable-compression` says. */
  readonly disableCompression?: boolean;
}

/** The Impersonate-User / -Group / -Uid / -Extra-* headers every request carries. */
export interface Impersonation {
  readonly user: string;
  readonly groups: readonly string[];
  readonly uid?: string;
  /** [key, values] pairs: one Impersonate-Extra-KEY header per value. */
  readonly extra?: ReadonlyArray<readonly [string, readonly string[]]>;
}

export interface ConnectionEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home?: string;
  readonly files: FileReader;
  /** Where a pod's service-account token, ca.crt and namespace live. */
  readonly serviceAccountDir: string;
}

export type ClientAuth =
  | { readonly kind: 'none' }
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'tokenFile'; readonly path: string }
  | { readonly kind: 'basic'; readonly username: string; readonly password: string }
  | { readonly kind: 'exec'; readonly exec: ExecConfig; readonly clusterServer: string }
  | { readonly kind: 'oidc'; readonly oidc: OidcConfig };

export interface ResolvedConnection {
  /** API server base URL without trailing slash. */
  readonly server: string;
  /** Namespace for objects that do not set one. */
  readonly namespace: string;
  readonly contextName?: string;
  readonly ca?: Buffer;
  readonly clientCert?: Buffer;
  readonly clientKey?: Buffer;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
  /** The cluster's kubeconfig `proxy-url`; overrides the *_PROXY variables. */
  readonly proxyUrl?: string;
  /** No `Accept-Encoding: gzip` (--disable-compression, or the cluster's `disable-compression`). */
  readonly disableCompression?: boolean;
  readonly impersonate?: Impersonation;
  readonly auth: ClientAuth;
  /** Cache key for discovery and schemas: server URL, context, user name. */
  readonly identity: string;
}

export const nodeFileReader: FileReader = {
  read(path: string): string | undefined {
    try {
      return readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new KubeError('KUBE_CONFIG', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  },
};

export function defaultEnvironment(): ConnectionEnvironment {
  return {
    env: process.env,
    home: homedir(),
    files: nodeFileReader,
    serviceAccountDir: '/var/run/secrets/kubernetes.io/serviceaccount',
  };
}

export function resolveConnection(
  flags: ConnectionFlags,
  environment: ConnectionEnvironment = defaultEnvironment(),
): ResolvedConnection {
  const { files, explicit } = kubeconfigFiles(flags.kubeconfig, environment.env, environment.home, delimiter);
  const config = loadKubeconfig(files, explicit, environment.files);
  const haveConfig = config.files.length > 0 && (config.contexts.size > 0 || config.clusters.size > 0);

  if (!haveConfig && flags.server === undefined && flags.context === undefined) {
    const host = environment.env['KUBERNETES_SERVICE_HOST'];
    const port = environment.env['KUBERNETES_SERVICE_PORT'];
    if (host !== undefined && host !== '' && port !== undefined && port !== '')
      return inCluster(host, port, flags, environment);
    throw new KubeError(
      'KUBE_NO_CONFIG',
      'no configuration has been provided: no kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config) and not running in a cluster',
    );
  }

  const contextName = flags.context ?? config.currentContext;
  const context = contextName !== undefined ? config.contexts.get(contextName) : undefined;
  if (flags.context !== undefined && context === undefined)
    throw new KubeError('KUBE_CONFIG', `context "${flags.context}" does not exist in ${describeFiles(config.files)}`);
  const clusterName = flags.cluster ?? context?.cluster;
  const cluster = clusterName !== undefined ? config.clusters.get(clusterName) : undefined;
  if (clusterName !== undefined && cluster === undefined && flags.server === undefined) {
    throw new KubeError('KUBE_CONFIG', `cluster "${clusterName}" does not exist in ${describeFiles(config.files)}`);
  }
  const userName = flags.user ?? context?.user;
  const user = userName !== undefined && userName !== '' ? config.users.get(userName) : undefined;
  if (flags.user !== undefined && user === undefined)
    throw new KubeError('KUBE_CONFIG', `user "${flags.user}" does not exist in ${describeFiles(config.files)}`);

  const server = (flags.server ?? cluster?.server ?? '').replace(/\/+$/, '');
  if (server === '') {
    throw new KubeError(
      'KUBE_NO_CONFIG',
      contextName === undefined
        ? 'no current context is set and no --server was given'
        : `context "${contextName}": cluster has no server defined`,
    );
  }
  checkServerUrl(server);
  const insecure = flags.insecureSkipTlsVerify ?? cluster?.insecureSkipTlsVerify ?? false;
  if (insecure && given(flags.certificateAuthority))
    throw new KubeError(
      'KUBE_CONFIG',
      'specifying a root certificates file with the insecure flag is not allowed (--certificate-authority with --insecure-skip-tls-verify)',
    );
  const impersonate = impersonationOf(flags, user, userName);
  const fromFlag = (file: string | undefined, what: string): Buffer | undefined => {
    if (!given(file)) return undefined;
    const text = environment.files.read(file);
    if (text === undefined) throw new KubeError('KUBE_CONFIG', `--${what} file ${file} does not exist`);
    return Buffer.from(text);
  };
  const readCredential = (data: string | undefined, file: string | undefined, what: string): Buffer | undefined => {
    if (data !== undefined && data !== '') return Buffer.from(data, 'base64');
    if (file === undefined) return undefined;
    const text = environment.files.read(file);
    if (text === undefined) throw new KubeError('KUBE_CONFIG', `${what} file ${file} does not exist`);
    return Buffer.from(text);
  };

  let auth: ClientAuth = { kind: 'none' };
  if (flags.token !== undefined && flags.token !== '') auth = { kind: 'token', token: flags.token };
  else if (given(flags.username))
    auth = { kind: 'basic', username: flags.username, password: flags.password ?? user?.password ?? '' };
  else if (user?.token !== undefined && user.token !== '') auth = { kind: 'token', token: user.token };
  else if (user?.tokenFile !== undefined) auth = { kind: 'tokenFile', path: user.tokenFile };
  else if (user?.exec !== undefined) auth = { kind: 'exec', exec: user.exec, clusterServer: server };
  else if (user?.username !== undefined)
    auth = { kind: 'basic', username: user.username, password: flags.password ?? user.password ?? '' };
  else if (user?.authProvider === 'oidc')
    auth = {
      kind: 'oidc',
      oidc: {
        userName: userName ?? '',
        config: user.authProviderConfig ?? {},
        baseDir: user.authProviderBaseDir ?? '',
      },
    };
  else if (user?.authProvider !== undefined) {
    // kubectl removed the gcp and azure providers (1.26): their replacements are exec plugins.
    throw new KubeError(
      'KUBE_AUTH',
      `user "${userName}": auth-provider "${user.authProvider}" is not supported; use an exec credential plugin instead (gke-gcloud-auth-plugin, kubelogin)`,
    );
  }
  const replacedByToken = flags.token !== undefined && flags.token !== '';
  const flagCert = fromFlag(flags.clientCertificate, 'client-certificate');
  const flagKey = fromFlag(flags.clientKey, 'client-key');
  const tlsServerName = given(flags.tlsServerName) ? flags.tlsServerName : cluster?.tlsServerName;
  const proxyUrl = cluster?.proxyUrl;
  if (proxyUrl !== undefined) checkProxyUrl(proxyUrl, clusterName ?? '');

  const clientCert =
    flagCert ??
    (replacedByToken
      ? undefined
      : readCredential(user?.clientCertificateData, user?.clientCertificate, 'client-certificate'));
  return {
    server,
    namespace:
      flags.namespace ?? (context?.namespace !== undefined && context.namespace !== '' ? context.namespace : 'default'),
    contextName,
    ca: insecure
      ? undefined
      : (fromFlag(flags.certificateAuthority, 'certificate-authority') ??
        readCredential(cluster?.certificateAuthorityData, cluster?.certificateAuthority, 'certificate-authority')),
    clientCert,
    clientKey:
      flagKey ?? (replacedByToken ? undefined : readCredential(user?.clientKeyData, user?.clientKey, 'client-key')),
    insecureSkipTlsVerify: insecure,
    ...(tlsServerName !== undefined ? { tlsServerName } : {}),
    ...(proxyUrl !== undefined ? { proxyUrl } : {}),
    // clientcmd merges overrides with mergo.WithOverride: a false flag never clears the cluster's true.
    ...(flags.disableCompression === true || cluster?.disableCompression === true ? { disableCompression: true } : {}),
    ...(impersonate !== undefined ? { impersonate } : {}),
    auth,
    identity: `${server}|${contextName ?? ''}|${userName ?? ''}${impersonationKey(impersonate)}|${credentialKey(auth, clientCert)}`,
  };
}

function inCluster(
  host: string,
  port: string,
  flags: ConnectionFlags,
  environment: ConnectionEnvironment,
): ResolvedConnection {
  const dir = environment.serviceAccountDir;
  const ca = environment.files.read(join(dir, 'ca.crt'));
  const ns = environment.files.read(join(dir, 'namespace'))?.trim();
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const insecure = flags.insecureSkipTlsVerify ?? false;
  const impersonate = impersonationOf(flags);
  const auth: ClientAuth =
    flags.token !== undefined && flags.token !== ''
      ? { kind: 'token', token: flags.token }
      : { kind: 'tokenFile', path: join(dir, 'token') };
  return {
    server,
    namespace: flags.namespace ?? (ns !== undefined && ns !== '' ? ns : 'default'),
    ca: ca !== undefined && !insecure ? Buffer.from(ca) : undefined,
    insecureSkipTlsVerify: insecure,
    ...(flags.disableCompression === true ? { disableCompression: true } : {}),
    ...(impersonate !== undefined ? { impersonate } : {}),
    auth,
    identity: `${server}|in-cluster|${impersonationKey(impersonate)}|${credentialKey(auth, undefined)}`,
  };
}

function given(v: string | undefined): v is string {
  return v !== undefined && v !== '';
}

/**
 * client-go's merge: each non-empty flag replaces the kubeconfig user's field
 * (--as its `as`, --as-group its `as-groups`, --as-uid its `as-uid`);
 * `as-user-extra` comes from the kubeconfig only. Groups, uid or extra without a user are
 * refused, as client-go's transport refuses them.
 */
function impersonationOf(flags: ConnectionFlags, user?: KubeconfigUser, userName?: string): Impersonation | undefined {
  const flagGroups = flags.asGroups ?? [];
  const name = given(flags.as) ? flags.as : user?.as;
  const groups = flagGroups.length > 0 ? flagGroups : (user?.asGroups ?? []);
  const uid = given(flags.asUid) ? flags.asUid : user?.asUid;
  const extra = user?.asUserExtra ?? [];
  if (!given(name)) {
    if (flagGroups.length > 0)
      throw new KubeError('KUBE_CONFIG', 'requesting groups (--as-group) without impersonating a user (--as)');
    const fields = [
      ...(groups.length > 0 ? ['as-groups'] : []),
      ...(uid !== undefined ? ['as-uid'] : []),
      ...(extra.length > 0 ? ['as-user-extra'] : []),
    ];
    if (fields.length > 0)
      throw new KubeError(
        'KUBE_CONFIG',
        `user "${userName ?? ''}": ${fields.join(', ')} given without a user to impersonate (as, or --as)`,
      );
    return undefined;
  }
  return {
    user: name,
    groups,
    ...(uid !== undefined ? { uid } : {}),
    ...(extra.length > 0 ? { extra } : {}),
  };
}

/**
 * The credentials, digested: a kubeconfig edited to another token, certificate or exec plugin under
 * the same context and user names is another identity, so nothing cached for the old credentials
 * (discovery answers a server gave them) is served to the new ones without asking the server.
 */
function credentialKey(auth: ClientAuth, clientCert: Buffer | undefined): string {
  const h = createHash('sha256').update(JSON.stringify(auth));
  if (clientCert !== undefined) h.update(clientCert);
  return h.digest('hex').slice(0, 16);
}

/** Discovery differs per impersonated identity, so it is part of the cache key. */
function impersonationKey(imp: Impersonation | undefined): string {
  if (imp === undefined) return '';
  const more = imp.uid !== undefined || imp.extra !== undefined ? [imp.uid ?? null, imp.extra ?? []] : [];
  return `|as=${JSON.stringify([imp.user, ...imp.groups])}${more.length > 0 ? JSON.stringify(more) : ''}`;
}

/**
 * kubectl's --request-timeout: "0" (no timeout), a bare integer of seconds, or a Go duration
 * such as 500ms, 30s, 2m, 1h30m. Returns milliseconds, or undefined for 0.
 */
export function parseRequestTimeout(value: string): number | undefined {
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) === 0 ? undefined : Number(v) * 1000;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let rest = v;
  while (rest !== '') {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest);
    if (m === null)
      throw new KubeError(
        'KUBE_CONFIG',
        `invalid --request-timeout ${JSON.stringify(value)}: expected a duration such as 30s, 2m or 1h, or seconds`,
      );
    total += Number(m[1]) * unit[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  if (v === '') throw new KubeError('KUBE_CONFIG', 'invalid --request-timeout "": expected a duration');
  return total === 0 ? undefined : total;
}

function checkServerUrl(server: string): void {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new KubeError('KUBE_CONFIG', 'server address is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new KubeError('KUBE_CONFIG', `server address must be http or https, not ${url.protocol}`);
}

/** client-go accepts http, https and socks5 proxies; we speak HTTP CONNECT only, so socks5 is refused by name. */
function checkProxyUrl(proxyUrl: string, clusterName: string): void {
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    throw new KubeError('KUBE_CONFIG', `cluster "${clusterName}": proxy-url is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new KubeError(
      'KUBE_CONFIG',
      `cluster "${clusterName}": proxy-url scheme ${url.protocol} is not supported (use http:// or https://)`,
    );
}

function describeFiles(files: readonly string[]): string {
  return files.length === 0 ? 'the kubeconfig' : files.join(', ');
}
