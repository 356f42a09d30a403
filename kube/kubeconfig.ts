/**
 * Kubeconfig loading as kubectl does it: `--kubeconfig` names one file
 * (which must exist); otherwise every file of the KUBECONFIG list (missing
 * ones skipped) is merged, the first file to define a cluster, user or
 * context name winning, and the first non-empty current-context winning;
 * otherwise ~/.kube/config. File references (certificate-authority,
 * client-certificate, client-key, tokenFile) are resolved relative to the
 * file that holds them. A user's impersonation fields (`as`, `as-uid`,
 * `as-groups`, `as-user-extra`) are read as client-go reads them; the flags
 * override them field by field (connection.ts). Invariants: errors name the file and the entry,
 * never the credentials; reading is done through an injected FileReader.
 */
import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { GoYamlError, yamlToJson } from '../lang/go/yaml-v2.js';
import { KubeError } from './errors.js';

export interface KubeconfigCluster {
  readonly server?: string;
  readonly certificateAuthority?: string;
  readonly certificateAuthorityData?: string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly tlsServerName?: string;
  /** `proxy-url`: the HTTP(S) proxy for this cluster, in place of HTTPS_PROXY and friends. */
  readonly proxyUrl?: string;
  /** `disable-compression`: no `Accept-Encoding: gzip` on requests to this cluster. */
  readonly disableCompression?: boolean;
}

export interface ExecConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  readonly apiVersion: string;
  /** Directory of the kubeconfig file: relative commands containing a slash resolve against it. */
  readonly baseDir: string;
  /** `installHint`: shown when the command is not installed. */
  readonly installHint?: string;
}

export interface KubeconfigUser {
  readonly token?: string;
  readonly tokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  readonly clientCertificate?: string;
  readonly clientCertificateData?: string;
  readonly clientKey?: string;
  readonly clientKeyData?: string;
  readonly exec?: ExecConfig;
  /** Name of an auth-provider plugin (oidc is run; gcp, azure were removed from kubectl). */
  readonly authProvider?: string;
  /** The auth-provider's `config` map (string values only), with the kubeconfig's directory for relative paths. */
  readonly authProviderConfig?: Readonly<Record<string, string>>;
  readonly authProviderBaseDir?: string;
  /** `as`: the user to impersonate. */
  readonly as?: string;
  /** `as-uid`: the UID to impersonate. */
  readonly asUid?: string;
  /** `as-groups`: the groups to impersonate. */
  readonly asGroups?: readonly string[];
  /** `as-user-extra`: extra fields to impersonate, as [key, values] pairs in file order. */
  readonly asUserExtra?: ReadonlyArray<readonly [string, readonly string[]]>;
}

export interface KubeconfigContext {
  readonly cluster?: string;
  readonly user?: string;
  readonly namespace?: string;
}

export interface MergedKubeconfig {
  readonly files: readonly string[];
  readonly currentContext?: string;
  readonly clusters: ReadonlyMap<string, KubeconfigCluster>;
  readonly users: ReadonlyMap<string, KubeconfigUser>;
  readonly contexts: ReadonlyMap<string, KubeconfigContext>;
}

export interface FileReader {
  /** Returns undefined when the file does not exist. */
  read(path: string): string | undefined;
}

/** The kubeconfig files kubectl would read, in precedence order. */
export function kubeconfigFiles(
  explicit: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  home: string | undefined,
  delimiter = ':',
): { files: string[]; explicit: boolean } {
  if (explicit !== undefined && explicit !== '') return { files: [explicit], explicit: true };
  const list = env['KUBECONFIG'];
  if (list !== undefined && list !== '') {
    const files = [...new Set(list.split(delimiter).filter((f) => f !== ''))];
    return { files, explicit: false };
  }
  return { files: home !== undefined ? [resolvePath(home, '.kube', 'config')] : [], explicit: false };
}

export function loadKubeconfig(files: readonly string[], explicit: boolean, reader: FileReader): MergedKubeconfig {
  const clusters = new Map<string, KubeconfigCluster>();
  const users = new Map<string, KubeconfigUser>();
  const contexts = new Map<string, KubeconfigContext>();
  let currentContext: string | undefined;
  const loaded: string[] = [];
  for (const file of files) {
    const text = reader.read(file);
    if (text === undefined) {
      if (explicit) throw new KubeError('KUBE_CONFIG', `kubeconfig ${file}: file does not exist`);
      continue;
    }
    loaded.push(file);
    let doc: unknown;
    try {
      doc = yamlToJson(text);
    } catch (err) {
      if (!(err instanceof GoYamlError)) throw err;
      // Position only: a message could quote the (possibly secret) source.
      const offset = err.offset;
      const where = offset !== undefined ? lineColumn(text, offset) : '';
      throw new KubeError('KUBE_CONFIG', `kubeconfig ${file}${where}: not valid YAML`);
    }
    if (doc === null || doc === undefined) continue;
    if (typeof doc !== 'object' || Array.isArray(doc))
      throw new KubeError('KUBE_CONFIG', `kubeconfig ${file}: top level must be a mapping`);
    const base = dirname(resolvePath(file));
    const top = doc as Record<string, unknown>;
    for (const [name, body] of namedEntries(top['clusters'], 'cluster', file)) {
      if (!clusters.has(name)) clusters.set(name, readCluster(body, base));
    }
    for (const [name, body] of namedEntries(top['users'], 'user', file)) {
      if (!users.has(name)) users.set(name, readUser(body, base, file, name));
    }
    for (const [name, body] of namedEntries(top['contexts'], 'context', file)) {
      if (!contexts.has(name))
        contexts.set(name, {
          cluster: str(body['cluster']),
          user: str(body['user']),
          namespace: str(body['namespace']),
        });
    }
    const cc = str(top['current-context']);
    if (currentContext === undefined && cc !== undefined && cc !== '') currentContext = cc;
  }
  return { files: loaded, currentContext, clusters, users, contexts };
}

