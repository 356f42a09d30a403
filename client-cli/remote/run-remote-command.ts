/**
 * `kubecfg --remote https://host:port CMD ...` (or KUBECFG_REMOTE): where the
 * service is, the token (KUBECFG_REMOTE_TOKEN, else --remote-token-file, a
 * file no one else may read), extra CA (--remote-ca), and running the command
 * there. Render commands print the remote output; cluster commands (diff,
 * update, delete, validate) render remotely and talk to the cluster from this
 * machine, in a local helper process that holds the cluster code. Ctrl-C
 * (SIGINT/SIGTERM) closes the connection, which the service takes as a cancel
 * (it kills the render and frees the slot), and exits 130.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXIT_INTERRUPTED } from '../run-remote.js';
import { runChild } from '../run-child.js';
import { REMOTE_TOKEN_ENV, type CommandParams, type FlagValue } from '../../protocol/index.js';
import { RemoteCallError, RemoteCancelledError, RemoteUnavailableError, type RemoteEndpoint } from './https-rpc.js';
import { renderRemotely, RemoteSetupError } from './remote-render.js';
import { ManifestError } from './manifest.js';

export { RemoteSetupError };

export function remoteEndpoint(
  flags: Record<string, FlagValue>,
  env: Record<string, string | undefined>,
): RemoteEndpoint | undefined {
  const where = typeof flags.remote === 'string' ? flags.remote : '';
  if (where === '') return undefined;
  let url: URL;
  try {
    url = new URL(where);
  } catch {
    throw new RemoteSetupError(`--remote ${JSON.stringify(where)} is not a URL: use https://host:port`);
  }
  if (url.protocol !== 'https:')
    throw new RemoteSetupError('--remote must be an https:// URL: tokens never travel in clear');
  if (url.username || url.password)
    throw new RemoteSetupError('--remote must not carry credentials; use KUBECFG_REMOTE_TOKEN');
  let token = env[REMOTE_TOKEN_ENV] ?? '';
  const tokenFile = typeof flags['remote-token-file'] === 'string' ? flags['remote-token-file'] : '';
  if (token === '' && tokenFile !== '') {
    let mode: number;
    try {
      mode = statSync(tokenFile).mode;
      token = readFileSync(tokenFile, 'utf8').trim();
    } catch (err) {
      throw new RemoteSetupError(
        `cannot read --remote-token-file ${tokenFile}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    if ((mode & 0o077) !== 0)
      throw new RemoteSetupError(
        `--remote-token-file ${tokenFile} is readable by others (mode ${(mode & 0o777).toString(8)}): chmod 600 it`,
      );
  }
  if (token === '')
    throw new RemoteSetupError(`--remote needs a token: set ${REMOTE_TOKEN_ENV} or --remote-token-file FILE`);
  const caFile = typeof flags['remote-ca'] === 'string' ? flags['remote-ca'] : '';
  let ca: string | undefined;
  if (caFile !== '') {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch (err) {
      throw new RemoteSetupError(
        `cannot read --remote-ca ${caFile}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
  }
  return { url, token, ...(ca !== undefined ? { ca } : {}) };
}

/**
 * The local helper that runs a cluster command's cluster half: the bundle's or the compiled
 * tree's. Only when this module runs from the TypeScript sources (tests under tsx) is the
 * helper started through tsx, a devDependency production never loads.
 */
function clusterHelper(): string[] {
  if (!import.meta.url.endsWith('.ts')) {
    const rels = ['../server/remote/cluster-local.js', '../../server/remote/cluster-local.js'];
    const found = rels.map((rel) => fileURLToPath(new URL(rel, import.meta.url))).find((p) => existsSync(p));
    if (found === undefined)
      throw new RemoteSetupError(
        'the cluster helper (server/remote/cluster-local.js) is missing from this installation',
      );
    return [found];
  }
  const ts = fileURLToPath(new URL('../../server/remote/cluster-local.ts', import.meta.url));
  return ['--import', import.meta.resolve('tsx'), ts];
}

export interface ClusterHelperRequest {
  method: string;
  params: CommandParams;
  remote: { url: string; token: string; ca?: string };
}

function runClusterHelper(endpoint: RemoteEndpoint, method: string, params: CommandParams): Promise<number> {
  const request: ClusterHelperRequest = {
    method,
    params,
    remote: {
      url: endpoint.url.href,
      token: endpoint.token,
      ...(endpoint.ca !== undefined ? { ca: endpoint.ca } : {}),
    },
  };
  // The token travels over our own pipe, never on a command line.
  return runChild({ args: clusterHelper(), input: JSON.stringify(request) });
}

/** Pause before the one retry (KUBECFG_REMOTE_RETRY_DELAY_MS, default 1000): long enough for a replica to be replaced. */
export function retryDelayMs(env: Record<string, string | undefined>): number {
  const v = Number(env.KUBECFG_REMOTE_RETRY_DELAY_MS);
  return Number.isFinite(v) && v >= 0 && v <= 60_000 ? v : 1000;
}

/** `--progress` / `--progress=false` when given, else whether stderr is a terminal. */
function progressWanted(flags: CommandParams['flags'], stderrIsTTY: boolean): boolean {
  const given = flags['progress'];
  return typeof given === 'boolean' ? given : stderrIsTTY;
}

/** Describes a remote failure for the user (never includes the token). */
export function describeRemoteFailure(err: unknown): string | undefined {
  if (
    err instanceof RemoteCallError ||
    err instanceof RemoteUnavailableError ||
    err instanceof RemoteSetupError ||
    err instanceof ManifestError
  )
    return `kubecfg: remote: ${err.message}`;
  return undefined;
}

export async function runRemoteCommand(
  endpoint: RemoteEndpoint,
  method: string,
  params: CommandParams,
): Promise<number> {
  if (method.startsWith('cluster/')) return runClusterHelper(endpoint, method, params);
  const interrupt = new AbortController();
  const onSignal = (): void => {
    if (interrupt.signal.aborted) process.exit(EXIT_INTERRUPTED);
    interrupt.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const { result } = await renderRemotely(
      endpoint,
      method,
      params,
      (line) => process.stderr.write(line + '\n'),
      retryDelayMs(process.env),
      interrupt.signal,
      progressWanted(params.flags, process.stderr.isTTY === true)
        ? (line) => process.stderr.write(`kubecfg: remote: ${line}\n`)
        : undefined,
    );
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    return result.exitCode;
  } catch (err) {
    if (err instanceof RemoteCancelledError || interrupt.signal.aborted) {
      process.stderr.write('kubecfg: remote: interrupted; the render service stops the render\n');
      return EXIT_INTERRUPTED;
    }
    const text = describeRemoteFailure(err);
    if (text === undefined) throw err;
    process.stderr.write(text + '\n');
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
