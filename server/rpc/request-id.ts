/**
 * JSON-RPC 2.0 allows a request id to be a string, a number or null only.
 * json-rpc-2.0 echoes any id back, so an object or array id would be
 * reflected into the response: such requests are refused with -32600 and a
 * null id before any method runs, alone or inside a batch.
 */
import { ErrorCodes, isPlainObject } from '../../protocol/index.js';

const BAD_ID_MESSAGE = 'Invalid Request: id must be a string, a number or null';

export function hasBadId(msg: unknown): boolean {
  if (!isPlainObject(msg) || !('id' in msg)) return false;
  const id = msg.id;
  return !(id === null || typeof id === 'string' || typeof id === 'number');
}

export function badIdResponse(): { jsonrpc: '2.0'; id: null; error: { code: number; message: string } } {
  return { jsonrpc: '2.0', id: null, error: { code: ErrorCodes.InvalidRequest, message: BAD_ID_MESSAGE } };
}
