/**
 * `kubecfg show --export-dir DIR`: one file per object instead of stdout, as
 * kubecfg's pkg/kubecfg/show.go does. The directory is created if needed and
 * must be empty; each file name comes from --export-filename-format, a Go
 * template with sprig's functions plus `resourceIndex .` (the object's index
 * in the stream); `/` in the format's literal text makes subdirectories, `/`
 * produced by the template becomes `-` (render/export-names.ts). Files are
 * created exclusively (never overwritten) and a name that would leave DIR is
 * refused. A YAML file holds `---` and the object; a JSON file the indented
 * object, preceded by `---` for every object after the first (kubecfg's
 * framing, kept for byte-compatibility).
 *
 * `show --watch --export-dir DIR` (ours) replaces the directory's content on
 * each render instead: every file is written to a temporary name beside it and
 * renamed into place (a reader sees the old file or the new one, never half of
 * one); then the files of objects that disappeared are removed, with the
 * subdirectories this left empty. Only files kubecfg wrote are ever replaced or
 * removed: they are listed in DIR/.kubecfg-export (written last, atomically).
 * A render that would overwrite a file not in that list fails before writing
 * anything; other foreign files are left alone. The first render needs DIR
 * empty (or missing), or holding that list from an earlier `--watch`.
 */
import { readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { makeDirs, replaceUserFile, writeUserFile } from './user-files.js';
import { dirname, resolve, sep } from 'node:path';
import type { JsonObject } from '../../lang/common/json.js';
import { parseTemplate, profiles, pure } from '../../lang/gotemplate/index.js';
import {
  EXPORT_INDEX_KEY,
  exportFileName,
  exportTemplateData,
  exportTemplateText,
  formatJsonObjects,
  formatYamlDocuments,
} from '../../render/index.js';
import { KubecfgError } from '../../lang/common/errors.js';

export class ExportError extends KubecfgError {
  readonly code = 'CMD_EXPORT_DIR';
}

export interface ExportOptions {
  /** Absolute directory. */
  dir: string;
  /** As the user typed it, for messages. */
  dirName: string;
  format: 'yaml' | 'json';
  fileNameFormat: string;
  /** --export-filename-extension, else the format. */
  extension: string;
  /** The client's umask, for the directories and files created (user-files.ts). */
  umask: number;
  /** `show --watch`: replace what an earlier render exported (see above) instead of needing an empty directory. */
  replace?: boolean;
}

/** The list of files kubecfg exported, kept in the directory by `--watch` renders. */
export const EXPORT_LIST = '.kubecfg-export';

/** Writes the files; returns the paths written (relative to the directory), in order. */
export function exportObjects(objects: JsonObject[], opts: ExportOptions): string[] {
  makeDirs(opts.dir, opts.umask);
  if (opts.replace) return replaceExport(objects, opts);
  if (readdirSync(opts.dir).length > 0) throw new ExportError(`export directory "${opts.dirName}" is not empty`);
  const written: string[] = [];
  for (const { relative, path, content } of planFiles(objects, opts)) {
    try {
      writeUserFile(path, content, opts.umask, { exclusive: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new ExportError(
        code === 'EEXIST'
          ? `two objects export to the same file "${relative}"`
          : `cannot write ${relative}: ${(err as Error).message}`,
      );
    }
    written.push(relative);
  }
  return written;
}

interface PlannedFile {
  relative: string;
  path: string;
  content: string;
}

/** Every object's file name and content, checked to stay inside the directory. */
function planFiles(objects: JsonObject[], opts: ExportOptions): PlannedFile[] {
  const functions = profiles.sprig.extend({
    resourceIndex: pure(['map'], (obj: Record<string, unknown>) =>
      Object.hasOwn(obj, EXPORT_INDEX_KEY) ? obj[EXPORT_INDEX_KEY] : 0,
    ),
  });
  const template = parseTemplate('export-filename-format', exportTemplateText(opts.fileNameFormat), {
    functions,
    clock: () => Date.now(),
  });
  return objects.map((object, index) => {
    const rendered = template.execute('export-filename-format', exportTemplateData(object, index));
    const relative = exportFileName(rendered, opts.extension);
    const path = resolve(opts.dir, relative);
    if (!path.startsWith(opts.dir + sep))
      throw new ExportError(
        `export file name "${relative}" (object ${index}) leaves the export directory "${opts.dirName}"`,
      );
    const content =
      opts.format === 'yaml' ? formatYamlDocuments([object]) : (index > 0 ? '---\n' : '') + formatJsonObjects([object]);
    return { relative, path, content };
  });
}

/** The files an earlier `--watch` render exported, or undefined when the directory holds no list. */
function readExportList(opts: ExportOptions): Set<string> | undefined {
  let text: string;
  try {
    text = readFileSync(resolve(opts.dir, EXPORT_LIST), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ExportError(`cannot read ${opts.dirName}/${EXPORT_LIST}: ${(err as Error).message}`);
  }
  let files: unknown;
  try {
    files = (JSON.parse(text) as { files?: unknown }).files;
  } catch {
    files = undefined;
  }
  if (!Array.isArray(files) || !files.every((f) => typeof f === 'string' && inside(opts.dir, f)))
    throw new ExportError(
      `${opts.dirName}/${EXPORT_LIST} is not the list kubecfg writes; remove it, or export to another directory`,
    );
  return new Set(files as string[]);
}

function inside(dir: string, relative: string): boolean {
  return resolve(dir, relative).startsWith(dir + sep);
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function replaceExport(objects: JsonObject[], opts: ExportOptions): string[] {
  const previous = readExportList(opts);
  if (previous === undefined && readdirSync(opts.dir).length > 0)
    throw new ExportError(
      `export directory "${opts.dirName}" is not empty (show --watch replaces only what it exported there itself)`,
    );
  const owned = previous ?? new Set<string>();
  const planned = planFiles(objects, opts);
  // Every check before the first write: a refused render changes nothing.
  const names = new Set<string>();
  for (const f of planned) {
    if (names.has(f.relative)) throw new ExportError(`two objects export to the same file "${f.relative}"`);
    names.add(f.relative);
    if (!owned.has(f.relative) && exists(f.path))
      throw new ExportError(`export file "${f.relative}" exists and was not written by kubecfg; it is left alone`);
  }
  for (const f of planned) {
    try {
      replaceUserFile(f.path, f.content, opts.umask);
    } catch (err) {
      throw new ExportError(`cannot write ${f.relative}: ${(err as Error).message}`);
    }
  }
  for (const old of owned) {
    if (names.has(old)) continue;
    const path = resolve(opts.dir, old);
    rmSync(path, { force: true });
    // Subdirectories the removal emptied go too (never DIR itself, never a non-empty one).
    for (let d = dirname(path); d.startsWith(opts.dir + sep); d = dirname(d)) {
      try {
        rmdirSync(d);
      } catch {
        break;
      }
    }
  }
  replaceUserFile(
    resolve(opts.dir, EXPORT_LIST),
    JSON.stringify({ files: planned.map((f) => f.relative) }, null, 2) + '\n',
    opts.umask,
  );
  return planned.map((f) => f.relative);
}
