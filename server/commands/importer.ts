/**
 * The Jsonnet importer the daemon gives the engine: every read and probe goes
 * through the request's DependencyRecorder, so the result cache knows the
 * exact import closure, including paths looked for and not found (negative
 * deps: a file appearing earlier on the search path invalidates).
 *
 * Resolution, as kubecfg: an absolute path (or file:// URL) as is; otherwise
 * relative to the importing file's directory, then each -J directory in order,
 * then the built-in kubecfg.libsonnet. Code that is not a file (`-e`,
 * --ext-code, `<extvar:…>` snippets) imports relative to the client's cwd
 * (RFC06: "a directory without a scheme is a path relative to the current
 * directory"). `internal:///kubecfg.libsonnet` always names the built-in copy.
 *
 * Names: `foundAt` keeps the spelling the user gave (`dir/lib.libsonnet` for
 * a relative input), as the jsonnet command shows it in errors; the recorder
 * always gets the absolute path against the *client's* cwd (the daemon's own
 * cwd means nothing).
 *
 * `import 'yakl:LOCATION'` (feature yakl) finds LOCATION as any import, then
 * serves the compiled .yakl file (worker cache by content, yakl-compile.ts).
 * Its `foundAt` keeps the scheme, so the engine's import cache never confuses
 * it with `importstr 'LOCATION'`, which returns the file's text; the module
 * itself carries the plain location so errors and nested imports use the
 * .yakl file's own name and directory.
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { CacheFileError, type DependencyRecorder } from '../../cache/index.js';
import { ImportError, type Importer } from '../../lang/jsonnet/index.js';
import { kubecfgLibsonnet } from '../../render/index.js';
import { FeatureError, type Gates } from '../../render/features/gates.js';
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
}

export const YAKL_SCHEME = 'yakl:';

export function createImporter(opts: ImporterOptions): Importer {
  const { recorder, cwd, jpath, gates } = opts;
  const locate = (importedFrom: string, path: string): { foundAt: string; contents: Uint8Array } => {
    if (path === BUILTIN_LIB_URL) return { foundAt: BUILTIN_LIB_URL, contents: BUILTIN_LIB_BYTES };
    if (/^https?:\/\//.test(path)) {
      throw new ImportError(
        `couldn't open import ${JSON.stringify(path)}: remote (http/https) imports are not available in this build`,
      );
    }
    const local = path.startsWith('file://') ? decodeURIComponent(path.slice('file://'.length)) : path;
    let candidates: string[];
    if (isAbsolute(local)) candidates = [local];
    else {
      // Snippet names (`<cmdline>`, `<extvar:x>`) have no directory part: dirname gives '.', the cwd.
      const base = importedFrom === '' ? '.' : dirname(importedFrom);
      candidates = [join(base, local), ...jpath.map((dir) => join(dir, local))];
    }
    for (const candidate of candidates) {
      const abs = resolve(cwd, candidate);
      if (!recorder.probe(abs)) continue;
      try {
        return { foundAt: candidate, contents: recorder.readFile(abs) };
      } catch (err) {
        if (err instanceof CacheFileError)
          throw new ImportError(`couldn't open import ${JSON.stringify(path)}: ${err.message}`);
        throw err;
      }
    }
    if (local === 'kubecfg.libsonnet') return { foundAt: BUILTIN_LIB_URL, contents: BUILTIN_LIB_BYTES };
    throw new ImportError(
      `couldn't open import ${JSON.stringify(path)}: no match locally or in the Jsonnet library paths`,
    );
  };
  return {
    load(importedFrom, path, kind) {
      if (!path.startsWith(YAKL_SCHEME)) return locate(importedFrom, path);
      const location = path.slice(YAKL_SCHEME.length);
      if (!gates) throw new ImportError(`${path}: yakl is an alpha feature; turn it on with --features=yakl`);
      try {
        gates.require('yakl', path);
      } catch (err) {
        if (err instanceof FeatureError) throw new ImportError(err.message);
        throw err;
      }
      if (kind !== 'import') {
        throw new ImportError(
          `${kind} ${JSON.stringify(path)}: the yakl: scheme compiles a file for import; ` +
            `${kind} ${JSON.stringify(location)} gives the file as it is`,
        );
      }
      const found = locate(importedFrom, location);
      const { module } = compiledYakl(found.foundAt, found.contents);
      return { foundAt: YAKL_SCHEME + found.foundAt, contents: found.contents, module };
    },
  };
}
