/**
 * `data:` URLs (RFC 2397) as import locations: `data:[<media type>][;base64],<data>`.
 * The body is percent-decoded, then base64-decoded when `;base64` is given.
 * Nothing is fetched, so a data: import needs no round trip and is no
 * dependency. A relative import inside a data: file has no base to resolve
 * against, so it is refused (it would otherwise silently read local files).
 */

export class DataUrlError extends Error {}

export function isDataUrl(location: string): boolean {
  return /^data:/i.test(location);
}

export function decodeDataUrl(location: string): Uint8Array {
  const comma = location.indexOf(',');
  if (comma < 0) throw new DataUrlError(`${shorten(location)}: a data: URL needs a ',' before its data`);
  const meta = location.slice('data:'.length, comma);
  const base64 = /;base64$/i.test(meta);
  let raw: Uint8Array;
  try {
    raw = percentDecode(location.slice(comma + 1));
  } catch {
    throw new DataUrlError(`${shorten(location)}: bad percent-encoding in a data: URL`);
  }
  if (!base64) return raw;
  const text = new TextDecoder('latin1').decode(raw).replace(/[\s]/g, '');
  if (!/^[A-Za-z0-9+/\-_]*={0,2}$/.test(text))
    throw new DataUrlError(`${shorten(location)}: bad base64 in a data: URL`);
  return new Uint8Array(Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
}

function percentDecode(s: string): Uint8Array {
  const out: number[] = [];
  const bytes = new TextEncoder().encode(s);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x25) {
      const hex = String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Error('bad escape');
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(b);
  }
  return new Uint8Array(out);
}

/** data: URLs can be long: messages show the start only. */
export function shorten(location: string): string {
  return location.length > 60 ? `${location.slice(0, 57)}...` : location;
}
