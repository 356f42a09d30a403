/**
 * The method table. Plain methods go through json-rpc-2.0's JSONRPCServer
 * (which answers -32600/-32601 for malformed requests and unknown methods);
 * every params object is checked by the protocol's validator first, and a
 * failure becomes -32602 naming the field. Streaming methods are looked up
 * here and driven by rpc/stream.ts.
 */
import { JSONRPCErrorException, JSONRPCServer } from 'json-rpc-2.0';
import {
  CommandMethods,
  daemonCommandNames,
  ErrorCodes,
  Methods,
  ParamsError,
  type CommandParams,
  type CommandResult,
  type MethodDescriptor,
} from '../../protocol/index.js';
import type { OutputSink } from '../command-runner.js';
import type { DaemonContext } from '../daemon-context.js';
import { cancel } from '../handlers/cancel.js';
import { complete } from '../handlers/complete.js';
import { hello } from '../handlers/hello.js';
import { runCommandMethod } from '../handlers/run-command.js';
import { shutdown } from '../handlers/shutdown.js';
import { status } from '../handlers/status.js';

export type StreamingHandler = (
  ctx: DaemonContext,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
) => Promise<CommandResult>;

/** One streaming method per command of the catalog (protocol/commands.ts), all run by runCommandMethod. */
export const STREAMING: ReadonlyMap<
  string,
  { descriptor: MethodDescriptor<CommandParams, CommandResult>; handler: StreamingHandler }
> = new Map(
  daemonCommandNames().map((name) => [
    CommandMethods[name].method,
    {
      descriptor: CommandMethods[name],
      handler: (ctx, params, sink, signal) => runCommandMethod(ctx, name, params, sink, signal),
    },
  ]),
);

/** Runs a validator, turning ParamsError into the JSON-RPC -32602 error. */
export function checked<P>(descriptor: MethodDescriptor<P, unknown>, params: unknown): P {
  try {
    return descriptor.validate(params);
  } catch (err) {
    if (err instanceof ParamsError)
      throw new JSONRPCErrorException(err.message, ErrorCodes.InvalidParams, { field: err.field });
    throw err;
  }
}

export function createRpcServer(): JSONRPCServer<DaemonContext> {
  const server = new JSONRPCServer<DaemonContext>();
  const plain = <P, R>(descriptor: MethodDescriptor<P, R>, fn: (ctx: DaemonContext, p: P) => R | Promise<R>): void => {
    server.addMethod(descriptor.method, (params, ctx) => fn(ctx, checked(descriptor, params)));
  };
  plain(Methods.hello, hello);
  plain(Methods.status, (ctx) => status(ctx));
  plain(Methods.shutdown, shutdown);
  plain(Methods.cancel, cancel);
  plain(Methods.complete, (_ctx, p) => complete(p));
  // A streaming method sent in a batch (or otherwise outside the streaming path) is refused clearly.
  for (const name of STREAMING.keys()) {
    server.addMethod(name, () => {
      throw new JSONRPCErrorException(
        `${name} streams its response and cannot be sent inside a batch`,
        ErrorCodes.InvalidRequest,
      );
    });
  }
  return server;
}
