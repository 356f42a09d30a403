/**
 * Second half of `diff`, `update`, `delete` and `validate`: given the objects
 * the render half produced, connect to the cluster and run the kube/ command.
 * Runs where the network may be used (the daemon's main thread, or the
 * one-shot process), never from the result cache.
 *
 * Invariant: the connection is resolved from the CLIENT's environment as the
 * request carries it (KUBECONFIG, HOME, in-cluster variables), never from the
 * daemon's own process.env or home directory.
 * Exit codes: 0 ok, 1 error, 10 for a diff that found differences.
 */
import type { JsonObject } from '../../lang/common/json.js';
import { isJsonObject } from '../../lang/common/json.js';
import {
  deleteObjects,
  diffObjects,
  KubeError,
  openCluster,
  updateObjects,
  validateObjects,
  type ClusterSession,
  type ConnectionEnvironment,
  type ConnectionFlags,
  type DiffStrategy,
  parseRequestTimeout,
} from '../../kube/index.js';
import { nodeFileReader } from '../../kube/connection.js';
import type { CommandParams } from '../../protocol/index.js';
import type { ClusterCommandName } from '../worker/messages.js';
import { Flags } from './flags.js';
import { diffSummaryJson, updateSummaryJson } from './cluster-summary.js';
import { colorEnabled, logLine, logStyle } from './output.js';

/** kubecfg's ErrDiffFound text, logged when a diff found differences (exit code 10). */
const DIFFERENCES_FOUND = 'Differences found.';

export interface StageOutput {
  write(stream: 'stdout' | 'stderr', data: string): void;
}

/** The connection environment of the client that sent `params`. */
export function clientEnvironment(params: CommandParams): ConnectionEnvironment {
  const home = params.env.HOME;
  return {
    env: params.env,
    ...(home !== undefined && home !== '' ? { home } : {}),
    files: nodeFileReader,
    serviceAccountDir: '/var/run/secrets/kubernetes.io/serviceaccount',
  };
}

export function connectionFlags(flags: Flags): ConnectionFlags {
  const opt = (name: string): string | undefined => (flags.given(name) ? flags.path(flags.str(name)) : undefined);
  const plain = (name: string): string | undefined => (flags.given(name) ? flags.str(name) : undefined);
  return {
    kubeconfig: opt('kubeconfig'),
    context: plain('context'),
    cluster: plain('cluster'),
    user: plain('user'),
    namespace: plain('namespace'),
    server: plain('server'),
    token: plain('token'),
    // Only when given: an unset flag must not override the kubeconfig's insecure-skip-tls-verify.
    ...(flags.given('insecure-skip-tls-verify')
      ? { insecureSkipTlsVerify: flags.bool('insecure-skip-tls-verify') }
      : {}),
    certificateAuthority: opt('certificate-authority'),
    clientCertificate: opt('client-certificate'),
    clientKey: opt('client-key'),
    tlsServerName: plain('tls-server-name'),
    as: plain('as'),
    asGroups: flags.list('as-group'),
    asUid: plain('as-uid'),
    username: plain('username'),
    password: plain('password'),
    disableCompression: flags.bool('disable-compression'),
  };
}

function objectsOf(json: string): JsonObject[] {
  const value: unknown = JSON.parse(json);
  if (!Array.isArray(value) || !value.every((o) => isJsonObject(o as never)))
    throw new Error('internal: the render half did not return a list of objects');
  return value as JsonObject[];
}

/** Runs the cluster half; returns the exit code. Never throws for cluster or input problems. */
export async function runClusterStage(
  command: ClusterCommandName,
  params: CommandParams,
  renderedObjects: string,
  out: StageOutput,
  signal: AbortSignal,
): Promise<number> {
  const flags = new Flags(command, params);
  const style = logStyle(params.tty);
  const log = (line: string): void => out.write('stderr', logLine(style, 'INFO', line));
  // kube/ words a problem as "Error in <desc>: why": that line is an error, the others progress.
  const validationLog = (line: string): void =>
    out.write('stderr', logLine(style, line.startsWith('Error in ') ? 'ERROR' : 'INFO', line));
  const fail = (message: string): number => {
    out.write('stderr', logLine(style, 'ERROR', message));
    return 1;
  };
  let session: ClusterSession | undefined;
  const onAbort = (): void => session?.close();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const objects = objectsOf(renderedObjects);
    const timeoutMs = parseRequestTimeout(flags.str('request-timeout'));
    session = openCluster(connectionFlags(flags), {
      environment: clientEnvironment(params),
      // A plugin's login prompt must reach the user's terminal, not the daemon's log.
      execStderr: (text) => out.write('stderr', text),
      qps: flags.float('qps-limit'),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    switch (command) {
      case 'diff': {
        const json = flags.str('output') === 'json';
        const result = await diffObjects(session, objects, {
          strategy: flags.str('diff-strategy') as DiffStrategy,
          omitSecrets: flags.bool('omit-secrets'),
          // kubecfg colours hunks when stdout is a terminal; --color=always also when piped.
          color: !json && colorEnabled(params.tty, 'stdout'),
          ...(json ? {} : { write: (text: string) => out.write('stdout', text) }),
          parallelism: flags.int('parallelism'),
        });
        if (json) out.write('stdout', diffSummaryJson(result));
        if (result.differencesFound) out.write('stderr', logLine(style, 'ERROR', DIFFERENCES_FOUND));
        return result.exitCode;
      }
      case 'validate': {
        const report = await validateObjects(session, objects, {
          ignoreUnknown: flags.bool('ignore-unknown'),
          log: validationLog,
        });
        return report.ok ? 0 : fail('Validation failed');
      }
      case 'update': {
        if (flags.bool('validate')) {
          const report = await validateObjects(session, objects, {
            ignoreUnknown: flags.bool('ignore-unknown'),
            log: validationLog,
          });
          if (!report.ok) return fail('Validation failed; nothing was changed (--validate=false skips validation)');
        }
        const report = await updateObjects(session, objects, {
          create: flags.bool('create'),
          dryRun: flags.bool('dry-run'),
          ...(flags.str('gc-tag') !== '' ? { gcTag: flags.str('gc-tag') } : {}),
          gcTagsFromInput: flags.bool('gc-tags-from-input'),
          ...(flags.bool('gc-all-namespaces') ? {} : { gcNamespace: session.defaultNamespace }),
          skipGc: flags.bool('skip-gc'),
          allowNamespaceGc: flags.bool('gc-namespaces'),
          parallelism: flags.int('parallelism'),
          log,
        });
        if (flags.str('output') === 'json') out.write('stdout', updateSummaryJson(report, flags.bool('dry-run')));
        return 0;
      }
      case 'delete': {
        const grace = flags.int('grace-period');
        await deleteObjects(session, objects, { ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}), log });
        return 0;
      }
      default: {
        const unknown: never = command;
        return fail(`internal: ${String(unknown)} is not a cluster command`);
      }
    }
  } catch (err) {
    if (signal.aborted) return fail('cancelled');
    if (err instanceof KubeError) return fail(err.message);
    return fail(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  } finally {
    signal.removeEventListener('abort', onAbort);
    session?.close();
  }
}
