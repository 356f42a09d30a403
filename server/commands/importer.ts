/**
 * The Jsonnet importer the daemon gives the engine: every read and probe goes
 * through the request's DependencyRecorder, so the result cache knows the
 * exact import closure, including paths looked for and not found (negative
 * deps: a file appearing earlier on the search path invalidates).
 *
 * Resolution, as kubecfg's universal importer: an absolute location (path,
 * file://, http(s)://, data:, oci://) as is; otherwise relative to the
 * importing file (its directory, or its URL), then each -J directory, then
 * each -U URL, in order, then the built-in kubecfg.libsonnet. Code that is
 * not a file (`-e`, --ext-code, `<extvar:…>` snippets) imports relative to
 * the client's cwd (RFC06). `internal:///kubecfg.libsonnet` always names the
 * built-in copy. docs/imports.md is the user-facing account.
 *
 * Remote locations are never fetched here: they are looked up in the run's
 * RemoteSession (server/remote-inputs/remote-session.ts); one not fetched
 * yet fails this round, the fetcher fetches it and the command runs again.
 * A file fetched over http(s) resolves its relative imports against its URL
 * and then the -U URLs only: remote code never reads local files (hazard
 * 24, Dhall's rule). A file inside an OCI bundle resolves relative imports
 * inside the bundle only. A bundle declaring features the request did not
 * enable is refused, listing them.
 *
 * Under --root (session.root) every local candidate must lie inside the root
 * after `..` and symlinks (root-confine.ts), and an absolute path written in
 * a file's import is refused outright.
 *
 * Names: `foundAt` keeps the spelling the user gave (`dir/lib.libsonnet` for
 * a relative input), as the jsonnet command shows it in errors; the recorder
 * always gets the absolute path against the *client's* cwd. Remote files are
 * named by URL; bundle files by their digest-pinned oci:// URL.
 *
 * `import 'yakl:LOCATION'` (feature yakl) finds LOCATION as any import
 * (any scheme), then serves the compiled .yakl file (worker cache by content,
 * yakl-compile.ts). Its `foundAt` keeps the scheme, so the engine's import
 * cache never confuses it with `importstr 'LOCATION'`.
 *
 * `import 'binary://LOCATION'` (feature binary-import; kubecfg's deprecated
 * spelling of `importbin`) finds LOCATION the same way and serves its bytes as
 * the Jsonnet text of an array of numbers, as kubecfg's importer does, so
 * `import` of it is the byte array `importbin` gives. Like kubecfg, the text is
 * what every kind of import sees. Its `foundAt` keeps the scheme, as yakl:'s.
 * `kustomize+https://` (feature kustomize-import) is kubecfg's kustomize build
 * of a URL; kustomize is not part of this kubecfg, so it fails, saying so.
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { CacheFileError, type DependencyRecorder } from '../../cache/index.js';
import { ImportError, type Importer } from '../../lang/jsonnet/index.js';
import { kubecfgLibsonnet } from '../../render/index.js';
import { FeatureError, type Gates } from '../../render/features/gates.js';
import { OciError } from '../../oci/errors.js';
import { resolveInBundle } from '../../oci/oci-import.js';
import { formatReference, parseOciImportUrl } from '../../oci/reference.js';
import { decodeDataUrl, DataUrlError, isDataUrl, shorten } from '../remote-inputs/data-url.js';
import { isHttpUrl, isOciUrl } from '../remote-inputs/remote-location.js';
import { confine, OutsideRootError } from '../remote-inputs/root-confine.js';
import { hostAllowed } from '../remote-inputs/ssrf.js';
import { currentRemoteSession, RemoteInputPending, type RemoteSession } from '../remote-inputs/remote-session.js';
import { compiledYakl } from './yakl-compile.js';

export const BUILTIN_LIB_URL = 'internal:///kubecfg.libsonnet';
const BUILTIN_LIB_BYTES = new TextEncoder().encode(kubecfgLibsonnet);

export interface ImporterOptions {
  recorder: DependencyRecorder;
  cwd: string;
  /** -J directories as given (relative ones resolve against cwd), in order. */
  jpath: string[];
  /** The request's feature gates: `yakl:` imports need `yakl` on. Without gates they are refused. */
  gates?: Gates;
  /**
   * Remote inputs, --root and -U of the running command; defaults to the
   * current session (none for the rc file's own evaluation: local only).
   */
  session?: RemoteSession | null;
}

export const YAKL_SCHEME = 'yakl:';
export const BINARY_SCHEME = 'binary://';
const KUSTOMIZE_SCHEME = 'kustomize+https://';

type Found = { foundAt: string; contents: Uint8Array };

/** Host (with port) and hostname of a remote location (http(s) URL, or an oci:// registry), else undefined. */
function originOf(location: string): { host: string; hostname: string } | undefined {
  if (!isHttpUrl(location) && !isOciUrl(location)) return undefined;
  try {
    const u = new URL(location);
    return { host: u.host, hostname: u.hostname };
  } catch {
    return undefined;
  }
}
type Candidate = { local: string } | { url: string };

