/**
 * Numeric JSON-RPC error codes. The -32768..-32000 range is reserved by
 * JSON-RPC 2.0; we use only its five defined codes there. Our own codes live
 * in -31999..-31900 so they never collide with the reserved range, and each
 * keeps its number forever (docs/protocol.md lists them).
 */
export const ErrorCodes = {
  /** The body was not valid JSON. */
  ParseError: -32700,
  /** Valid JSON but not a JSON-RPC 2.0 request object. */
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  /** Params failed validation; the message names the bad field (e.g. `params.args[2]`). */
  InvalidParams: -32602,
  InternalError: -32603,

  /** The request was cancelled by `request/cancel` or by the client hanging up. */
  RequestCancelled: -31999,
  /** The render worker crashed or ran out of memory; the daemon keeps serving. */
  WorkerCrashed: -31998,
  /** The daemon is shutting down and accepts no new work. */
  ShuttingDown: -31997,
  /** A command's `client` is of another build or protocol than the daemon's; nothing ran (see `daemon/hello`). */
  VersionMismatch: -31996,
  /** A `requestId` is already in flight on this daemon. */
  DuplicateRequestId: -31995,
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** The JSON-RPC error object as it travels on the wire. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}
