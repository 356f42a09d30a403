/**
 * The native functions one request's evaluations get: kubecfg's pure natives,
 * with resolveImage in the mode --resolve-images names. Registry mode looks
 * digests up in the run's RemoteSession (a miss ends the round; the fetcher
 * asks the registry through oci/ImageResolver and the command runs again), and
 * --resolve-images-error=warn collects its warnings in the session, printed
 * before the command's output.
 */
import { kubecfgNatives } from '../../render/index.js';
import { makeResolveImageNative } from '../../render/natives/resolve-image.js';
import type { Flags } from '../commands/flags.js';
import { currentRemoteSession } from './remote-session.js';

export type Natives = typeof kubecfgNatives;

export function nativesFor(flags: Flags): Natives {
  if (flags.str('resolve-images') !== 'registry') return kubecfgNatives;
  const session = currentRemoteSession();
  const mode = flags.str('resolve-images-error');
  const onError = mode === 'ignore' || mode === 'error' ? mode : 'warn';
  return {
    ...kubecfgNatives,
    resolveImage: makeResolveImageNative('registry', {
      onError,
      lookup: (canonical) => {
        if (!session) return { error: 'registry lookups are not available here' };
        const entry = session.image(canonical);
        return entry.status === 'ok' ? { digest: entry.resolved } : { error: entry.message };
      },
      warn: (message) => session?.warnings.push(message),
    }),
  };
}
