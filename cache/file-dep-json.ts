// FileDep <-> JSON: bigint fields become decimal strings, for JSON-RPC payloads and logs.
// Structured clone (worker threads) carries bigint natively and needs none of this.
// Invariant: fileDepFromJson(fileDepToJson(d)) deep-equals d; malformed input is refused with the
// offending field named, never turned into a dep that could validate by accident.
import type { FileDep } from './file-dep.js';

export interface FileDepJson {
  path: string;
  exists: boolean;
  kind?: 'dir' | 'link';
  digest?: string;
  size?: number;
  mtimeNs?: string;
  ctimeNs?: string;
  ino?: string;
  dev?: string;
  readAtNs?: string;
}

const BIGINT_FIELDS = ['mtimeNs', 'ctimeNs', 'ino', 'dev', 'readAtNs'] as const;

export function fileDepToJson(dep: FileDep): FileDepJson {
  const out: FileDepJson = { path: dep.path, exists: dep.exists };
  if (dep.kind !== undefined) out.kind = dep.kind;
  if (dep.digest !== undefined) out.digest = dep.digest;
  if (dep.size !== undefined) out.size = dep.size;
  for (const field of BIGINT_FIELDS) {
    const value = dep[field];
    if (value !== undefined) out[field] = value.toString();
  }
  return out;
}

export function fileDepFromJson(json: unknown, where = 'dep'): FileDep {
  if (typeof json !== 'object' || json === null) throw new TypeError(`${where}: expected an object`);
  const record = json as Record<string, unknown>;
  if (typeof record.path !== 'string') throw new TypeError(`${where}.path: expected a string`);
  if (typeof record.exists !== 'boolean') throw new TypeError(`${where}.exists: expected a boolean`);
  const dep: FileDep = { path: record.path, exists: record.exists };
  if (record.kind !== undefined) {
    if (record.kind !== 'dir' && record.kind !== 'link')
      throw new TypeError(`${where}.kind: expected "dir", "link" or nothing`);
    dep.kind = record.kind;
  }
  if (record.digest !== undefined) {
    if (typeof record.digest !== 'string') throw new TypeError(`${where}.digest: expected a string`);
    dep.digest = record.digest;
  }
  if (record.size !== undefined) {
    if (typeof record.size !== 'number' || !Number.isSafeInteger(record.size) || record.size < 0) {
      throw new TypeError(`${where}.size: expected a non-negative integer`);
    }
    dep.size = record.size;
  }
  for (const field of BIGINT_FIELDS) {
    const value = record[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !/^-?[0-9]+$/.test(value))
      throw new TypeError(`${where}.${field}: expected a decimal integer string`);
    dep[field] = BigInt(value);
  }
  return dep;
}
