/**
 * The method table. Plain methods go through json-rpc-2.0's JSONRPCServer
 * (which answers -32600/-32601 for malformed requests and unknown methods);
 * every params object is checked by the protocol's validator first, and a
 * failure becomes -32602 naming the field. Streaming methods are looked up
 * here and driven by rpc/stream.ts.
 */
import { JSONRPCErrorException, JSONRPCServer } from 'json-rpc-2.0';
import {
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
import {
  cleatArgocdDockerfile,
  cleatArgocdGenerate,
  cleatArgocdParameters,
  cleatArgocdPlugin,
  cleatCheck,
  cleatExport,
  cleatGen,
} from '../handlers/cleat.js';
import { clusterHandler } from '../handlers/cluster.js';
import { kubocdDumpPackage, kubocdRender } from '../handlers/kubocd.js';
import { kclRun } from '../handlers/kcl.js';
import { myksMigrate } from '../handlers/myks.js';
import { pack } from '../handlers/pack.js';
import { evalCommand } from '../handlers/eval.js';
import { features } from '../handlers/features.js';
import { fmt, yaklfmt } from '../handlers/fmt.js';
import { hello } from '../handlers/hello.js';
import { jsonnet } from '../handlers/jsonnet.js';
import { show } from '../handlers/show.js';
import { httpd } from '../handlers/httpd.js';
import { traceback } from '../handlers/traceback.js';
import { shutdown } from '../handlers/shutdown.js';
import { status } from '../handlers/status.js';
import { complete } from '../handlers/complete.js';

export type StreamingHandler = (
  ctx: DaemonContext,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
) => Promise<CommandResult>;

export const STREAMING: ReadonlyMap<
  string,
  { descriptor: MethodDescriptor<CommandParams, CommandResult>; handler: StreamingHandler }
> = new Map([
  [Methods.show.method, { descriptor: Methods.show, handler: show }],
  [Methods.eval.method, { descriptor: Methods.eval, handler: evalCommand }],
  [Methods.jsonnet.method, { descriptor: Methods.jsonnet, handler: jsonnet }],
  [Methods.features.method, { descriptor: Methods.features, handler: features }],
  [Methods.fmt.method, { descriptor: Methods.fmt, handler: fmt }],
  [Methods.yaklfmt.method, { descriptor: Methods.yaklfmt, handler: yaklfmt }],
  [Methods.cleatCheck.method, { descriptor: Methods.cleatCheck, handler: cleatCheck }],
  [Methods.cleatExport.method, { descriptor: Methods.cleatExport, handler: cleatExport }],
  [Methods.cleatGen.method, { descriptor: Methods.cleatGen, handler: cleatGen }],
  [Methods.traceback.method, { descriptor: Methods.traceback, handler: traceback }],
  [Methods.httpd.method, { descriptor: Methods.httpd, handler: httpd }],
  [Methods.cleatArgocdGenerate.method, { descriptor: Methods.cleatArgocdGenerate, handler: cleatArgocdGenerate }],
  [Methods.cleatArgocdParameters.method, { descriptor: Methods.cleatArgocdParameters, handler: cleatArgocdParameters }],
  [Methods.cleatArgocdPlugin.method, { descriptor: Methods.cleatArgocdPlugin, handler: cleatArgocdPlugin }],
  [Methods.cleatArgocdDockerfile.method, { descriptor: Methods.cleatArgocdDockerfile, handler: cleatArgocdDockerfile }],
  [Methods.pack.method, { descriptor: Methods.pack, handler: pack }],
  [Methods.kubocdRender.method, { descriptor: Methods.kubocdRender, handler: kubocdRender }],
  [Methods.kubocdDumpPackage.method, { descriptor: Methods.kubocdDumpPackage, handler: kubocdDumpPackage }],
  [Methods.kclRun.method, { descriptor: Methods.kclRun, handler: kclRun }],
  [Methods.myksMigrate.method, { descriptor: Methods.myksMigrate, handler: myksMigrate }],
  [Methods.diff.method, { descriptor: Methods.diff, handler: clusterHandler('diff') }],
  [Methods.update.method, { descriptor: Methods.update, handler: clusterHandler('update') }],
  [Methods.delete.method, { descriptor: Methods.delete, handler: clusterHandler('delete') }],
  [Methods.validate.method, { descriptor: Methods.validate, handler: clusterHandler('validate') }],
]);

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
