/**
 * Worker memory limits (hazard 31). Workers get `resourceLimits`; a
 * `--max-old-space-size` (or semi-space) in the daemon's execArgv would be
 * inherited by workers through their execArgv and fight those limits, so we
 * strip them from the workers' execArgv. NODE_OPTIONS is process-wide and
 * cannot be stripped per worker: we report it so status/logs show why a
 * worker's effective heap limit differs, and check the limit each worker
 * reports against the one we asked for.
 */

const HEAP_FLAGS =
  /^--(max-old-space-size|max_old_space_size|max-semi-space-size|max_semi_space_size|max-young-generation-size|max_young_generation_size)(=|$)/;

export function workerExecArgv(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    if (HEAP_FLAGS.test(arg)) {
      if (!arg.includes('=')) i++; // the value was the next argument
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** The heap flags found in NODE_OPTIONS and execArgv, for a warning. */
export function heapOverrides(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const found = execArgv.filter((a) => HEAP_FLAGS.test(a));
  for (const word of (nodeOptions ?? '').split(/\s+/)) if (HEAP_FLAGS.test(word)) found.push(`NODE_OPTIONS ${word}`);
  return found;
}

/**
 * True when a worker's reported heap limit is far above what we asked for,
 * i.e. something overrode resourceLimits. V8 adds young-generation and
 * bookkeeping space on top of maxOldGenerationSizeMb, hence the slack.
 */
export function heapLimitOverridden(reportedBytes: number, requestedMb: number): boolean {
  return reportedBytes > (requestedMb * 2 + 64) * 1024 * 1024;
}
