/**
 * The service's own check of the file paths a request names (inputs, -J, --ext-str-file and its
 * kin, --overlay-code-file, --root): each must stay inside the upload root, as the CLI checks
 * before it uploads. A hand-made request that names `../../x` or `/etc/x` is refused with the
 * value as the client sent it, so nothing is resolved against the service's directories.
 */
import { posix } from 'node:path';
import type { CommandParams } from '../../protocol/index.js';

const PATH_LIST_FLAGS = ['jpath'];
const KEYED_PATH_FLAGS = ['ext-str-file', 'ext-code-file', 'tla-str-file', 'tla-code-file'];
const PATH_FLAGS = ['overlay-code-file', 'root'];
/** `https://...`, `oci://...`, `data:...`: remote inputs, fetched by the service under the tenant's list. */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:/i;

/** Why `p` (relative to the root-relative `cwd`) leaves the upload root, or undefined. */
function escapes(cwd: string, p: string): boolean {
  if (p === '-' || URL_LIKE.test(p)) return false;
  if (p.startsWith('/')) return true;
  const joined = posix.normalize(posix.join(cwd, p));
  return joined === '..' || joined.startsWith('../');
}

/** The first path of the request outside the upload root, described for the error, or undefined. */
export function pathOutsideRoot(params: CommandParams): string | undefined {
  const { cwd, flags } = params;
  for (const a of params.args) if (escapes(cwd, a)) return `input ${JSON.stringify(a)}`;
  for (const name of PATH_LIST_FLAGS) {
    const v = flags[name];
    if (Array.isArray(v)) for (const p of v) if (escapes(cwd, p)) return `--${name} ${JSON.stringify(p)}`;
  }
  for (const name of KEYED_PATH_FLAGS) {
    const v = flags[name];
    if (!Array.isArray(v)) continue;
    for (const entry of v) {
      const eq = entry.indexOf('=');
      const p = eq < 0 ? entry : entry.slice(eq + 1);
      if (escapes(cwd, p)) return `--${name} ${JSON.stringify(entry)}`;
    }
  }
  for (const name of PATH_FLAGS) {
    const v = flags[name];
    if (typeof v === 'string' && escapes(cwd, v)) return `--${name} ${JSON.stringify(v)}`;
  }
  return undefined;
}
