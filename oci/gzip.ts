// gzip for bundle archives. gzipDeterministic: fixed level, no file name, zero mtime (node's zlib
// writes mtime 0), so equal input gives equal bytes with the same zlib. gunzipCapped: a streamed
// gunzip with a byte counter that aborts at the cap with OCI_TOO_LARGE (hazard 8: node's streaming
// decompressors do not enforce maxOutputLength themselves), never a silent truncation.
import { createGunzip, gzipSync, constants } from 'node:zlib';
import { OciError } from './errors.js';

export function gzipDeterministic(data: Uint8Array): Uint8Array {
  return new Uint8Array(
    gzipSync(data, { level: 9, memLevel: 8, windowBits: 15, strategy: constants.Z_DEFAULT_STRATEGY }),
  );
}

export function gunzipCapped(data: Uint8Array, maxBytes: number, where: string): Promise<Uint8Array> {
  if (data.byteLength < 18 || data[0] !== 0x1f || data[1] !== 0x8b) {
    return Promise.reject(new OciError('OCI_ARCHIVE', `${where}: not a gzip stream`));
  }
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const fail = (e: OciError): void => {
      if (done) return;
      done = true;
      gunzip.destroy();
      reject(e);
    };
    gunzip.on('data', (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes)
        return fail(
          new OciError('OCI_TOO_LARGE', `${where}: expands past the ${maxBytes}-byte cap (gzip bomb?); refusing it`),
        );
      chunks.push(chunk);
    });
    gunzip.on('error', (e: NodeJS.ErrnoException) =>
      fail(new OciError('OCI_ARCHIVE', `${where}: corrupt gzip data (${e.code ?? e.message})`)),
    );
    gunzip.on('end', () => {
      if (done) return;
      done = true;
      resolve(new Uint8Array(Buffer.concat(chunks, total)));
    });
    // Feed in slices so the counter can stop a bomb before it is fully inflated.
    const SLICE = 64 * 1024;
    let offset = 0;
    const pump = (): void => {
      while (!done && offset < data.byteLength) {
        const slice = data.subarray(offset, Math.min(data.byteLength, offset + SLICE));
        offset += slice.byteLength;
        if (!gunzip.write(slice)) {
          gunzip.once('drain', pump);
          return;
        }
      }
      if (!done && offset >= data.byteLength) gunzip.end();
    };
    pump();
  });
}
