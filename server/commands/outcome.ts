/**
 * What a command leaves behind, wherever it ran (worker, one-shot process,
 * remote render child): the worker protocol, the result cache and the
 * fetch rounds all carry this type, so it lives with the commands.
 */
import type { FileDep } from '../../cache/index.js';
import type { RemoteReport } from '../remote-inputs/remote-types.js';

/** What one command run produced. Output is returned whole: commands print after rendering. */
export interface CommandOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Every file read or probed: validates the result cache and drives --watch. */
  deps: FileDep[];
  /** False when the output depends on something deps cannot capture (e.g. it wrote files). */
  cacheable: boolean;
  /** Remote inputs still needed (the round is re-run once fetched) and the remote facts used. */
  remote?: RemoteReport;
  /** Allocations the render refused against its heap limit (memory-limit.ts); the daemon logs each. */
  limitRefusals?: string[];
}