function quoted(path: string): string {
  return JSON.stringify(isDataUrl(path) ? shorten(path) : path);
}

export function createImporter(opts: ImporterOptions): Importer {
  const { recorder, cwd, jpath, gates } = opts;
  const session = opts.session === undefined ? currentRemoteSession() : (opts.session ?? undefined);
  const root = session?.root;

  const remote = (path: string): RemoteSession => {
    if (!session) throw new ImportError(`couldn't open import ${quoted(path)}: remote imports are not allowed here`);
    return session;
  };

  const readLocal = (path: string, candidate: string): Found | undefined => {
    let abs = resolve(cwd, candidate);
    if (root !== undefined) {
      const confined = confine(root, abs, `couldn't open import ${quoted(path)}`, recorder);
      if (!confined.exists) {
        recorder.probe(confined.path);
        return undefined;
      }
      abs = confined.path;
    }
    if (!recorder.probe(abs)) return undefined;
    try {
      return { foundAt: candidate, contents: recorder.readFile(abs) };
    } catch (err) {
      if (err instanceof CacheFileError) throw new ImportError(`couldn't open import ${quoted(path)}: ${err.message}`);
      throw err;
    }
  };

  /** Fetched body of an http(s) URL; undefined when the server said 404/410. */
  const readHttp = (path: string, url: string): Found | undefined => {
    const entry = remote(path).http(url);
    if (entry.status === 'ok') return { foundAt: url, contents: entry.bytes };
    if (entry.status === 'not-found') return undefined;
    throw new ImportError(`couldn't open import ${quoted(path)}: ${entry.message}`);
  };

  const readOci = (path: string, url: string, importedFrom: string): Found => {
    const s = remote(path);
    const parsed = parseOciImportUrl(url);
    const reference = formatReference(parsed.reference);
    const pinned = parsed.reference.digest !== undefined;
    const bundle =
      (isOciUrl(importedFrom) && pinned ? s.bundleByPinned(reference) : undefined) ?? s.oci(reference, pinned);
    if (bundle.status === 'error') throw new ImportError(`couldn't open import ${quoted(path)}: ${bundle.message}`);
    const enabled = new Set(s.enabledFeatures);
    const missing = bundle.features.filter((f) => !enabled.has(f)).sort();
    if (missing.length > 0)
      throw new ImportError(
        `couldn't open import ${quoted(path)}: the bundle needs feature${missing.length > 1 ? 's' : ''} ` +
          `${missing.join(', ')}, not enabled in this invocation (enable with --features=${missing.join(',')}; ` +
          `a bundle never turns features on by itself)`,
      );
    const file = parsed.path !== '' ? parsed.path : bundle.entrypoint;
    if (file === '')
      throw new ImportError(
        `couldn't open import ${quoted(path)}: the bundle has no entrypoint, so import a file inside it (oci://.../path/in/bundle)`,
      );
    const data = bundle.files[file];
    if (data === undefined) {
      const has = Object.keys(bundle.files).sort().join(', ');
      throw new ImportError(
        `couldn't open import ${quoted(path)}: bundle ${bundle.pinned} has no file ${JSON.stringify(file)} (it has: ${has})`,
      );
    }
    return { foundAt: `oci://${bundle.pinned}/${file}`, contents: data };
  };

  /**
   * Hazard 24, transitive case (Dhall's rule): remote code may name another
   * remote origin (an absolute http(s) or oci:// location on another host)
   * only when that host is on --allow-import-host.
   */
  const checkTransitive = (importedFrom: string, path: string): void => {
    const from = originOf(importedFrom);
    const to = originOf(path);
    if (!from || !to || from.host === to.host) return;
    if (hostAllowed(session?.policy.allowHosts ?? [], to.hostname)) return;
    throw new ImportError(
      `couldn't open import ${quoted(path)}: ${importedFrom} was fetched from ${from.host} and may import from ` +
        `another host only if allowed with --allow-import-host ${to.hostname}`,
    );
  };

  const candidatesFor = (importedFrom: string, path: string): Candidate[] => {
    const urls = (base: string): Candidate[] =>
      [base, ...(session?.jurl ?? [])].map((b) => ({ url: new URL(path, b).href }));
    if (isHttpUrl(importedFrom)) return urls(importedFrom);
    // Remote code never reads local files: a bundle's file:// or other scheme is not a bundle path.
    if (isOciUrl(importedFrom))
      throw new ImportError(
        `couldn't open import ${quoted(path)}: a file of an OCI bundle imports files of its own bundle, or remote locations`,
      );
    if (isDataUrl(importedFrom))
      throw new ImportError(`couldn't open import ${quoted(path)}: a data: URL has no base for relative imports`);
    const local = path.startsWith('file://') ? decodeURIComponent(path.slice('file://'.length)) : path;
    if (isAbsolute(local)) {
      // A file's own absolute import leaves any root by construction; flags' files come as snippets.
      if (root !== undefined && !(importedFrom === '' || importedFrom.startsWith('<')))
        throw new ImportError(`couldn't open import ${quoted(path)}: absolute import paths are refused under --root`);
      return [{ local }];
    }
    // Snippet names (`<cmdline>`, `<extvar:x>`) have no directory part: dirname gives '.', the cwd.
    const base = importedFrom === '' ? '.' : dirname(importedFrom);
    return [
      { local: join(base, local) },
      ...jpath.map((dir) => ({ local: join(dir, local) })),
      ...(session?.jurl ?? []).map((u) => ({ url: new URL(local, u).href })),
    ];
  };

  const locate = (importedFrom: string, path: string): Found => {
    if (path === BUILTIN_LIB_URL) return { foundAt: BUILTIN_LIB_URL, contents: BUILTIN_LIB_BYTES };
    if (isDataUrl(path)) return { foundAt: path, contents: decodeDataUrl(path) };
    checkTransitive(importedFrom, path);
    if (isOciUrl(path)) return readOci(path, path, importedFrom);
    if (isOciUrl(importedFrom) && !/^[a-z][a-z0-9+.-]*:/i.test(path))
      return readOci(path, resolveInBundle(importedFrom, path), importedFrom);
    if (isHttpUrl(path)) {
      const found = readHttp(path, new URL(path).href);
      if (found) return found;
      throw new ImportError(`couldn't open import ${quoted(path)}: not found (404)`);
    }
    const tried: string[] = [];
    for (const c of candidatesFor(importedFrom, path)) {
      const found = 'url' in c ? readHttp(path, c.url) : readLocal(path, c.local);
      if (found) return found;
      tried.push('url' in c ? c.url : c.local);
    }
    if (path === 'kubecfg.libsonnet') return { foundAt: BUILTIN_LIB_URL, contents: BUILTIN_LIB_BYTES };
    if (isHttpUrl(importedFrom) || (session?.jurl.length ?? 0) > 0)
      throw new ImportError(
        `couldn't open import ${quoted(path)}: no match locally or in library search paths. Tried: ${tried.join(';')}`,
      );
    throw new ImportError(`couldn't open import ${quoted(path)}: no match locally or in the Jsonnet library paths`);
  };

  /** Every failure of a lookup as the ImportError the engine reports with its location. */
  const guarded = (path: string, fn: () => Found): Found => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ImportError) throw err;
      if (err instanceof RemoteInputPending) throw new ImportError(err.message);
      if (err instanceof OutsideRootError || err instanceof DataUrlError) throw new ImportError(err.message);
      if (err instanceof OciError) throw new ImportError(err.message);
      if (err instanceof TypeError && /URL/i.test(err.message))
        throw new ImportError(`couldn't open import ${quoted(path)}: not a valid URL`);
      throw err;
    }
  };

  /** A scheme behind a feature gate: refused, as an import error naming the import, unless the gate is on. */
  const requireGate = (feature: string, path: string): void => {
    if (!gates) throw new ImportError(`${path}: ${feature} is an alpha feature; turn it on with --features=${feature}`);
    try {
      gates.require(feature, path);
    } catch (err) {
      if (err instanceof FeatureError) throw new ImportError(err.message);
      throw err;
    }
  };

  return {
    load(importedFrom, path, kind) {
      if (path.startsWith(BINARY_SCHEME)) {
        requireGate('binary-import', path);
        const found = guarded(path, () => locate(importedFrom, path.slice(BINARY_SCHEME.length)));
        return { foundAt: BINARY_SCHEME + found.foundAt, contents: byteArrayText(found.contents) };
      }
      if (path.startsWith(KUSTOMIZE_SCHEME)) {
        requireGate('kustomize-import', path);
        throw new ImportError(
          `couldn't open import ${quoted(path)}: kustomize builds are not part of this kubecfg ` +
            `(kubecfg runs kustomize on the URL); build it with kustomize and import the YAML with std.parseYaml(importstr ...)`,
        );
      }
      if (!path.startsWith(YAKL_SCHEME)) return guarded(path, () => locate(importedFrom, path));
      const location = path.slice(YAKL_SCHEME.length);
      requireGate('yakl', path);
      if (kind !== 'import') {
        throw new ImportError(
          `${kind} ${JSON.stringify(path)}: the yakl: scheme compiles a file for import; ` +
            `${kind} ${JSON.stringify(location)} gives the file as it is`,
        );
      }
      const found = guarded(path, () => locate(importedFrom, location));
      const { module } = compiledYakl(found.foundAt, found.contents);
      return { foundAt: YAKL_SCHEME + found.foundAt, contents: found.contents, module };
    },
  };
}

/** `[31,139,8,...]`: the bytes as the Jsonnet (and JSON) text of an array of numbers, in ASCII. */
function byteArrayText(bytes: Uint8Array): Uint8Array {
  const parts = new Array<string>(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = String(bytes[i]);
  return new TextEncoder().encode(`[${parts.join(',')}]`);
}
