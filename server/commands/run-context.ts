/** What a command run gets besides its params: the cancel poll, whether test hooks are on, the rc file's features. */
import type { RemoteSnapshot } from '../remote-inputs/remote-types.js';

export interface RunContext {
  shouldStop: () => boolean;
  /** Remote inputs fetched so far (server/remote-inputs/); absent = none yet. */
  remote?: RemoteSnapshot;
  testHooks: boolean;
  /** Feature settings of the `.kubecfgrc.jsonnet` found for this request (set by run.ts). */
  rc?: RcFeatures;
}

export interface RcFeatures {
  features: string[];
  alpha?: boolean;
}
