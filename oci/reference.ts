// Image/artifact references and oci:// import URLs.
// A reference is `[host[:port]/]repo/path[:tag][@sha256:hex]`, normalized the way docker and the
// distribution spec do: no host (first component without '.' or ':' and not "localhost") means
// docker.io, docker.io single-component repositories get "library/", index.docker.io is docker.io,
// and a reference with neither tag nor digest means tag "latest".
// Invariants: a parsed Reference always has a registry and a valid repository, and a tag or a
// digest (or both); formatReference(parseReference(s)) is the canonical, fully-qualified form.
import { OciError } from './errors.js';
import { isDigest } from './digest.js';

export interface Reference {
  /** Registry host as users write it, e.g. "docker.io", "localhost:5000", "[::1]:5000". */
  registry: string;
  /** Repository path inside the registry, e.g. "library/nginx". */
  repository: string;
  tag?: string;
  digest?: string;
}

export const DOCKER_HUB = 'docker.io';
/** The host that actually serves the docker.io registry API. */
const DOCKER_HUB_API_HOST = 'registry-1.docker.io';

const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DOMAIN_COMPONENT = /^(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])$/;
const IPV6_HOST = /^\[[0-9A-Fa-f:.]+\]$/;
const PORT = /^[0-9]{1,5}$/;
const MAX_NAME_LENGTH = 255;

function refError(input: string, why: string): OciError {
  const shown = input.length > 120 ? input.slice(0, 117) + '...' : input;
  return new OciError('OCI_REFERENCE', `invalid OCI reference ${JSON.stringify(shown)}: ${why}`);
}

function validHost(host: string): boolean {
  let name = host;
  let port: string | undefined;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return false;
    name = host.slice(0, close + 1);
    const rest = host.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) return false;
      port = rest.slice(1);
    }
    if (!IPV6_HOST.test(name)) return false;
  } else {
    const colon = host.indexOf(':');
    if (colon >= 0) {
      name = host.slice(0, colon);
      port = host.slice(colon + 1);
    }
    if (name === '' || !name.split('.').every((c) => DOMAIN_COMPONENT.test(c))) return false;
  }
  return port === undefined || (PORT.test(port) && Number(port) <= 65535);
}

/** Parses and normalizes a reference; throws OCI_REFERENCE with the reason when it is malformed. */
export function parseReference(input: string): Reference {
  if (input === '') throw refError(input, 'empty');
  if (/[\s\\]/.test(input) || input.includes('://')) {
    throw refError(input, 'contains whitespace, a backslash or a URL scheme (write host/repo:tag)');
  }
  let rest = input;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!isDigest(digest))
      throw refError(input, `digest ${JSON.stringify(digest)} is not sha256:<64 hex> or sha512:<128 hex>`);
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const lastColon = rest.lastIndexOf(':');
  if (lastColon > lastSlash) {
    tag = rest.slice(lastColon + 1);
    rest = rest.slice(0, lastColon);
    if (!TAG.test(tag))
      throw refError(input, `tag ${JSON.stringify(tag)} must match [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`);
  }
  if (rest.length > MAX_NAME_LENGTH) throw refError(input, `name longer than ${MAX_NAME_LENGTH} characters`);

  let registry: string;
  let repository: string;
  const firstSlash = rest.indexOf('/');
  const first = firstSlash < 0 ? rest : rest.slice(0, firstSlash);
  const looksLikeHost = firstSlash >= 0 && (/[.:]/.test(first) || first === 'localhost' || first.startsWith('['));
  if (looksLikeHost) {
    registry = first;
    repository = rest.slice(firstSlash + 1);
    if (!validHost(registry)) throw refError(input, `registry host ${JSON.stringify(registry)} is not host[:port]`);
  } else {
    registry = DOCKER_HUB;
    repository = rest;
  }
  if (registry === 'index.docker.io') registry = DOCKER_HUB;
  if (registry === DOCKER_HUB && !repository.includes('/')) repository = 'library/' + repository;
  if (repository === '') throw refError(input, 'missing repository');
  for (const component of repository.split('/')) {
    if (!PATH_COMPONENT.test(component)) {
      throw refError(
        input,
        `repository component ${JSON.stringify(component)} must be lower-case letters and digits, separated by '.', '_', '__' or '-'`,
      );
    }
  }
  if (tag === undefined && digest === undefined) tag = 'latest';
  const ref: Reference = { registry, repository };
  if (tag !== undefined) ref.tag = tag;
  if (digest !== undefined) ref.digest = digest;
  return ref;
}

/** The canonical form: registry/repository[:tag][@digest]. */
export function formatReference(ref: Reference): string {
  let s = `${ref.registry}/${ref.repository}`;
  if (ref.tag !== undefined) s += `:${ref.tag}`;
  if (ref.digest !== undefined) s += `@${ref.digest}`;
  return s;
}

/** The same artifact pinned by digest (tag dropped): what the store and imports key on. */
export function pinnedReference(ref: Reference, digest: string): Reference {
  return { registry: ref.registry, repository: ref.repository, digest };
}

/** The host:port that serves the registry API for a reference's registry. */
export function apiHost(registry: string): string {
  return registry === DOCKER_HUB ? DOCKER_HUB_API_HOST : registry;
}

export interface OciImportUrl {
  reference: Reference;
  /** Path inside the bundle, without leading '/'; '' means "the bundle's entrypoint". */
  path: string;
}

/**
 * Splits `oci://host/repo:tag/path/in/bundle` (also `@sha256:...` and `:tag@sha256:...`) into the
 * artifact reference and the in-bundle path. A tag or digest is required, since without one the
 * boundary between repository and path would be a guess. A path with `.`/`..` segments, empty
 * segments or backslashes is refused.
 */
export function parseOciImportUrl(url: string): OciImportUrl {
  const prefix = 'oci://';
  if (!url.startsWith(prefix)) throw refError(url, 'an OCI import URL starts with oci://');
  const body = url.slice(prefix.length);
  const hostEnd = body.indexOf('/');
  if (hostEnd < 0) throw refError(url, 'missing repository after the host');
  const afterHost = body.slice(hostEnd + 1);
  // The reference ends at the first '/' after the tag or digest marker.
  const at = afterHost.indexOf('@');
  const colon = afterHost.indexOf(':');
  const marker = at >= 0 && (colon < 0 || at < colon) ? at : colon >= 0 ? colon : -1;
  if (marker < 0)
    throw refError(url, 'an oci:// import needs a tag (:v1) or a digest (@sha256:...) after the repository');
  const slashAfterMarker = afterHost.indexOf('/', marker);
  const refEnd = slashAfterMarker < 0 ? afterHost.length : slashAfterMarker;
  const refText = body.slice(0, hostEnd + 1) + afterHost.slice(0, refEnd);
  const path = slashAfterMarker < 0 ? '' : afterHost.slice(slashAfterMarker + 1);
  const reference = parseReference(refText);
  if (
    reference.registry === DOCKER_HUB &&
    !refText.startsWith('docker.io/') &&
    !refText.startsWith('index.docker.io/')
  ) {
    throw refError(url, 'an oci:// import names its registry host explicitly (oci://host/repo:tag/...)');
  }
  if (path !== '') {
    if (path.includes('\\') || path.includes('\0')) throw refError(url, 'bundle path contains a backslash or NUL');
    for (const seg of path.split('/')) {
      if (seg === '' || seg === '.' || seg === '..')
        throw refError(url, `bundle path ${JSON.stringify(path)} has an empty, '.' or '..' segment`);
    }
  }
  return { reference, path };
}
