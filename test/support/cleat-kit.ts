/**
 * Test support: an in-memory loader over a map of files under `/repo`, and
 * helpers that run check/export and print diagnostics as
 * `line:col CODE message (at path)` for compact table assertions.
 */
import type { CleatLoader } from '../../lang/cleat/context.js';
import { check, exportProgram, type ExportOptions } from '../../lang/cleat/program.js';
import type { InputSources } from '../../lang/cleat/inputs.js';

export const ROOT = '/repo';

export function memoryLoader(files: Record<string, string>, root = ROOT): CleatLoader {
  return {
    root,
    read(path: string) {
      const rel = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined;
      const t = rel === undefined ? undefined : files[rel];
      return t === undefined ? { error: 'file not found' } : t;
    },
  };
}

export function short(d: {
  code: string;
  message: string;
  span?: { file: { position(o: number): { line: number; column: number } }; start: number };
  path?: string;
}): string {
  const p = d.span ? d.span.file.position(d.span.start) : undefined;
  return `${p ? `${p.line}:${p.column} ` : ''}${d.code} ${d.message}${d.path ? ` (at ${d.path})` : ''}`;
}

export function checkText(text: string, files: Record<string, string> = {}): string[] {
  const r = check({ path: `${ROOT}/main.cleat`, text }, memoryLoader(files));
  return r.diagnostics.map(short);
}

export function exportText(
  text: string,
  files: Record<string, string> = {},
  inputs: InputSources = {},
  options: ExportOptions = {},
): string {
  const r = exportProgram({ path: `${ROOT}/main.cleat`, text }, memoryLoader(files), inputs, options);
  if (!r.ok) return `ERROR\n${r.diagnostics.map(short).join('\n')}`;
  return r.text;
}
