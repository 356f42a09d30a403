/**
 * The manifest of a remote render: every file under the root, by
 * root-relative path → digest. In a git checkout the root is the top level and
 * clean tracked files take their blob id from the index (`git ls-files -s`:
 * no file is read); files `git diff-files` reports as changed, untracked files
 * that are not ignored, and everything outside git are read and hashed
 * (sha256). Ignored files are not sent.
 *
 * Symlinks (hazard 1): a link is followed one path step at a time, and every
 * step must stay inside the root (an out-and-back link `../<root>/f` leaves
 * it, so it is refused); absolute targets are refused; more than 10 hops is an
 * error. A good link is sent as the file it names; a bad one is left out with
 * a warning naming only its root-relative path, so a render that reads it
 * finds it missing. FIFOs, sockets and devices are skipped by lstat, never opened.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_MAX_FILES, manifestPathProblem } from '../../protocol/index.js';

export class ManifestError extends Error {}

export interface Manifest {
  root: string;
  files: Record<string, string>;
  /** Where to read the bytes of a root-relative path (the link target for a symlink). */
  sources: Map<string, string>;
  warnings: string[];
  /** How many digests came from the git index without reading the file. */
  fromIndex: number;
}

const MAX_LINK_HOPS = 10;
const MAX_TOTAL_BYTES = 1024 * 1024 * 1024;

function git(cwd: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch {
    return undefined;
  }
}

/** The git top level containing cwd, or undefined outside a checkout. */
export function gitTopLevel(cwd: string): string | undefined {
  return git(cwd, ['rev-parse', '--show-toplevel'])?.trim() || undefined;
}

export function sha256Digest(bytes: Uint8Array): string {
  return 'sha256:' + createHash('sha256').update(bytes).digest('hex');
}

type Resolved =
  { kind: 'file'; rel: string } | { kind: 'dir'; rel: string } | { kind: 'refused'; why: string } | { kind: 'skip' };

/**
 * Resolves a root-relative path whose components may be symlinks, checking
 * that every step stays inside the root. Returns the final root-relative
 * regular file or directory.
 */
export function resolveInRoot(root: string, rel: string): Resolved {
  const pending = rel.split('/');
  const done: string[] = [];
  let hops = 0;
  while (pending.length) {
    const part = pending.shift()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (done.length === 0) return { kind: 'refused', why: 'it points outside the render root' };
      done.pop();
      continue;
    }
    done.push(part);
    let st: Stats;
    try {
      st = lstatSync(join(root, ...done));
    } catch {
      return { kind: 'refused', why: 'it points to a path that does not exist' };
    }
    if (st.isSymbolicLink()) {
      if (++hops > MAX_LINK_HOPS)
        return { kind: 'refused', why: `more than ${MAX_LINK_HOPS} symlink hops (or a cycle)` };
      const target = readlinkSync(join(root, ...done));
      if (target.startsWith('/')) return { kind: 'refused', why: 'it points to an absolute path' };
      done.pop();
      pending.unshift(...target.split('/'));
      continue;
    }
    if (pending.length === 0) {
      if (st.isFile()) return { kind: 'file', rel: done.join('/') };
      if (st.isDirectory()) return { kind: 'dir', rel: done.join('/') };
      return { kind: 'skip' };
    }
    if (!st.isDirectory()) return { kind: 'refused', why: 'it points to a path that does not exist' };
  }
  return done.length ? { kind: 'dir', rel: done.join('/') } : { kind: 'dir', rel: '' };
}

class Builder {
  readonly files: Record<string, string> = Object.create(null) as Record<string, string>;
  readonly sources = new Map<string, string>();
  readonly warnings: string[] = [];
  private total = 0;
  fromIndex = 0;

  constructor(readonly root: string) {}

  add(rel: string, digest: string, source: string): void {
    if (manifestPathProblem(rel) !== undefined) {
      this.warnings.push(`left out ${JSON.stringify(rel)}: not a usable path name`);
      return;
    }
    if (Object.keys(this.files).length >= MANIFEST_MAX_FILES && !(rel in this.files))
      throw new ManifestError(
        `more than ${MANIFEST_MAX_FILES} files under ${this.root}; render from a smaller directory`,
      );
    this.files[rel] = digest;
    this.sources.set(rel, source);
  }

