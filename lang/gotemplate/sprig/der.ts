/**
 * The little ASN.1 DER needed to build X.509 certificates and key files
 * byte-for-byte as Go's encoding/asn1 writes them, plus a reader that walks
 * TLVs (enough to find a certificate's subject and key identifier).
 */

export type Der = Uint8Array;

function length(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

export function tlv(tag: number, body: Uint8Array): Der {
  const head = [tag, ...length(body.length)];
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const seq = (...parts: Der[]): Der => tlv(0x30, concat(parts));
export const set = (...parts: Der[]): Der => tlv(0x31, concat(parts));
export const explicit = (n: number, inner: Der): Der => tlv(0xa0 | n, inner);
export const octets = (b: Uint8Array): Der => tlv(0x04, b);
export const NULL: Der = Uint8Array.of(0x05, 0x00);
export const bool = (b: boolean): Der => Uint8Array.of(0x01, 0x01, b ? 0xff : 0x00);

/** Big-endian magnitude of a non-negative integer, at least `size` bytes. */
export function bigBytes(n: bigint, size = 0): Uint8Array {
  let hex = n.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  const raw = Buffer.from(hex, 'hex');
  if (raw.length >= size) return new Uint8Array(raw);
  const out = new Uint8Array(size);
  out.set(raw, size - raw.length);
  return out;
}

export function bytesToBig(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt('0x' + Buffer.from(b).toString('hex'));
}

/** INTEGER of a non-negative value (a leading zero keeps the sign bit clear). */
export function int(n: bigint | number): Der {
  const b = bigBytes(BigInt(n));
  const body = b.length === 0 || b[0]! & 0x80 ? concat([Uint8Array.of(0), b]) : b;
  return tlv(0x02, body);
}

export function oid(dotted: string): Der {
  const arcs = dotted.split('.').map(Number);
  const out: number[] = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const chunk: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Uint8Array.from(out));
}

export function bitString(bytes: Uint8Array, unusedBits = 0): Der {
  return tlv(0x03, concat([Uint8Array.of(unusedBits), bytes]));
}

/** Go's choice for a string value: PrintableString when every byte allows it, else UTF8String. */
export function goString(s: string): Der {
  const printable = /^[A-Za-z0-9 '()+,\-./:=?]*$/.test(s);
  return tlv(printable ? 0x13 : 0x0c, new TextEncoder().encode(s));
}

export const ia5 = (s: string): Der => tlv(0x16, new TextEncoder().encode(s));

/** UTCTime for 1950..2049, else GeneralizedTime, to the second, as Go marshals a time.Time. */
export function time(ms: number): Der {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  const year = d.getUTCFullYear();
  if (!Number.isFinite(year) || year < 0 || year > 9999) throw new Error(`time out of range for a certificate`);
  const two = (n: number): string => String(n).padStart(2, '0');
  const rest =
    two(d.getUTCMonth() + 1) +
    two(d.getUTCDate()) +
    two(d.getUTCHours()) +
    two(d.getUTCMinutes()) +
    two(d.getUTCSeconds()) +
    'Z';
  const enc = new TextEncoder();
  if (year >= 1950 && year < 2050) return tlv(0x17, enc.encode(two(year % 100) + rest));
  return tlv(0x18, enc.encode(String(year).padStart(4, '0') + rest));
}

export interface Node {
  tag: number;
  /** Offset of the TLV and of its contents in the buffer. */
  start: number;
  body: number;
  end: number;
}

export class DerError extends Error {}

/** The TLV at `at`; throws DerError when it runs past `limit`. */
export function readNode(buf: Uint8Array, at: number, limit = buf.length): Node {
  if (at + 2 > limit) throw new DerError('truncated');
  const tag = buf[at]!;
  let len = buf[at + 1]!;
  let body = at + 2;
  if (len & 0x80) {
    const count = len & 0x7f;
    if (count === 0 || count > 4 || body + count > limit) throw new DerError('bad length');
    len = 0;
    for (let i = 0; i < count; i++) len = len * 256 + buf[body + i]!;
    body += count;
  }
  if (body + len > limit) throw new DerError('truncated');
  return { tag, start: at, body, end: body + len };
}

export function children(buf: Uint8Array, parent: Node): Node[] {
  const out: Node[] = [];
  for (let at = parent.body; at < parent.end;) {
    const n = readNode(buf, at, parent.end);
    out.push(n);
    at = n.end;
  }
  return out;
}
