/** What a command run gets besides its params: the cancel poll, whether test hooks are on, the rc file's features. */
export interface RunContext {
  shouldStop: () => boolean;
  testHooks: boolean;
  /** Feature settings of the `.kubecfgrc.jsonnet` found for this request (set by run.ts). */
  rc?: RcFeatures;
}

export interface RcFeatures {
  features: string[];
  alpha?: boolean;
}
