/** What a command run gets besides its params: the cancel poll and whether test hooks are on. */
export interface RunContext {
  shouldStop: () => boolean;
  testHooks: boolean;
}
