/**
 * V8 tuning for a one-shot render (`--no-daemon`, or a first call without a
 * daemon), applied in this process just before the engine loads, so the daemon
 * path of the CLI never pays for it and the daemon's workers keep V8's defaults.
 *
 * Why: a cold render of kube-prometheus spent about 30% of its CPU in TurboFan
 * (on background threads, but on two cores that is the user's CPU too),
 * optimising functions that then ran for a fraction of a second. A larger
 * interrupt budget makes a function run longer in the interpreter and Sparkplug
 * before it is considered for optimisation: fewer, better-chosen functions reach
 * TurboFan. Measured by CPU time (docs/performance.md, "Cold one-shot"):
 * kube-prometheus 1.61 s -> 1.32 s, inheritance 0.24 s -> 0.20 s; 2 M and 4 M
 * were no better than 1 M. V8 reads the budget whenever it creates or resets a
 * function's feedback cell, so setting it at run time takes effect for every
 * function the engine bundle compiles after this call.
 *
 * Invariant: the flags are the same on every one-shot, and set before the bundle
 * is compiled: V8's code cache records a hash of the flags and is rejected (and
 * rewritten) when they differ.
 */
import { setFlagsFromString } from 'node:v8';

export const ONESHOT_V8_FLAGS = ['--interrupt-budget=1000000'];

export function applyOneshotV8Flags(): void {
  for (const flag of ONESHOT_V8_FLAGS) setFlagsFromString(flag);
}
