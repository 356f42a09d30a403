/**
 * kubecfg's resolveImage native. The image name is parsed as
 * go-containerregistry's name.ParseReference (weak validation) would, and
 * printed back canonical: `nginx:1.27` -> `docker.io/library/nginx:1.27`, a
 * missing tag becomes `latest`, a digest reference keeps its digest and loses
 * any tag. A name that does not parse fails with kubecfg's text
 * `parsing reference "<image>": could not parse reference: <image>`.
 * `--resolve-images=noop` stops there (`--resolve-images-error` never applies:
 * only a registry lookup can fail that way); `registry` mode replaces the tag
 * by the digest an injected lookup gives (the daemon's registry client, via
 * its fetch rounds), so this file stays pure: no registry is contacted here.
 */

import type { JsonValue } from '../../lang/common/json.js';
import { RenderError } from '../errors.js';
import { quote as goQuote } from '../../lang/go/strconv.js';
import { goTypeName } from '../../lang/go/fmt.js';

export interface ImageName {
  registry: string;
  repository: string;
  tag: string;
  digest: string;
}

const DEFAULT_REGISTRY = 'index.docker.io';
const TAG_CHARS = /^[A-Za-z0-9_.-]+$/;
const REPOSITORY_CHARS = /^[a-z0-9_./-]+$/;

function runeCount(s: string): number {
  return [...s].length;
}

function validTag(tag: string): boolean {
  return runeCount(tag) >= 1 && runeCount(tag) <= 128 && TAG_CHARS.test(tag);
}

/** Go's url.Parse("//" + name).Host === name, for names without '/'. */
function validRegistry(name: string): boolean {
  if (name === '') return true;
  if (/[?#@%/]/.test(name)) return false;
  let host = name;
  let port = '';
  if (name.startsWith('[')) {
    const close = name.indexOf(']');
    if (close < 0) return false;
    host = name.slice(1, close);
    port = name.slice(close + 1);
    if (port !== '' && !port.startsWith(':')) return false;
    if (!/^[0-9A-Fa-f:.]*$/.test(host)) return false;
  } else {
    const colon = name.lastIndexOf(':');
    if (colon >= 0) {
      host = name.slice(0, colon);
      port = name.slice(colon);
    }
  }
  if (port !== '' && !/^:[0-9]*$/.test(port)) return false;
  // Characters url.Parse allows in a host: unreserved, sub-delims, ':', '[', ']', '<', '>', '"', and non-ASCII.
  for (const ch of host) {
    if (ch.codePointAt(0)! >= 0x80) continue;
    if (!/[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]/.test(ch)) return false;
  }
  return true;
}

interface Repository {
  registry: string;
  repository: string;
}

function parseRepository(name: string): Repository | null {
  if (name === '') return null;
  let registry = '';
  let repository = name;
  const slash = name.indexOf('/');
  if (slash >= 0) {
    const maybeRegistry = name.slice(0, slash);
    if (maybeRegistry === 'localhost' || /[.:]/.test(maybeRegistry)) {
      registry = maybeRegistry;
      repository = name.slice(slash + 1);
    }
  }
  if (runeCount(repository) < 1 || runeCount(repository) > 255 || !REPOSITORY_CHARS.test(repository)) return null;
  if (!validRegistry(registry)) return null;
  if (registry === '' || registry === 'docker.io') registry = DEFAULT_REGISTRY;
  if (registry === DEFAULT_REGISTRY && !repository.includes('/')) repository = `library/${repository}`;
  return { registry, repository };
}

function parseTagged(name: string): (Repository & { tag: string }) | null {
  let base = name;
  let tag = '';
  const parts = name.split(':');
  if (parts.length > 1 && !parts[parts.length - 1]!.includes('/')) {
    base = parts.slice(0, -1).join(':');
    tag = parts[parts.length - 1]!;
    if (tag === '' || !validTag(tag)) return null;
  }
  const repo = parseRepository(base);
  return repo ? { ...repo, tag: tag === '' ? 'latest' : tag } : null;
}

function parseDigested(name: string): (Repository & { digest: string }) | null {
  const parts = name.split('@');
  if (parts.length !== 2) return null;
  const [base, digest] = parts as [string, string];
  if (!/^sha256:[a-f0-9]{64}$/.test(digest)) return null;
  const tagged = parseTagged(base);
  const repo = tagged ? { registry: tagged.registry, repository: tagged.repository } : parseRepository(base);
  return repo ? { ...repo, digest } : null;
}

/** kubecfg's ParseImageName; null where name.ParseReference fails. */
function parseImageName(image: string): ImageName | null {
  const tagged = parseTagged(image);
  const digested = tagged ? null : parseDigested(image);
  const found = tagged ? { ...tagged, digest: '' } : digested ? { ...digested, tag: '' } : null;
  if (!found) return null;
  const registry = found.registry === DEFAULT_REGISTRY ? 'docker.io' : found.registry;
  return { registry, repository: found.repository, tag: found.tag, digest: found.digest };
}

/** ImageName.String(). */
function formatImageName(n: ImageName): string {
  const prefix = n.registry === '' ? '' : `${n.registry}/`;
  return prefix + n.repository + (n.digest !== '' ? `@${n.digest}` : `:${n.tag}`);
}

export interface ResolveImageNative {
  params: string[];
  fn: (args: JsonValue[]) => JsonValue;
}

/** A registry answer for a tagged image (canonical `registry/repo:tag` form): its manifest digest, or why not. */
export type DigestLookup = (canonical: string) => { digest: string } | { error: string };

/** Registry mode (--resolve-images=registry): how to look digests up and what to do when that fails. */
export interface RegistryResolution {
  lookup: DigestLookup;
  /** --resolve-images-error: `error` fails the evaluation, `warn` reports and keeps the tag, `ignore` keeps it silently. */
  onError: 'ignore' | 'warn' | 'error';
  warn: (message: string) => void;
}

/**
 * The resolveImage native. In noop mode the canonical name is returned; in
 * registry mode a tagged image gets the registry's digest in place of its tag
 * (`docker.io/library/nginx@sha256:...`), an image that already names a digest
 * is returned as is, and a failed lookup reads
 * `unable to get digest from the registry: <why>` as kubecfg's registry
 * resolver words it, handled per --resolve-images-error (the image then
 * stays in its tagged form).
 */
export function makeResolveImageNative(mode: 'noop' | 'registry', registry?: RegistryResolution): ResolveImageNative {
  return {
    params: ['image'],
    fn: ([image]) => {
      if (typeof image !== 'string') {
        throw new RenderError(
          'RENDER_BAD_ARGUMENT',
          `resolveImage: parameter image must be a string, got ${goTypeName(image ?? null)}`,
        );
      }
      const parsed = parseImageName(image);
      if (!parsed) {
        throw new RenderError(
          'RENDER_BAD_ARGUMENT',
          `parsing reference ${goQuote(image)}: could not parse reference: ${image}`,
        );
      }
      if (mode === 'noop' || !registry || parsed.digest !== '') return formatImageName(parsed);
      const answer = registry.lookup(formatImageName(parsed));
      if ('digest' in answer) return formatImageName({ ...parsed, digest: answer.digest });
      const message = `unable to get digest from the registry: ${answer.error}`;
      if (registry.onError === 'error') throw new RenderError('RENDER_BAD_ARGUMENT', message);
      if (registry.onError === 'warn') registry.warn(message);
      return formatImageName(parsed);
    },
  };
}