  hash(rel: string, source: string): void {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(this.root, source));
    } catch {
      return; // deleted or unreadable since it was listed: simply not part of the manifest
    }
    this.total += bytes.byteLength;
    if (this.total > MAX_TOTAL_BYTES) throw new ManifestError(`more than ${MAX_TOTAL_BYTES} bytes under ${this.root}`);
    this.add(rel, sha256Digest(bytes), source);
  }

  /** A listed path that may be a symlink, a directory (untracked trees) or irregular. */
  addPath(rel: string, depth = 0): void {
    let st: Stats;
    try {
      st = lstatSync(join(this.root, rel));
    } catch {
      return;
    }
    if (st.isFile()) return this.hash(rel, rel);
    if (st.isSymbolicLink()) {
      const r = resolveInRoot(this.root, rel);
      if (r.kind === 'refused') this.warnings.push(`left out symlink ${JSON.stringify(rel)}: ${r.why}`);
      else if (r.kind === 'file') this.hash(rel, r.rel);
      else if (r.kind === 'dir' && depth < MAX_LINK_HOPS) this.walk(rel, r.rel, depth + 1);
      return;
    }
    if (st.isDirectory() && depth < MAX_LINK_HOPS) this.walk(rel, rel, depth);
    // FIFOs, sockets, devices: never opened.
  }

  /** Adds the files of directory `source` under the manifest prefix `prefix`. */
  walk(prefix: string, source: string, depth: number): void {
    let names: string[];
    try {
      names = readdirSync(join(this.root, source));
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (name === '.git') continue;
      const rel = prefix ? `${prefix}/${name}` : name;
      const src = source ? `${source}/${name}` : name;
      if (src === rel) this.addPath(rel, depth);
      else {
        const st = lstatSync(join(this.root, src));
        if (st.isFile()) this.hash(rel, src);
        else if (st.isDirectory() && depth < MAX_LINK_HOPS) this.walk(rel, src, depth + 1);
        else if (st.isSymbolicLink()) {
          const r = resolveInRoot(this.root, src);
          if (r.kind === 'refused') this.warnings.push(`left out symlink ${JSON.stringify(rel)}: ${r.why}`);
          else if (r.kind === 'file') this.hash(rel, r.rel);
          else if (r.kind === 'dir' && depth < MAX_LINK_HOPS) this.walk(rel, r.rel, depth + 1);
        }
      }
    }
  }

  result(): Manifest {
    return {
      root: this.root,
      files: this.files,
      sources: this.sources,
      warnings: this.warnings,
      fromIndex: this.fromIndex,
    };
  }
}

function splitZ(text: string | undefined): string[] {
  return (text ?? '').split('\0').filter((s) => s !== '');
}

/** The manifest of a git checkout's top level: the index for clean tracked files, hashing for the rest. */
function fromGit(root: string): Manifest | undefined {
  if (git(root, ['rev-parse', '--show-object-format'])?.trim() !== 'sha1') return undefined;
  const staged = git(root, ['ls-files', '-s', '-z']);
  const changed = git(root, ['diff-files', '--name-only', '-z']);
  const untracked = git(root, ['ls-files', '-o', '--exclude-standard', '-z']);
  if (staged === undefined || changed === undefined || untracked === undefined) return undefined;
  const dirty = new Set(splitZ(changed));
  const b = new Builder(root);
  for (const line of splitZ(staged)) {
    // "<mode> <object> <stage>\t<path>"
    const tab = line.indexOf('\t');
    const [mode, object, stage] = line.slice(0, tab).split(' ');
    const rel = line.slice(tab + 1);
    if (stage !== '0' && stage !== undefined) {
      // Merge conflict entries: hash what is in the work tree, once.
      if (!(rel in b.files)) b.addPath(rel);
      continue;
    }
    if (mode === '160000') continue; // submodule: its files are another repository's
    if (mode === '100644' || mode === '100755') {
      if (dirty.has(rel)) b.addPath(rel);
      else {
        b.add(rel, `git-sha1:${object}`, rel);
        b.fromIndex++;
      }
    } else b.addPath(rel); // symlinks: checked and followed like any other
  }
  for (const rel of splitZ(untracked)) b.addPath(rel);
  return b.result();
}

export function buildManifest(root: string, inGit: boolean): Manifest {
  const viaGit = inGit ? fromGit(root) : undefined;
  if (viaGit) return viaGit;
  const b = new Builder(root);
  b.walk('', '', 0);
  return b.result();
}

/** The bytes behind a manifest path (read at upload time). */
export function readManifestFile(m: Manifest, rel: string): Buffer {
  return readFileSync(join(m.root, m.sources.get(rel) ?? rel));
}