function namedEntries(list: unknown, field: string, file: string): Array<[string, Record<string, unknown>]> {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new KubeError('KUBE_CONFIG', `kubeconfig ${file}: ${field}s must be a list`);
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const [i, entry] of list.entries()) {
    const e = entry as Record<string, unknown> | null;
    const name = e !== null && typeof e === 'object' ? e['name'] : undefined;
    if (typeof name !== 'string' || name === '')
      throw new KubeError('KUBE_CONFIG', `kubeconfig ${file}: ${field}s[${i}] has no name`);
    const body = e![field];
    out.push([
      name,
      body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {},
    ]);
  }
  return out;
}

function readCluster(c: Record<string, unknown>, base: string): KubeconfigCluster {
  return {
    server: str(c['server']),
    certificateAuthority: filePath(c['certificate-authority'], base),
    certificateAuthorityData: str(c['certificate-authority-data']),
    insecureSkipTlsVerify: c['insecure-skip-tls-verify'] === true,
    tlsServerName: str(c['tls-server-name']),
    proxyUrl: str(c['proxy-url']),
    disableCompression: c['disable-compression'] === true,
  };
}

function readUser(u: Record<string, unknown>, base: string, file: string, name: string): KubeconfigUser {
  const exec = u['exec'];
  let execConfig: ExecConfig | undefined;
  if (exec !== undefined && exec !== null) {
    const e = exec as Record<string, unknown>;
    if (typeof e['command'] !== 'string')
      throw new KubeError('KUBE_CONFIG', `kubeconfig ${file}: users[${name}].exec.command must be a string`);
    execConfig = {
      command: e['command'],
      args: Array.isArray(e['args']) ? e['args'].map(String) : [],
      env: Array.isArray(e['env'])
        ? e['env'].map((x) => ({
            name: String((x as Record<string, unknown>)['name']),
            value: String((x as Record<string, unknown>)['value']),
          }))
        : [],
      apiVersion: str(e['apiVersion']) ?? 'client.authentication.k8s.io/v1',
      baseDir: base,
      ...(str(e['installHint']) !== undefined ? { installHint: str(e['installHint']) } : {}),
    };
  }
  const provider = u['auth-provider'] as Record<string, unknown> | undefined;
  const where = `kubeconfig ${file}: users[${name}]`;
  return {
    ...impersonationFields(u, where),
    token: str(u['token']),
    tokenFile: filePath(u['tokenFile'], base),
    username: str(u['username']),
    password: str(u['password']),
    clientCertificate: filePath(u['client-certificate'], base),
    clientCertificateData: str(u['client-certificate-data']),
    clientKey: filePath(u['client-key'], base),
    clientKeyData: str(u['client-key-data']),
    exec: execConfig,
    authProvider: provider !== undefined && provider !== null ? (str(provider['name']) ?? 'unnamed') : undefined,
    ...(provider !== undefined && provider !== null ? providerConfig(provider['config'], base) : {}),
  };
}

/** The user's `as*` fields; a wrong type is an error naming the field, never quoting its value. */
function impersonationFields(
  u: Record<string, unknown>,
  where: string,
): Pick<KubeconfigUser, 'as' | 'asUid' | 'asGroups' | 'asUserExtra'> {
  const out: { as?: string; asUid?: string; asGroups?: string[]; asUserExtra?: Array<[string, string[]]> } = {};
  const stringList = (v: unknown, field: string): string[] => {
    if (v === null || v === undefined) return [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
      throw new KubeError('KUBE_CONFIG', `${where}.${field} must be a list of strings`);
    return v;
  };
  for (const [field, key] of [
    ['as', 'as'],
    ['as-uid', 'asUid'],
  ] as const) {
    const v = u[field];
    if (v === null || v === undefined) continue;
    if (typeof v !== 'string') throw new KubeError('KUBE_CONFIG', `${where}.${field} must be a string`);
    if (v !== '') out[key] = v;
  }
  const groups = stringList(u['as-groups'], 'as-groups');
  if (groups.length > 0) out.asGroups = groups;
  const extra = u['as-user-extra'];
  if (extra !== null && extra !== undefined) {
    if (typeof extra !== 'object' || Array.isArray(extra))
      throw new KubeError('KUBE_CONFIG', `${where}.as-user-extra must be a mapping of lists of strings`);
    const pairs = Object.entries(extra as Record<string, unknown>).map(
      ([k, v]) => [k, stringList(v, `as-user-extra.${k}`)] as [string, string[]],
    );
    if (pairs.length > 0) out.asUserExtra = pairs;
  }
  return out;
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, Math.min(offset, text.length));
  const line = before.split('\n').length;
  return `:${line}:${before.length - before.lastIndexOf('\n')}`;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function filePath(v: unknown, base: string): string | undefined {
  const s = str(v);
  if (s === undefined || s === '') return undefined;
  return isAbsolute(s) ? s : resolvePath(base, s);
}

function providerConfig(
  config: unknown,
  base: string,
): { authProviderConfig: Record<string, string>; authProviderBaseDir: string } {
  const out: Record<string, string> = {};
  if (config !== null && typeof config === 'object' && !Array.isArray(config))
    for (const [k, v] of Object.entries(config as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
  return { authProviderConfig: out, authProviderBaseDir: base };
}
