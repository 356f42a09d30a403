/**
 * imageRedirect: applies the first redirect whose oldPrefix starts the image
 * reference (Config resources in name order, each one's list in order) and
 * splits the result into url, repository, tag, registry, baseRepository,
 * imagePullPolicy and imagePullSecrets. Pure; reads only its arguments.
 */

import { mapGet } from '../gotemplate/value.js';

/** One entry of Config.spec.imageRedirects, as it appears in `.ImageRedirects`. */
export interface ImageRedirect {
  oldPrefix: string;
  newPrefix: string;
  imagePullPolicy?: string;
  imagePullSecrets?: unknown[];
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The redirects of a data model root (`.ImageRedirects`), skipping malformed entries. */
export function redirectsOf(root: unknown): ImageRedirect[] {
  const r = asRecord(root);
  const list = r ? mapGet(r, 'ImageRedirects') : undefined;
  if (!Array.isArray(list)) return [];
  const out: ImageRedirect[] = [];
  for (const item of list) {
    const m = asRecord(item);
    if (!m) continue;
    const oldPrefix = mapGet(m, 'oldPrefix');
    const newPrefix = mapGet(m, 'newPrefix');
    if (typeof oldPrefix !== 'string' || typeof newPrefix !== 'string') continue;
    const policy = mapGet(m, 'imagePullPolicy');
    const secrets = mapGet(m, 'imagePullSecrets');
    out.push({
      oldPrefix,
      newPrefix,
      ...(typeof policy === 'string' ? { imagePullPolicy: policy } : {}),
      ...(Array.isArray(secrets) ? { imagePullSecrets: secrets } : {}),
    });
  }
  return out;
}

/** The tag of a reference: after the last `:` of its last path segment, unless that is a digest. */
function splitTag(ref: string): { repository: string; tag: string } {
  const at = ref.indexOf('@');
  const name = at >= 0 ? ref.slice(0, at) : ref;
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon > slash) return { repository: name.slice(0, colon), tag: name.slice(colon + 1) };
  return { repository: name, tag: 'latest' };
}

export function imageRedirect(image: string, redirects: readonly ImageRedirect[]): Record<string, unknown> {
  const match = redirects.find((r) => image.startsWith(r.oldPrefix));
  const url = match ? match.newPrefix + image.slice(match.oldPrefix.length) : image;
  const { repository, tag } = splitTag(url);
  const firstSlash = repository.indexOf('/');
  return {
    url,
    repository,
    tag,
    registry: firstSlash >= 0 ? repository.slice(0, firstSlash) : repository,
    baseRepository: firstSlash >= 0 ? repository.slice(firstSlash + 1) : '',
    imagePullPolicy: match?.imagePullPolicy ?? '',
    imagePullSecrets: match?.imagePullSecrets ? [...match.imagePullSecrets] : null,
  };
}
