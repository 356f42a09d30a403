/**
 * The files `kubecfg pack` puts in a bundle: the entry file and everything it
 * imports, transitively. Jsonnet files are parsed and their `import`,
 * `importstr` and `importbin` paths followed; `.yakl` files (the entry, or
 * `import 'yakl:FILE'`) are compiled only to find their imports and are
 * shipped as source, so the bundle needs the `yakl` feature; `importstr` and
 * `importbin` targets are data, shipped as is and never parsed, and so are
 * `binary://` targets, whose bundle then needs the `binary-import` feature.
 *
 * Resolution is the importer's (importer.ts): absolute paths as they are,
 * else relative to the importing file, then each -J directory in order; the
 * built-in kubecfg.libsonnet (`internal:///…`, or a bare `kubecfg.libsonnet`
 * found nowhere) is left out, as kubecfg leaves it out.
 *
 * Invariants: every file read goes through the request's DependencyRecorder;
 * every file lies inside `root` (a bundle never carries a file from outside
 * the project it was packed from); remote imports (oci://, http(s)://) are
 * refused, since a bundle must be self-contained; every error names the
 * importing file's line and column.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CacheFileError, type DependencyRecorder } from '../../cache/index.js';
import { SourceFile, formatLocation, type Span } from '../../lang/common/source.js';
import { parseModule, type ImportRef } from '../../lang/jsonnet/index.js';
import type { Gates } from '../../render/features/gates.js';
import { BINARY_SCHEME, BUILTIN_LIB_URL, YAKL_SCHEME } from './importer.js';
import { compiledYakl } from './yakl-compile.js';
import { KubecfgError } from '../../lang/common/errors.js';

/** A pack problem: the message says where (file:line:col or path) and why. */
export class PackError extends KubecfgError {
  readonly code = 'CMD_PACK';
}

export interface PackClosureOptions {
  /** Absolute path of the entry file. */
  entry: string;
  /** Absolute directory every packed file must lie in. */
  root: string;
  /** -J directories, absolute, in search order. */
  jpath: readonly string[];
  recorder: DependencyRecorder;
  gates: Gates;
  /** How a file is named in messages (e.g. relative to the client's cwd); absolute by default. */
  displayName?: (absolutePath: string) => string;
}

export interface PackClosure {
  /** Absolute path → contents, for every file of the bundle (the entry included). */
  files: Map<string, Uint8Array>;
  /** Features the bundle needs to evaluate (`yakl` when it carries YAKL source). */
  features: Set<string>;
}

type FileKind = 'jsonnet' | 'yakl' | 'data';

interface Pending {
  path: string;
  kind: FileKind;
  /** Where it was imported, for messages; absent for the entry. */
  from?: Span;
  /** The feature its import scheme needs (`binary-import` for `binary://`), which the bundle then records. */
  feature?: string;
}

const REMOTE = /^(?:oci|https?):\/\//;

export function collectPackClosure(opts: PackClosureOptions): PackClosure {
  const files = new Map<string, Uint8Array>();
  const kinds = new Map<string, FileKind>();
  const features = new Set<string>();
  const entryKind: FileKind = opts.entry.endsWith('.yakl') ? 'yakl' : 'jsonnet';
  const queue: Pending[] = [{ path: opts.entry, kind: entryKind }];
  while (queue.length > 0) {
    const next = queue.shift()!;
    const seenKind = kinds.get(next.path);
    // The same file may be both imported and importstr'd: it is shipped once, but parsed if any import parses it.
    if (seenKind !== undefined && (seenKind === next.kind || next.kind === 'data')) continue;
    checkInsideRoot(next, opts.root);
    const contents = files.get(next.path) ?? readOne(next, opts.recorder);
    files.set(next.path, contents);
    kinds.set(next.path, seenKind === undefined ? next.kind : mergeKinds(seenKind, next.kind));
    if (next.feature !== undefined) {
      opts.gates.require(next.feature, `pack: ${next.path}`);
      features.add(next.feature);
    }
    if (next.kind === 'data') continue;
    if (next.kind === 'yakl') {
      opts.gates.require('yakl', `pack: ${next.path}`);
      features.add('yakl');
    }
    for (const ref of importsOf(next, contents, opts.displayName ?? ((p) => p))) {
      const target = resolveImport(next.path, ref, opts);
      if (target !== undefined) queue.push(target);
    }
  }
  return { files, features };
}

function mergeKinds(a: FileKind, b: FileKind): FileKind {
  if (a === 'data') return b;
  return a;
}

function readOne(file: Pending, recorder: DependencyRecorder): Uint8Array {
  try {
    return recorder.readFile(file.path);
  } catch (err) {
    if (err instanceof CacheFileError) throw new PackError(`${where(file)}${err.message}`);
    throw err;
  }
}

function where(file: Pending): string {
  return file.from ? `${formatLocation(file.from)}: ` : '';
}

function checkInsideRoot(file: Pending, root: string): void {
  const rel = relative(root, file.path);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
    throw new PackError(
      `${where(file)}${file.path} is outside the bundle root ${root}: a bundle only carries files ` +
        `from the directory tree of its entry file (the nearest directory with .git, else the entry's directory)`,
    );
  }
}

/** The imports of a Jsonnet or YAKL file (parse or compile errors surface as they are, located). */
function importsOf(file: Pending, contents: Uint8Array, displayName: (p: string) => string): readonly ImportRef[] {
  const name = displayName(file.path);
  if (file.kind === 'yakl') return compiledYakl(name, contents).module.imports;
  const text = new TextDecoder('utf-8').decode(contents);
  return parseModule(new SourceFile(name, text)).imports;
}

/** The file an import names, or undefined for the built-in library. */
function resolveImport(importer: string, ref: ImportRef, opts: PackClosureOptions): Pending | undefined {
  const at = `${formatLocation(ref.span)}: `;
  let path = ref.path;
  let kind: FileKind = ref.kind === 'import' ? 'jsonnet' : 'data';
  if (path === BUILTIN_LIB_URL) return undefined;
  if (path.startsWith(YAKL_SCHEME)) {
    if (ref.kind !== 'import')
      throw new PackError(`${at}${ref.kind} ${JSON.stringify(path)}: the yakl: scheme is for import only`);
    path = path.slice(YAKL_SCHEME.length);
    kind = 'yakl';
  }
  let feature: string | undefined;
  if (path.startsWith(BINARY_SCHEME)) {
    path = path.slice(BINARY_SCHEME.length);
    kind = 'data';
    feature = 'binary-import';
  }
  if (REMOTE.test(path)) {
    throw new PackError(
      `${at}${ref.kind} ${JSON.stringify(ref.path)}: a bundle must be self-contained; remote imports cannot be packed`,
    );
  }
  if (path.startsWith('internal:')) return undefined;
  const local = path.startsWith('file://') ? decodeURIComponent(path.slice('file://'.length)) : path;
  const candidates = isAbsolute(local)
    ? [local]
    : [join(dirname(importer), local), ...opts.jpath.map((dir) => join(dir, local))];
  for (const candidate of candidates) {
    const abs = resolve(candidate);
    if (opts.recorder.probe(abs)) return { path: abs, kind, from: ref.span, ...(feature ? { feature } : {}) };
  }
  if (local === 'kubecfg.libsonnet') return undefined;
  throw new PackError(
    `${at}couldn't open import ${JSON.stringify(ref.path)}: no match locally or in the Jsonnet library paths`,
  );
}
