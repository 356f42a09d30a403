/**
 * resolveDNS with an asynchronous resolver. Templates run synchronously, so
 * the Release is rendered in rounds: each round answers from the table of
 * names resolved so far and records the names it lacked; those are resolved
 * (injected lookup, so this stays pure) and the Release rendered again, until
 * a round asks for nothing new. Rendering is deterministic, so the rounds
 * converge; a bound stops templates whose names depend on earlier answers.
 */

import { KubocdError } from './errors.js';
import { type ReleaseRenderInput, type ReleaseRenderResult, renderRelease } from './render.js';

/** Rounds allowed before giving up on names that keep changing. */
const MAX_ROUNDS = 8;

/** First address of a host name, or undefined when it does not resolve. */
export type DnsLookup = (host: string) => Promise<string | undefined>;

/** renderRelease with resolveDNS allowed and answered by `lookup`. */
export async function renderReleaseResolvingDns(
  input: Omit<ReleaseRenderInput, 'dns'>,
  lookup: DnsLookup,
): Promise<ReleaseRenderResult> {
  const answers = new Map<string, string | undefined>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const missing = new Set<string>();
    const result = renderRelease({
      ...input,
      dns: {
        allowed: true,
        resolve: (host) => {
          if (answers.has(host)) return answers.get(host);
          missing.add(host);
          return '0.0.0.0';
        },
      },
    });
    if (missing.size === 0) return result;
    for (const host of [...missing].sort()) {
      let ip: string | undefined;
      try {
        ip = await lookup(host);
      } catch {
        ip = undefined;
      }
      answers.set(host, ip);
    }
  }
  return {
    files: [],
    error: new KubocdError('resolveDNS: the host names to resolve did not settle', 'KUBOCD_EXEC'),
  };
}
