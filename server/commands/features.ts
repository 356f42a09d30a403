/**
 * Feature gates for one request (RFC05) from --features/KUBECFG_FEATURES and
 * --alpha/KUBECFG_ALPHA (the CLI already mapped the env variables to flags).
 */
import { Gates, splitFeatureFlag } from '../../render/features/gates.js';
import type { Flags } from './flags.js';

export function gatesFor(flags: Flags): Gates {
  const items = splitFeatureFlag(flags.list('features'));
  return Gates.resolve(flags.bool('alpha'), items.length ? [{ name: '--features', items }] : []);
}
