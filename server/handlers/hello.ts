/** `daemon/hello`: the version handshake (hazard 27). */
import { PROTOCOL_VERSION, type HelloParams, type HelloResult } from '../../protocol/index.js';
import type { DaemonContext } from '../daemon-context.js';

export function hello(ctx: DaemonContext, params: HelloParams): HelloResult {
  const compatible = params.protocolVersion === PROTOCOL_VERSION && params.buildId === ctx.buildId;
  if (!compatible)
    ctx.logger.info(
      { clientProtocol: params.protocolVersion, clientBuild: params.buildId },
      'hello from an incompatible client',
    );
  return {
    protocolVersion: PROTOCOL_VERSION,
    buildId: ctx.buildId,
    pid: process.pid,
    startedAt: ctx.startedAt.toISOString(),
    compatible,
  };
}
