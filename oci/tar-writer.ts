// A minimal, reproducible ustar writer for bundle archives: regular files only, in the order
// given, mode 0644, mtime 0, uid/gid 0, no user/group names. Names over 100 bytes are split into
// the ustar prefix when possible, else carried by a PAX 'path' record (also used for non-ASCII
// names, as Go's archive/tar does). Invariant: same entries in, same bytes out.
import { OciError } from './errors.js';

const BLOCK = 512;
const FILE_MODE = 0o644;

export interface TarEntry {
  path: string;
  data: Uint8Array;
}

export function writeTar(entries: Iterable<TarEntry>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    const nameBytes = Buffer.from(e.path, 'utf8');
    const split = nameBytes.length > 100 ? splitUstarName(e.path) : { prefix: '', name: e.path };
    const ascii = /^[\x20-\x7e]*$/.test(e.path);
    if (split === undefined || !ascii) {
      const record = paxRecord('path', e.path);
      const paxName = ('PaxHeaders.0/' + asciiTail(e.path)).slice(0, 100);
      parts.push(header({ name: paxName, prefix: '', size: record.length, type: 'x' }));
      parts.push(padded(record));
      parts.push(header({ name: asciiTail(e.path), prefix: '', size: e.data.byteLength, type: '0' }));
    } else {
      parts.push(header({ name: split.name, prefix: split.prefix, size: e.data.byteLength, type: '0' }));
    }
    parts.push(padded(e.data));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return new Uint8Array(Buffer.concat(parts));
}

function splitUstarName(path: string): { prefix: string; name: string } | undefined {
  for (let i = path.length - 1; i > 0; i--) {
    if (path[i] !== '/') continue;
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== '') return { prefix, name };
  }
  return undefined;
}

/** A printable ASCII stand-in (last 99 chars) for the ustar name field when PAX carries the real one. */
function asciiTail(path: string): string {
  const ascii = path.replace(/[^\x20-\x7e]/g, '_');
  return ascii.length > 99 ? ascii.slice(ascii.length - 99) : ascii;
}

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  const bodyLen = Buffer.byteLength(body);
  // The length prefix counts its own digits.
  let len = bodyLen + String(bodyLen).length;
  if (String(len).length !== String(bodyLen).length) len = bodyLen + String(len).length;
  return Buffer.from(`${len}${body}`, 'utf8');
}

function padded(data: Uint8Array): Uint8Array {
  const rem = data.byteLength % BLOCK;
  if (rem === 0) return data;
  const out = new Uint8Array(data.byteLength + BLOCK - rem);
  out.set(data);
  return out;
}

function header(h: { name: string; prefix: string; size: number; type: string }): Uint8Array {
  const b = Buffer.alloc(BLOCK);
  const put = (offset: number, len: number, s: string): void => {
    const bytes = Buffer.from(s, 'utf8');
    if (bytes.length > len)
      throw new OciError('OCI_ARCHIVE', `tar writer: field too long for ${JSON.stringify(h.name)}`);
    bytes.copy(b, offset);
  };
  const octal = (offset: number, len: number, n: number): void => {
    const s = n.toString(8).padStart(len - 1, '0');
    if (s.length > len - 1)
      throw new OciError('OCI_ARCHIVE', `tar writer: ${n} does not fit a ${len}-byte octal field`);
    put(offset, len, s);
  };
  put(0, 100, h.name);
  octal(100, 8, FILE_MODE);
  octal(108, 8, 0); // uid
  octal(116, 8, 0); // gid
  octal(124, 12, h.size);
  octal(136, 12, 0); // mtime: the epoch, so archives do not depend on when they were made
  b.fill(0x20, 148, 156);
  put(156, 1, h.type);
  put(257, 6, 'ustar');
  put(263, 2, '00');
  put(345, 155, h.prefix);
  let sum = 0;
  for (const byte of b) sum += byte;
  put(148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return b;
}
