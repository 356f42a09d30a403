/**
 * Template options (Go's Option("missingkey=...") plus this project's
 * injected clock, random source and resource caps) and their defaults.
 * Defaults are deterministic: the clock reads the Unix epoch and the random
 * source is a fixed-seed generator, so nothing depends on the host.
 */

import { FunctionProfile } from './function.js';

export type MissingKey = 'zero' | 'error' | 'default';

export interface TemplateOptions {
  /** What a missing map key yields: `default` and `zero` print `<no value>`, `error` fails. */
  missingKey?: MissingKey;
  /** Functions beyond the builtins (profiles.sprig, profiles.helm...). */
  functions?: FunctionProfile;
  /** Output cap per execution in bytes (default 4 MiB). */
  maxOutputBytes?: number;
  /** Milliseconds since the epoch. */
  clock?: () => number;
  /** Uniform numbers in [0, 1). */
  random?: () => number;
  /**
   * Maximum nesting of {{template}} calls, include and tpl (default 100). Go allows 100000, but each
   * level costs JS stack; 100 leaves headroom for heavy templates on the default stack (see README.md).
   */
  maxDepth?: number;
  leftDelim?: string;
  rightDelim?: string;
}

export interface ResolvedOptions {
  missingKey: MissingKey;
  functions: FunctionProfile;
  maxOutputBytes: number;
  clock: () => number;
  random: () => number;
  maxDepth: number;
  leftDelim: string;
  rightDelim: string;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/** mulberry32: a small deterministic PRNG for the default random source. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function resolveOptions(o: TemplateOptions | ResolvedOptions): ResolvedOptions {
  return {
    missingKey: o.missingKey ?? 'default',
    functions: o.functions ?? new FunctionProfile({}),
    maxOutputBytes: o.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    clock: o.clock ?? (() => 0),
    random: o.random ?? seededRandom(0),
    maxDepth: o.maxDepth ?? 100,
    leftDelim: o.leftDelim || '{{',
    rightDelim: o.rightDelim || '}}',
  };
}
