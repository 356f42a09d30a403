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
 */
import { readdirSync } from 'node:fs';
import { makeDirs, writeUserFile } from './user-files.js';
import { resolve, sep } from 'node:path';
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
}

/** Writes the files; returns the paths written (relative to the directory), in order. */
export function exportObjects(objects: JsonObject[], opts: ExportOptions): string[] {
  makeDirs(opts.dir, opts.umask);
  if (readdirSync(opts.dir).length > 0) throw new ExportError(`export directory "${opts.dirName}" is not empty`);
  const functions = profiles.sprig.extend({
    resourceIndex: pure(['map'], (obj: Record<string, unknown>) =>
      Object.hasOwn(obj, EXPORT_INDEX_KEY) ? obj[EXPORT_INDEX_KEY] : 0,
    ),
  });
  const template = parseTemplate('export-filename-format', exportTemplateText(opts.fileNameFormat), {
    functions,
    clock: () => Date.now(),
  });
  const written: string[] = [];
  objects.forEach((object, index) => {
    const rendered = template.execute('export-filename-format', exportTemplateData(object, index));
    const relative = exportFileName(rendered, opts.extension);
    const path = resolve(opts.dir, relative);
    if (!path.startsWith(opts.dir + sep))
      throw new ExportError(
        `export file name "${relative}" (object ${index}) leaves the export directory "${opts.dirName}"`,
      );
    const content =
      opts.format === 'yaml' ? formatYamlDocuments([object]) : (index > 0 ? '---\n' : '') + formatJsonObjects([object]);
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
  });
  return written;
}
