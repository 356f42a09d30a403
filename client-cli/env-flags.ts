/**
 * KUBECFG_* environment variables as flag values (see protocol/commands.ts):
 * a global flag `foo-bar` reads `KUBECFG_FOO_BAR` unless given on the command
 * line; `-J` paths are appended after the KUBECFG_JPATH list. Also resolves
 * `-V NAME` / `-A NAME` (no `=`) from the CLI's environment, as kubecfg does,
 * because the daemon's environment is not the user's.
 */
import { envNameOf, GLOBAL_FLAGS, type FlagSpec, type FlagValue } from '../protocol/index.js';
import { parseBoolWord, parseGoFloat, UsageError } from './args.js';

type Env = Record<string, string | undefined>;

export function applyEnvFlags(
  flags: Record<string, FlagValue>,
  env: Env,
  commandFlags: readonly FlagSpec[] = [],
): Record<string, FlagValue> {
  const out: Record<string, FlagValue> = Object.assign(Object.create(null) as Record<string, FlagValue>, flags);
  // A command's own flag shadows the global one of the same name (`kubocd render --context FILE`):
  // KUBECFG_CONTEXT names a kubeconfig context, not a value for that flag.
  const shadowed = new Set(commandFlags.map((f) => f.name));
  for (const spec of GLOBAL_FLAGS) {
    if (shadowed.has(spec.name)) continue;
    const envName = envNameOf(spec);
    const raw = env[envName];
    if (raw === undefined || raw === '') continue;
    if (spec.name === 'jpath') {
      const fromEnv = raw.split(':').filter((p) => p !== '');
      const fromCli = Array.isArray(out.jpath) ? out.jpath : [];
      out.jpath = [...fromEnv, ...fromCli];
      continue;
    }
    if (spec.name in out) continue;
    switch (spec.kind) {
      case 'bool': {
        const v = parseBoolWord(raw);
        if (v === undefined) throw new UsageError(`invalid value "${raw}" in ${envName}: expected true or false`);
        out[spec.name] = v;
        break;
      }
      case 'count':
      case 'int': {
        if (!/^\d+$/.test(raw)) throw new UsageError(`invalid value "${raw}" in ${envName}: expected a number`);
        out[spec.name] = Number(raw);
        break;
      }
      case 'float': {
        const n = parseGoFloat(raw);
        if (n === undefined) throw new UsageError(`invalid value "${raw}" in ${envName}: expected a number`);
        out[spec.name] = n;
        break;
      }
      case 'string':
        if (spec.values && !spec.values.includes(raw)) {
          throw new UsageError(`invalid value "${raw}" in ${envName}: must be one of ${spec.values.join(', ')}`);
        }
        out[spec.name] = raw;
        break;
      case 'stringArray':
        out[spec.name] = spec.envSplit === 'comma' ? raw.split(',') : [raw];
        break;
    }
  }
  if (env.KUBECFG_DAEMON === '0' && !('no-daemon' in flags)) out['no-daemon'] = true;
  return out;
}

const ENV_LOOKUP_FLAGS = ['ext-str', 'ext-code', 'tla-str', 'tla-code'];

/** `-V NAME` means "NAME=$NAME": resolve it here, where the user's env is. */
export function resolveVarsFromEnv(flags: Record<string, FlagValue>, env: Env): void {
  for (const name of ENV_LOOKUP_FLAGS) {
    const values = flags[name];
    if (!Array.isArray(values)) continue;
    flags[name] = values.map((entry) => {
      if (entry.includes('=')) return entry;
      const v = env[entry];
      if (v === undefined) throw new UsageError(`Missing environment variable: ${entry} (from --${name} ${entry})`);
      return `${entry}=${v}`;
    });
  }
}

const CLIENT_ENV = new Set([
  'KUBECONFIG',
  'HOME',
  'KUBERNETES_SERVICE_HOST',
  // Exec credential plugins are found on the user's PATH; proxies for the cluster, registries and imports (net/proxy.ts).
  'PATH',
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'KUBERNETES_SERVICE_PORT',
  'NO_COLOR',
  'FORCE_COLOR',
  // `cleat argocd generate` (docs/cleat.md): the parameters Argo CD passes, and where the app sits in the checkout.
  'ARGOCD_APP_PARAMETERS',
  'ARGOCD_APP_SOURCE_PATH',
]);

/**
 * The environment a command may read: kubecfg's own variables, KUBECONFIG and
 * what the cluster commands need to find the user's kubeconfig or in-cluster
 * credentials (HOME, KUBERNETES_SERVICE_*): the daemon must never use its own.
 */
export function relevantEnv(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    if (k.startsWith('KUBECFG_') || CLIENT_ENV.has(k)) out[k] = v;
  }
  return out;
}
