// Reads a tar archive (ustar, PAX and GNU long names) into memory: Map<path, bytes> of its regular
// files. Fails closed (hazards 6-8): unsafe names (archive-path.ts), links, devices and FIFOs,
// duplicate paths, a file that is also a directory, a bad header checksum, a header whose size
// runs past the end of the archive (size mismatch), and more files or bytes than the caps.
// Invariant: nothing is written anywhere; the returned map holds only validated paths.
import { OciError } from './errors.js';
import { cleanEntryPath } from './archive-path.js';

export interface TarLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
  maxEntries: number;
}

export const DEFAULT_TAR_LIMITS: TarLimits = {
  maxFileBytes: 5 * 1024 * 1024,
  maxTotalBytes: 100 * 1024 * 1024,
  maxEntries: 10_000,
};

const BLOCK = 512;

export function readTar(
  tar: Uint8Array,
  where: string,
  limits: TarLimits = DEFAULT_TAR_LIMITS,
): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const dirs = new Set<string>();
  let total = 0;
  let entries = 0;
  let offset = 0;
  let paxPath: string | undefined;
  let paxSize: number | undefined;
  let gnuLongName: string | undefined;
  const fail = (why: string): never => {
    throw new OciError('OCI_ARCHIVE', `${where}: ${why}`);
  };
  const dec = new TextDecoder('utf-8', { fatal: false });
  const str = (b: Uint8Array, start: number, len: number): string => {
    const field = b.subarray(start, start + len);
    const nul = field.indexOf(0);
    return dec.decode(nul < 0 ? field : field.subarray(0, nul));
  };

  while (true) {
    if (offset + BLOCK > tar.byteLength) {
      if (offset === tar.byteLength && paxPath === undefined && gnuLongName === undefined) break; // no end marker, but on a boundary
      fail(`truncated tar header at byte ${offset}`);
    }
    const h = tar.subarray(offset, offset + BLOCK);
    if (h.every((x) => x === 0)) break; // end-of-archive marker
    verifyChecksum(h, offset, fail);
    const type = h[156] === 0 ? '0' : String.fromCharCode(h[156]!);
    const headerSize = parseNumber(h.subarray(124, 136), offset, fail);
    const size = paxSize ?? headerSize;
    const dataStart = offset + BLOCK;
    if (size > tar.byteLength - dataStart) {
      fail(
        `entry at byte ${offset} claims ${size} bytes of data but only ${Math.max(0, tar.byteLength - dataStart)} remain (header/data size mismatch)`,
      );
    }
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (++entries > limits.maxEntries) fail(`more than ${limits.maxEntries} entries`);

    if (type === 'x' || type === 'g') {
      if (size > 1024 * 1024) fail(`PAX header at byte ${offset} is larger than 1 MiB`);
      const records = parsePax(data, fail);
      if (type === 'x') {
        if (records.has('path')) paxPath = records.get('path');
        const s = records.get('size');
        if (s !== undefined) {
          if (!/^[0-9]{1,15}$/.test(s)) fail(`PAX size ${JSON.stringify(s)} is not a number`);
          paxSize = Number(s);
        }
      }
      continue;
    }
    if (type === 'L') {
      if (size > 64 * 1024) fail('GNU long name longer than 64 KiB');
      gnuLongName = str(data, 0, data.byteLength);
      continue;
    }
    if (type === 'K') continue; // a GNU long link name; the link entry itself is refused below

    let rawName = paxPath ?? gnuLongName;
    if (rawName === undefined) {
      const name = str(h, 0, 100);
      const magic = str(h, 257, 6);
      const prefix = magic === 'ustar' ? str(h, 345, 155) : '';
      rawName = prefix === '' ? name : `${prefix}/${name}`;
    }
    paxPath = undefined;
    paxSize = undefined;
    gnuLongName = undefined;

    if (type === '5') {
      const dir = cleanEntryPath(rawName, 'directory', where);
      if (files.has(dir)) fail(`entry ${JSON.stringify(dir)} is both a file and a directory`);
      addDirs(dir + '/x', dirs);
      continue;
    }
    if (type === '1' || type === '2')
      fail(
        `entry ${JSON.stringify(rawName)} is a ${type === '1' ? 'hard' : 'symbolic'} link; links are not allowed in a bundle`,
      );
    if (type !== '0' && type !== '7')
      fail(
        `entry ${JSON.stringify(rawName)} has type ${JSON.stringify(type)}; only regular files and directories are allowed`,
      );

    const path = cleanEntryPath(rawName, 'file', where);
    if (size > limits.maxFileBytes)
      fail(`entry ${JSON.stringify(path)} is ${size} bytes, over the ${limits.maxFileBytes}-byte per-file cap`);
    total += size;
    if (total > limits.maxTotalBytes) fail(`files add up to more than the ${limits.maxTotalBytes}-byte cap`);
    if (files.has(path)) fail(`entry ${JSON.stringify(path)} appears twice`);
    if (dirs.has(path)) fail(`entry ${JSON.stringify(path)} is both a file and a directory`);
    addDirs(path, dirs);
    for (const d of ancestors(path))
      if (files.has(d)) fail(`entry ${JSON.stringify(path)} is inside ${JSON.stringify(d)}, which is a file`);
    files.set(path, new Uint8Array(data));
  }
  return files;
}

