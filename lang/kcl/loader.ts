/**
 * Packages on disk, read through an injected host (pure: no fs here). The
 * module root is the nearest directory upwards holding kcl.mod (else the
 * entry's directory); `import a.b` is `<root>/a/b/` (every `.k` file but
 * `*_test.k`, sorted by name) or `<root>/a/b.k`; `import .a` is relative to
 * the importing file. A name not found under the root falls back to the
 * built-in packages (the `myks` package) and system modules (`regex`, `json`,
 * `yaml`, `base64`).
 */
import { dirname, join, posix } from 'node:path/posix';
import type { Module } from './ast.js';
import { KclError } from './errors.js';
import { Evaluator, FileUnit, Package } from './evaluator.js';
import { parseModule } from './parser.js';
import { systemModule } from './system-modules.js';
import { BUILTIN_PACKAGES } from './myks-package.js';
import type { KModule } from './value.js';

export interface KclHost {
  /** A file's text, or undefined when there is no such file. */
  readFile(path: string): string | undefined;
  /** A directory's entries, or undefined when it is not a directory. */
  listDir(path: string): readonly { readonly name: string; readonly dir: boolean }[] | undefined;
  /** Parses a file (the daemon caches parsed files by path and content); default: parse every time. */
  parse?(path: string, text: string): Module;
}

export class PackageLoader {
  readonly packages = new Map<string, Package>();
  readonly root: string;

  constructor(
    private readonly host: KclHost,
    entryDir: string,
  ) {
    this.root = findModRoot(host, entryDir) ?? entryDir;
  }

  private parse(path: string, text: string): Module {
    return this.host.parse ? this.host.parse(path, text) : parseModule(path, text);
  }

  /** The package of `files` (the `kcl run` entry). */
  entry(files: readonly string[]): Package {
    const pkg = new Package('__main__');
    const mods = files.map((f) => {
      const text = this.host.readFile(f);
      if (text === undefined) throw new KclError('CannotFindModule', `Cannot find the module ${f}: no such file`);
      return this.parse(f, text);
    });
    Evaluator.index(pkg, mods);
    this.packages.set(pkg.path, pkg);
    return pkg;
  }

  /** `.k` files of a directory, as `kcl` compiles them. */
  kFiles(dir: string): string[] | undefined {
    const list = this.host.listDir(dir);
    if (!list) return undefined;
    const names: string[] = [];
    for (const e of list) if (!e.dir && e.name.endsWith('.k') && !e.name.endsWith('_test.k')) names.push(e.name);
    names.sort();
    // A normalised absolute directory (what resolve builds) takes the names as they are; path.join
    // normalises every one otherwise.
    const plain = dir.startsWith('/') && !dir.endsWith('/') && !dir.includes('//') && !dir.includes('/.');
    return names.map((n) => (plain ? `${dir}/${n}` : join(dir, n)));
  }

  private readonly resolved = new Map<string, Package | KModule | undefined>();

  resolve(importPath: string, from: FileUnit): Package | KModule | undefined {
    // Absolute imports resolve the same from every file; relative ones per directory.
    const key = importPath.startsWith('.') ? `${dirname(from.fileKey)}\u0000${importPath}` : importPath;
    if (this.resolved.has(key)) return this.resolved.get(key);
    const r = this.resolveUncached(importPath, from);
    this.resolved.set(key, r);
    return r;
  }

  private resolveUncached(importPath: string, from: FileUnit): Package | KModule | undefined {
    let base: string;
    let rel: string;
    const m = /^(\.+)(.*)$/.exec(importPath);
    if (m) {
      base = dirname(from.fileKey);
      for (let i = 1; i < m[1]!.length; i++) base = dirname(base);
      rel = m[2]!;
    } else {
      base = this.root;
      rel = importPath;
    }
    const segs = rel.split('.').filter((s) => s !== '');
    const dir = join(base, ...segs);
    const key = posix.normalize(dir);
    const known = this.packages.get(key);
    if (known) return known;
    const files = this.kFiles(dir);
    let mods: Module[] | undefined;
    if (files && files.length > 0) mods = files.map((f) => this.parse(f, this.host.readFile(f) ?? ''));
    else {
      const text = this.host.readFile(dir + '.k');
      if (text !== undefined) mods = [this.parse(dir + '.k', text)];
    }
    if (!mods && !m) {
      const builtin = BUILTIN_PACKAGES.get(importPath);
      if (builtin) {
        const bkey = `<builtin>/${importPath}`;
        const cached = this.packages.get(bkey);
        if (cached) return cached;
        mods = builtin.map(([name, text]) => builtinModule(`<builtin>/${importPath}/${name}`, text));
        const pkg = new Package(importPath);
        Evaluator.index(pkg, mods);
        this.packages.set(bkey, pkg);
        return pkg;
      }
      return systemModule(importPath);
    }
    if (!mods) return undefined;
    const pkg = new Package(segs.join('.'));
    Evaluator.index(pkg, mods);
    this.packages.set(key, pkg);
    return pkg;
  }
}

/**
 * Built-in packages are part of the engine, like Jsonnet's std: parsed once per process, not once
 * per run (an AST is never changed once made).
 */
const BUILTIN_ASTS = new Map<string, Module>();
function builtinModule(path: string, text: string): Module {
  let m = BUILTIN_ASTS.get(path);
  if (m === undefined || m.text !== text) BUILTIN_ASTS.set(path, (m = parseModule(path, text)));
  return m;
}

function findModRoot(host: KclHost, dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (host.readFile(join(d, 'kcl.mod')) !== undefined) return d;
    if (dirname(d) === d) return undefined;
  }
}
