// What the daemon's importer needs for `oci://` imports: load the file an oci:// URL names (the
// bundle's entrypoint when the URL has no path), check the features the bundle declares against
// the ones the invocation enabled (remote code never turns features on), and resolve a relative
// import from inside a bundle without ever leaving that bundle (plain URL resolution of '../'
// would climb out of the bundle into the repository path, i.e. into another artifact).
import { OciError } from './errors.js';
import { formatReference, parseOciImportUrl, type Reference } from './reference.js';
import { bundleFile, missingFeatures, type Bundle } from './bundle.js';

export interface BundleSource {
  get(ref: Reference): Promise<Bundle>;
}

export interface LoadedOciImport {
  /** The URL of the file pinned by digest: oci://host/repo@sha256:.../path (stable cache key). */
  pinnedUrl: string;
  /** In-bundle path actually read (the entrypoint when the URL named the bundle root). */
  path: string;
  data: Uint8Array;
  bundle: Bundle;
}

export async function loadOciImport(
  source: BundleSource,
  url: string,
  enabledFeatures: Iterable<string>,
): Promise<LoadedOciImport> {
  const { reference, path } = parseOciImportUrl(url);
  const bundle = await source.get(reference);
  const missing = missingFeatures(bundle, enabledFeatures).sort();
  if (missing.length > 0) {
    throw new OciError(
      'OCI_BUNDLE',
      `${url}: the bundle needs feature${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, not enabled in this invocation (enable with --features=${missing.join(',')}; a bundle never turns features on by itself)`,
    );
  }
  let filePath = path;
  if (filePath === '') {
    filePath = bundle.config.entrypoint;
    if (filePath === '')
      throw new OciError(
        'OCI_BUNDLE',
        `${url}: the bundle has no entrypoint, so import a file inside it (oci://.../path/in/bundle)`,
      );
  }
  const data = bundleFile(bundle, filePath);
  return { pinnedUrl: `oci://${formatReference(bundle.reference)}/${filePath}`, path: filePath, data, bundle };
}

/**
 * Resolves `relative` (an import string in a file of the bundle) against the importing file's
 * oci:// URL. Returns the oci:// URL of the target, or throws OCI_REFERENCE when it would leave the
 * bundle. An absolute import (`/x`) or another scheme is not relative and is not handled here.
 */
export function resolveInBundle(importerUrl: string, relative: string): string {
  const { reference, path } = parseOciImportUrl(importerUrl);
  if (relative.includes('\\') || relative.includes('\0'))
    throw new OciError(
      'OCI_REFERENCE',
      `import ${JSON.stringify(relative)} in ${importerUrl}: backslash or NUL in path`,
    );
  if (relative.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(relative)) {
    throw new OciError('OCI_REFERENCE', `import ${JSON.stringify(relative)} in ${importerUrl}: not a relative path`);
  }
  const last = relative.split('/').pop();
  if (last === '' || last === '.' || last === '..')
    throw new OciError('OCI_REFERENCE', `import ${JSON.stringify(relative)} in ${importerUrl} does not name a file`);
  const dir = path === '' ? [] : path.split('/').slice(0, -1);
  for (const seg of relative.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (dir.length === 0)
        throw new OciError('OCI_REFERENCE', `import ${JSON.stringify(relative)} in ${importerUrl} leaves the bundle`);
      dir.pop();
    } else {
      dir.push(seg);
    }
  }
  if (dir.length === 0)
    throw new OciError('OCI_REFERENCE', `import ${JSON.stringify(relative)} in ${importerUrl} does not name a file`);
  return `oci://${formatReference(reference)}/${dir.join('/')}`;
}
