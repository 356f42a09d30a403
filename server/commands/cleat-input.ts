/**
 * A `.cleat` file as an input of show, diff and update (feature `cleat`): the
 * program is exported with the plain target and no inputs beyond its
 * defaults, and its documents (a JSON list, one element per document) go
 * through the same object discovery as an evaluated Jsonnet value (Lists
 * expanded, non-objects reported at their `$[i]` path). Files are read
 * through cleat-loader.ts under the project root rule (spec §4.1): the root is
 * the nearest directory with `.git` at or above the file, else its directory.
 * Diagnostics become the input's error, one `file:line:col: CODE: message`
 * per line.
 */
import type { DependencyRecorder } from '../../cache/index.js';
import type { JsonValue } from '../../lang/common/json.js';
import { exportProgram } from '../../lang/cleat/index.js';
import type { Gates } from '../../render/features/gates.js';
import { CleatFileError } from './cleat-loader.js';
import { diagnosticsText, openProgram } from './cleat.js';
import { Flags } from './flags.js';
import type { CommandParams } from '../../protocol/index.js';

export function isCleatFile(path: string): boolean {
  return path.endsWith('.cleat');
}

/** The `cleat` gate for every .cleat input, checked before any input is read. */
export function requireCleatGate(gates: Gates, inputs: readonly string[]): void {
  for (const input of inputs) if (isCleatFile(input)) gates.require('cleat', input);
}

export interface CleatInput {
  documents: JsonValue[];
  /** False when a read went through a symlink (its facts are not among the deps). */
  cacheable: boolean;
}

/** Exports `arg` (relative to the client's cwd); throws an Error whose message is the diagnostics. */
export function exportCleatInput(arg: string, params: CommandParams, recorder: DependencyRecorder): CleatInput {
  const single: CommandParams = { ...params, args: [arg], flags: {} };
  const program = openProgram(new Flags('cleat-export', single), single, recorder);
  const result = exportProgram(program.source, program.loader, {}, { target: 'plain', format: 'json' });
  if (!result.ok) throw new CleatFileError(diagnosticsText(result.diagnostics).trimEnd());
  return { documents: result.documents, cacheable: program.pathsAreReal && !program.loader.uncacheable };
}
