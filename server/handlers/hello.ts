/**
 * The version handshake (hazard 27), in its two forms: the `daemon/hello`
 * method, and the same check on the `client` field a command carries (the
 * CLI folds hello into its command to save a round trip). Invariant: a
 * command whose client is of another build or protocol is refused before
 * anything runs, so no request ever runs on a daemon of another build.
 */
import { PROTOCOL_VERSION, type HelloParams, type HelloResult } from '../../protocol/index.js';
import type { DaemonContext } from '../daemon-context.js';

type HelloContext = Pick<DaemonContext, 'buildId' | 'startedAt' | 'logger'>;

function isCompatible(ctx: HelloContext, client: HelloParams): boolean {
  return client.protocolVersion === PROTOCOL_VERSION && client.buildId === ctx.buildId;
}

function helloResult(ctx: HelloContext, compatible: boolean): HelloResult {
  return {
    protocolVersion: PROTOCOL_VERSION,
    buildId: ctx.buildId,
    pid: process.pid,
    startedAt: ctx.startedAt.toISOString(),
    compatible,
  };
}

export function hello(ctx: HelloContext, params: HelloParams): HelloResult {
  const compatible = isCompatible(ctx, params);
  if (!compatible)
    ctx.logger.info(
      { clientProtocol: params.protocolVersion, clientBuild: params.buildId },
      'hello from an incompatible client',
    );
  return helloResult(ctx, compatible);
}

/** Why a command's client cannot be served here (the VersionMismatch error), or undefined when it can. */
export interface ClientSkew {
  message: string;
  /** What `daemon/hello` would have answered: the CLI uses the pid to replace this daemon. */
  data: HelloResult;
}

/** Checks a command's `client` field; commands without one (clients that said hello first) pass. */
export function clientSkew(ctx: HelloContext, client: HelloParams | undefined): ClientSkew | undefined {
  if (client === undefined || isCompatible(ctx, client)) return undefined;
  ctx.logger.info(
    { clientProtocol: client.protocolVersion, clientBuild: client.buildId },
    'command from a client of another build: refused',
  );
  return {
    message:
      `the kubecfg daemon is build ${ctx.buildId} (protocol ${PROTOCOL_VERSION}), ` +
      `the CLI is build ${client.buildId} (protocol ${client.protocolVersion}): the daemon must be replaced`,
    data: helloResult(ctx, false),
  };
}
