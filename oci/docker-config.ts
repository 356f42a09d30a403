// Credentials from a docker config file (~/.docker/config.json; the caller passes the path):
// `auths` entries (base64 "user:password" in `auth`, or username/password, `identitytoken`,
// `registrytoken`), `credHelpers` per registry and the default `credsStore`, the latter two run
// through docker-credential-* helpers. Precedence follows docker: credHelpers[host], then
// credsStore, then auths. Invariants: a missing file means "no credentials", a malformed one is
// an OCI_CREDENTIALS error naming the file and field, never its contents.
import { readFile } from 'node:fs/promises';
import { OciError } from './errors.js';
import { runCredentialHelper, type CredentialHelperOptions } from './credential-helper.js';
import { DOCKER_HUB } from './reference.js';

export interface RegistryCredential {
  username?: string;
  password?: string;
  /** OAuth2 refresh token exchanged at the token endpoint (docker's "identitytoken"). */
  identityToken?: string;
  /** A bearer token sent as it is (docker's "registrytoken"). */
  registryToken?: string;
}

/** Anything that can find credentials for a registry host ("docker.io", "localhost:5000"). */
export interface CredentialSource {
  get(registry: string): Promise<RegistryCredential | undefined>;
}

interface AuthEntry {
  auth?: string;
  username?: string;
  password?: string;
  identitytoken?: string;
  registrytoken?: string;
}

export interface DockerConfigFile {
  auths: Map<string, AuthEntry>;
  credHelpers: Map<string, string>;
  credsStore?: string;
}

const DOCKER_HUB_CONFIG_KEY = 'https://index.docker.io/v1/';
const MAX_CONFIG_BYTES = 1024 * 1024;

export async function loadDockerConfig(path: string): Promise<DockerConfigFile> {
  let text: string;
  try {
    const buf = await readFile(path);
    if (buf.byteLength > MAX_CONFIG_BYTES) throw new OciError('OCI_CREDENTIALS', `${path}: larger than 1 MiB`);
    text = buf.toString('utf8');
  } catch (e) {
    if (e instanceof OciError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { auths: new Map(), credHelpers: new Map() };
    throw new OciError('OCI_CREDENTIALS', `${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseDockerConfig(text, path);
}

export function parseDockerConfig(text: string, where: string): DockerConfigFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new OciError('OCI_CREDENTIALS', `${where}: not valid JSON`);
  }
  if (!isRecord(doc)) throw new OciError('OCI_CREDENTIALS', `${where}: top level is not an object`);
  const out: DockerConfigFile = { auths: new Map(), credHelpers: new Map() };
  if (doc['auths'] !== undefined) {
    if (!isRecord(doc['auths'])) throw new OciError('OCI_CREDENTIALS', `${where}: .auths is not an object`);
    for (const [key, entry] of Object.entries(doc['auths'])) {
      if (!isRecord(entry))
        throw new OciError('OCI_CREDENTIALS', `${where}: .auths[${JSON.stringify(key)}] is not an object`);
      const clean: AuthEntry = {};
      for (const field of ['auth', 'username', 'password', 'identitytoken', 'registrytoken'] as const) {
        const v = entry[field];
        if (v === undefined || v === '') continue;
        if (typeof v !== 'string')
          throw new OciError('OCI_CREDENTIALS', `${where}: .auths[${JSON.stringify(key)}].${field} is not a string`);
        clean[field] = v;
      }
      out.auths.set(normalizeConfigKey(key), clean);
    }
  }
  if (doc['credHelpers'] !== undefined) {
    if (!isRecord(doc['credHelpers'])) throw new OciError('OCI_CREDENTIALS', `${where}: .credHelpers is not an object`);
    for (const [key, helper] of Object.entries(doc['credHelpers'])) {
      if (typeof helper !== 'string')
        throw new OciError('OCI_CREDENTIALS', `${where}: .credHelpers[${JSON.stringify(key)}] is not a string`);
      out.credHelpers.set(normalizeConfigKey(key), helper);
    }
  }
  const store = doc['credsStore'];
  if (store !== undefined && store !== '') {
    if (typeof store !== 'string') throw new OciError('OCI_CREDENTIALS', `${where}: .credsStore is not a string`);
    out.credsStore = store;
  }
  return out;
}

/** "https://host:5000/v1/" and "host:5000" name the same registry; docker.io has its legacy key. */
export function normalizeConfigKey(key: string): string {
  if (key === DOCKER_HUB_CONFIG_KEY || key === 'index.docker.io' || key === 'registry-1.docker.io') return DOCKER_HUB;
  let k = key.replace(/^[a-z]+:\/\//i, '');
  const slash = k.indexOf('/');
  if (slash >= 0) k = k.slice(0, slash);
  return k === 'index.docker.io' || k === 'registry-1.docker.io' ? DOCKER_HUB : k;
}

export class DockerConfigCredentials implements CredentialSource {
  constructor(
    private readonly config: DockerConfigFile,
    private readonly helperOptions: CredentialHelperOptions = {},
    private readonly where = 'docker config',
  ) {}

  static async fromFile(path: string, helperOptions: CredentialHelperOptions = {}): Promise<DockerConfigCredentials> {
    return new DockerConfigCredentials(await loadDockerConfig(path), helperOptions, path);
  }

  async get(registry: string): Promise<RegistryCredential | undefined> {
    const serverUrl = registry === DOCKER_HUB ? DOCKER_HUB_CONFIG_KEY : registry;
    const helper = this.config.credHelpers.get(registry);
    if (helper !== undefined) return fromHelper(await runCredentialHelper(helper, serverUrl, this.helperOptions));
    if (this.config.credsStore !== undefined) {
      const found = fromHelper(await runCredentialHelper(this.config.credsStore, serverUrl, this.helperOptions));
      if (found !== undefined) return found;
    }
    const entry = this.config.auths.get(registry);
    return entry === undefined ? undefined : this.fromEntry(registry, entry);
  }

  private fromEntry(registry: string, entry: AuthEntry): RegistryCredential | undefined {
    const cred: RegistryCredential = {};
    if (entry.auth !== undefined) {
      const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0)
        throw new OciError(
          'OCI_CREDENTIALS',
          `${this.where}: .auths[${JSON.stringify(registry)}].auth is not base64 of user:password`,
        );
      cred.username = decoded.slice(0, colon);
      cred.password = decoded.slice(colon + 1);
    } else if (entry.username !== undefined) {
      cred.username = entry.username;
      if (entry.password !== undefined) cred.password = entry.password;
    }
    if (entry.identitytoken !== undefined) cred.identityToken = entry.identitytoken;
    if (entry.registrytoken !== undefined) cred.registryToken = entry.registrytoken;
    return Object.keys(cred).length === 0 ? undefined : cred;
  }
}

function fromHelper(h: { username: string; secret: string } | undefined): RegistryCredential | undefined {
  if (h === undefined) return undefined;
  // Helpers return an identity token with the username "<token>" (docker-credential-helpers).
  if (h.username === '<token>') return { identityToken: h.secret };
  return { username: h.username, password: h.secret };
}

/** Credentials given in code, e.g. from flags or tests. */
export class StaticCredentials implements CredentialSource {
  constructor(private readonly byRegistry: Record<string, RegistryCredential>) {}
  async get(registry: string): Promise<RegistryCredential | undefined> {
    return Object.hasOwn(this.byRegistry, registry) ? this.byRegistry[registry] : undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