function ancestors(path: string): string[] {
  const out: string[] = [];
  let i = path.indexOf('/');
  while (i >= 0) {
    out.push(path.slice(0, i));
    i = path.indexOf('/', i + 1);
  }
  return out;
}

function addDirs(path: string, dirs: Set<string>): void {
  for (const d of ancestors(path)) dirs.add(d);
}

function verifyChecksum(h: Uint8Array, offset: number, fail: (why: string) => never): void {
  const stored = parseOctal(h.subarray(148, 156));
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : h[i]!;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  if (stored === undefined || (stored !== unsigned && stored !== signed))
    fail(`bad tar header checksum at byte ${offset} (corrupt or not a tar archive)`);
}

function parseOctal(field: Uint8Array): number | undefined {
  const s = Buffer.from(field)
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (s === '') return 0;
  if (!/^[0-7]{1,12}$/.test(s)) return undefined;
  return parseInt(s, 8);
}

function parseNumber(field: Uint8Array, offset: number, fail: (why: string) => never): number {
  if ((field[0]! & 0x80) !== 0) {
    // GNU base-256; negative numbers (0xff lead byte) are refused.
    if (field[0] === 0xff) fail(`negative size in tar header at byte ${offset}`);
    let n = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) {
      n = n * 256 + field[i]!;
      if (n > Number.MAX_SAFE_INTEGER) fail(`size too large in tar header at byte ${offset}`);
    }
    return n;
  }
  const n = parseOctal(field);
  if (n === undefined) fail(`unreadable size field in tar header at byte ${offset}`);
  return n;
}

function parsePax(data: Uint8Array, fail: (why: string) => never): Map<string, string> {
  const records = new Map<string, string>();
  const text = Buffer.from(data);
  let i = 0;
  while (i < text.length) {
    if (text[i] === 0) break;
    const space = text.indexOf(0x20, i);
    if (space < 0) fail('malformed PAX record');
    const lenText = text.subarray(i, space).toString('latin1');
    if (!/^[0-9]{1,7}$/.test(lenText)) fail('malformed PAX record length');
    const len = Number(lenText);
    if (len <= space - i || i + len > text.length || text[i + len - 1] !== 0x0a) fail('malformed PAX record');
    const record = text.subarray(space + 1, i + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq <= 0) fail('malformed PAX record (no key)');
    records.set(record.slice(0, eq), record.slice(eq + 1));
    i += len;
  }
  return records;
}
