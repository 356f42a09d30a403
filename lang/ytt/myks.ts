/**
 * Which files myks's legacy (ytt) path hands to ytt for one environment leaf
 * and one application, in myks's order: the ytt library directories, the
 * env-data files of every level from the root down, then the application's
 * app-data files (prototype, `_proto/<proto>/` of every level, `_apps/<app>/`
 * of every level). Pure: directories are listed through the injected tree.
 */
export interface MyksTree {
  /** entry names of a directory (files and directories), undefined when it does not exist */
  list(dir: string): string[] | undefined;
  isDir(path: string): boolean;
}

export interface MyksLeafFiles {
  /** env-data*.yaml of every level, root first */
  envData: string[];
  /** the library `load()` reaches: name (relative to its library directory) → path */
  library: Record<string, string>;
}

export interface MyksAppFiles extends MyksLeafFiles {
  /** app-data*.yaml of the prototype, then `_proto/<proto>/` and `_apps/<app>/` of every level */
  appData: string[];
}

export interface MyksLayout {
  /** the repository's ytt library directory (myks's ytt-library-dir-name), default `lib` */
  libDir?: string;
  prototypesDir?: string;
  envDataGlob?: RegExp;
  appDataGlob?: RegExp;
}

const ENV_DATA = /^env-data.*\.yaml$/;
const APP_DATA = /^app-data.*\.yaml$/;

function join(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}

/** The level directories of an environment, root first: `envs/a/b` → envs, envs/a, envs/a/b. */
export function envLevels(envDir: string): string[] {
  const parts = envDir.split('/').filter((p) => p !== '');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** filepath.Glob: matching names, sorted bytewise */
function glob(tree: MyksTree, dir: string, pattern: RegExp): string[] {
  const names = tree.list(dir) ?? [];
  return names
    .filter((n) => pattern.test(n) && !tree.isDir(join(dir, n)))
    .sort()
    .map((n) => join(dir, n));
}

function addLibraryDir(tree: MyksTree, dir: string, library: Record<string, string>, rel = ''): void {
  for (const name of (tree.list(join(dir, rel)) ?? []).sort()) {
    const r = join(rel, name);
    const p = join(dir, r);
    if (tree.isDir(p)) addLibraryDir(tree, dir, library, r);
    else {
      const m = /^_ytt_lib\/([^/]+)\/(.*)$/.exec(r);
      library[m ? `@${m[1]}:${m[2]}` : r] = p;
    }
  }
}

/** The files of one environment leaf (what myks resolves its environment data from). */
export function myksLeafFiles(tree: MyksTree, envDir: string, layout: MyksLayout = {}): MyksLeafFiles {
  const library: Record<string, string> = {};
  const libDir = layout.libDir ?? 'lib';
  if (tree.isDir(libDir)) addLibraryDir(tree, libDir, library);
  const envData = envLevels(envDir).flatMap((l) => glob(tree, l, layout.envDataGlob ?? ENV_DATA));
  return { envData, library };
}

/** The files of one application of an environment leaf. */
export function myksAppFiles(
  tree: MyksTree,
  envDir: string,
  proto: string,
  app: string,
  layout: MyksLayout = {},
): MyksAppFiles {
  const leaf = myksLeafFiles(tree, envDir, layout);
  const protoDir = join(layout.prototypesDir ?? 'prototypes', proto);
  const levels = envLevels(envDir);
  const libs = [
    join(protoDir, 'lib'),
    ...levels.map((l) => join(l, '_proto', proto, 'lib')),
    ...levels.map((l) => join(l, '_apps', app, 'lib')),
  ];
  for (const d of libs) if (tree.isDir(d)) addLibraryDir(tree, d, leaf.library);
  const pat = layout.appDataGlob ?? APP_DATA;
  const appData = [
    ...glob(tree, protoDir, pat),
    ...levels.flatMap((l) => glob(tree, join(l, '_proto', proto), pat)),
    ...levels.flatMap((l) => glob(tree, join(l, '_apps', app), pat)),
  ];
  return { ...leaf, appData };
}
