/**
 * Chart archive (.tgz) unpacking into an in-memory file tree, following
 * Helm's archive rules (hazards 6-8): gzip is inflated with a hard output cap
 * (100 MiB total), each file is capped at 5 MiB, tar headers are checksummed
 * and sizes checked against the data actually present. Entry names must be
 * relative, free of `..`, backslashes and drive letters, and all live under
 * one top-level directory; links and device entries are refused. Nothing is
 * written anywhere: the result is a Map from path to bytes.
 */

import { gunzipSync } from 'node:zlib';
import { KubecfgError } from '../common/errors.js';

export const MAX_DECOMPRESSED_CHART_SIZE = 100 * 1024 * 1024;
export const MAX_DECOMPRESSED_FILE_SIZE = 5 * 1024 * 1024;

export class ChartArchiveError extends KubecfgError {
  override name = 'ChartArchiveError';
  readonly code = 'HELM_ARCHIVE';
}

function fail(msg: string): never {
  throw new ChartArchiveError(msg);
}

const decoder = new TextDecoder();

function field(h: Uint8Array, off: number, len: number): string {
  const b = h.subarray(off, off + len);
  const nul = b.indexOf(0);
  return decoder.decode(nul >= 0 ? b.subarray(0, nul) : b);
}

function octal(h: Uint8Array, off: number, len: number, what: string): number {
  const s = field(h, off, len).trim();
  if (s === '') return 0;
  if (!/^[0-7]+$/.test(s)) fail(`invalid tar header: bad ${what} field`);
  return parseInt(s, 8);
}

function checksumOk(h: Uint8Array): boolean {
  const want = octal(h, 148, 8, 'checksum');
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  return sum === want;
}

/** Checks one entry name as Helm's loader does; returns the cleaned relative path. */
function checkEntryName(name: string): string {
  if (name.includes('\\')) fail(`chart illegally contains content outside the base directory: "${name}"`);
  if (/^[A-Za-z]:/.test(name) || /^\/*[A-Za-z]:/.test(name.replace(/^\.\//, '')))
    fail(`chart contains illegally named files: "${name}"`);
  if (name.startsWith('/')) fail(`chart illegally contains absolute paths: "${name}"`);
  const parts: string[] = [];
  for (const p of name.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') fail(`chart illegally references parent directory: "${name}"`);
    parts.push(p);
  }
  if (parts.length === 0) fail(`chart contains an empty file name: "${name}"`);
  return parts.join('/');
}

/** Inflates and untars a chart archive. Paths keep their top-level directory. */
export function extractChartArchive(tgz: Uint8Array): Map<string, Uint8Array> {
  let tar: Uint8Array;
  try {
    tar = gunzipSync(tgz, { maxOutputLength: MAX_DECOMPRESSED_CHART_SIZE });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError)
      fail(`chart archive expands beyond the limit of ${MAX_DECOMPRESSED_CHART_SIZE} bytes`);
    fail(`chart archive is not valid gzip: ${(e as Error).message}`);
  }
  const files = new Map<string, Uint8Array>();
  let off = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  while (off + 512 <= tar.length) {
    const h = tar.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    if (!checksumOk(h)) fail('invalid tar header: checksum mismatch');
    const size = octal(h, 124, 12, 'size');
    const type = String.fromCharCode(h[156]!);
    const dataStart = off + 512;
    const dataEnd = dataStart + size;
    if (dataEnd > tar.length) fail('invalid tar archive: entry data is shorter than its header says');
    const data = tar.subarray(dataStart, dataEnd);
    off = dataStart + Math.ceil(size / 512) * 512;
    const magic = field(h, 257, 6);
    const prefix = magic.startsWith('ustar') ? field(h, 345, 155) : '';
    let name = prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100);
    if (type === 'L') {
      longName = decoder.decode(data).replace(/\0+$/, '');
      continue;
    }
    if (type === 'x') {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(decoder.decode(data));
      if (m) paxPath = m[1];
      continue;
    }
    if (type === 'g') continue;
    if (longName !== undefined) name = longName;
    if (paxPath !== undefined) name = paxPath;
    longName = undefined;
    paxPath = undefined;
    if (type === '5') continue;
    if (type === '1' || type === '2') fail(`chart archive contains a link, which is not allowed: "${name}"`);
    if (type !== '0' && type !== '\0' && type !== '7')
      fail(`chart archive contains an unsupported entry type ${JSON.stringify(type)}: "${name}"`);
    const path = checkEntryName(name);
    if (size > MAX_DECOMPRESSED_FILE_SIZE)
      fail(`decompressed chart file "${path}" is larger than the maximum file size ${MAX_DECOMPRESSED_FILE_SIZE}`);
    files.set(path, data.slice());
  }
  if (files.size === 0) fail('no files in chart archive');
  const tops = new Set([...files.keys()].map((p) => p.split('/')[0]));
  if (tops.size !== 1 || [...files.keys()].some((p) => !p.includes('/')))
    fail('chart archive must contain exactly one top-level directory');
  const top = [...tops][0]!;
  if (!files.has(`${top}/Chart.yaml`)) fail('Chart.yaml file is missing');
  return files;
}
