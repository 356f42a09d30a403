/**
 * A large stdout crosses worker → render host → daemon as its UTF-8 bytes, not as a JS string.
 * Why: V8 copies a string on every hop (structured clone to the host, the serializer on the IPC
 * pipe, a new string in the daemon), a string with one character past U+00FF is two bytes a
 * character on each (kube-prometheus's 6 MB of JSON became 12 MB strings for four curly quotes),
 * and the daemon then encoded it to UTF-8 again to send it. As bytes it is encoded once in the
 * worker, transferred to the host without a copy, sent as 6 MB, and kept by the daemon as the
 * view the IPC message arrived in; the text is decoded only where something reads `stdout`
 * (cluster stages, NDJSON clients), through a getter that decodes once.
 */

/** Below this, a string costs less than the bytes' bookkeeping. */
export const STDOUT_BYTES_MIN = 64 * 1024;

const bytesOf = new WeakMap<object, Uint8Array>();

/** `value` with a `stdout` decoded from `bytes` when first read; `knownStdoutBytes` answers the bytes. */
export function withStdoutBytes<T extends { stdout: string }>(value: Omit<T, 'stdout'>, bytes: Uint8Array): T {
  let text: string | undefined;
  const out = { ...value } as T;
  Object.defineProperty(out, 'stdout', {
    enumerable: true,
    configurable: true,
    get: () => (text ??= Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')),
  });
  bytesOf.set(out, bytes);
  return out;
}

/** The UTF-8 bytes of `value.stdout` when it was made by withStdoutBytes. */
export function knownStdoutBytes(value: object): Uint8Array | undefined {
  return bytesOf.get(value);
}

/**
 * `{ ...value, ...changes }` that keeps `value`'s stdout as bytes: a spread would read the
 * `stdout` getter (decoding the whole text) and the copy would no longer be known by its bytes.
 */
export function withChanges<T extends { stdout: string }>(value: T, changes: Partial<T>): T {
  const bytes = bytesOf.get(value);
  if (bytes === undefined) return { ...value, ...changes };
  const rest: Record<string, unknown> = {};
  for (const k of Object.keys(value)) if (k !== 'stdout') rest[k] = (value as Record<string, unknown>)[k];
  if ('stdout' in changes) return { ...rest, ...changes } as T;
  return withStdoutBytes<T>({ ...rest, ...changes } as Omit<T, 'stdout'>, bytes);
}
