/**
 * The line protocol between the remote service and its jailed render child
 * (child-runner.ts starts it, render-child.ts is its entry): one JSON request
 * per stdin line, one JSON reply per stdout line, and a start marker on
 * stderr once the child's modules are loaded.
 */
import type { FileDepJson } from '../../cache/index.js';
import type { CommandParams } from '../../protocol/index.js';
import type { RemoteReport } from '../remote-inputs/remote-types.js';
import type { CommandName } from '../worker/messages.js';
import type { EncodedSnapshot } from './snapshot-codec.js';

/** The child's first stderr line once its modules are loaded. */
export const CHILD_STARTED = 'kubecfg-render-child: started\n';

export interface RenderChildRequest {
  command: CommandName;
  params: CommandParams;
  /** The request's work directory: the only place the render may read. */
  root: string;
  /** Largest stdout the render may produce, and separately the largest stderr (std.trace, error text). */
  outputBytes: number;
  /** Remote inputs fetched so far by the parent (base64 bytes). */
  remote?: EncodedSnapshot;
}

export type RenderChildReply =
  | {
      kind: 'done';
      exitCode: number;
      stdout: string;
      stderr: string;
      cacheable: boolean;
      deps: FileDepJson[];
      /** Remote inputs still needed and the remote facts used (server/remote-inputs/). */
      remote?: RemoteReport;
    }
  | { kind: 'output-too-large'; stream: 'stdout' | 'stderr'; bytes: number };
