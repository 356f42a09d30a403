/**
 * Remote-input snapshots and reports across the render child's JSON-lines
 * pipe. A RemoteSnapshot holds bytes (http bodies, bundle files) as
 * Uint8Array, which JSON cannot carry, so bytes travel as base64 strings.
 * The parent decodes what the child reports (needs, deps, policy) with
 * checks, so a malformed line is an error, never a wrong fetch.
 *
 * Invariants: decodeSnapshot(encodeSnapshot(s)) equals s byte for byte;
 * decodeReport accepts only the shapes remote-types.ts describes; records
 * keyed by input text (snapshot keys, bundle paths) have a null prototype,
 * so `__proto__` is an ordinary key.
 */
import type {
  FetchPolicy,
  RemoteDep,
  RemoteEntry,
  RemoteNeed,
  RemoteReport,
  RemoteSnapshot,
} from '../remote-inputs/remote-types.js';

export type EncodedEntry =
  | (Omit<Extract<RemoteEntry, { kind: 'http'; status: 'ok' }>, 'bytes'> & { bytes: string })
  | Exclude<RemoteEntry, { kind: 'http'; status: 'ok' } | { kind: 'oci'; status: 'ok' }>
  | (Omit<Extract<RemoteEntry, { kind: 'oci'; status: 'ok' }>, 'files'> & { files: Record<string, string> });

export type EncodedSnapshot = Record<string, EncodedEntry>;

export class CodecError extends Error {}

const b64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
const unb64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

export function encodeSnapshot(snapshot: RemoteSnapshot): EncodedSnapshot {
  const out: EncodedSnapshot = Object.create(null) as EncodedSnapshot;
  for (const [key, entry] of Object.entries(snapshot)) {
    if (entry.kind === 'http' && entry.status === 'ok') out[key] = { ...entry, bytes: b64(entry.bytes) };
    else if (entry.kind === 'oci' && entry.status === 'ok') {
      const files: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [path, bytes] of Object.entries(entry.files)) files[path] = b64(bytes);
      out[key] = { ...entry, files };
    } else out[key] = entry;
  }
  return out;
}

/** The child's side: trusts the parent (it wrote the line), only turns base64 back into bytes. */
export function decodeSnapshot(encoded: EncodedSnapshot): RemoteSnapshot {
  const out: RemoteSnapshot = Object.create(null) as RemoteSnapshot;
  for (const [key, entry] of Object.entries(encoded)) {
    if (entry.kind === 'http' && entry.status === 'ok') out[key] = { ...entry, bytes: unb64(entry.bytes) };
    else if (entry.kind === 'oci' && entry.status === 'ok') {
      const files: Record<string, Uint8Array> = Object.create(null) as Record<string, Uint8Array>;
      for (const [path, text] of Object.entries(entry.files)) files[path] = unb64(text);
      out[key] = { ...entry, files };
    } else out[key] = entry;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown, where: string): string {
  if (typeof v !== 'string') throw new CodecError(`${where}: expected a string`);
  return v;
}

function strOrNull(v: unknown, where: string): string | null {
  return v === null ? null : str(v, where);
}

function list(v: unknown, where: string): unknown[] {
  if (!Array.isArray(v)) throw new CodecError(`${where}: expected an array`);
  return v;
}

function need(v: unknown, where: string): RemoteNeed {
  if (!isObject(v)) throw new CodecError(`${where}: expected an object`);
  switch (v.kind) {
    case 'http':
      return { kind: 'http', url: str(v.url, `${where}.url`) };
    case 'oci':
      return { kind: 'oci', reference: str(v.reference, `${where}.reference`) };
    case 'image':
      return { kind: 'image', image: str(v.image, `${where}.image`) };
    case 'kubocd-package':
      return { kind: 'kubocd-package', reference: str(v.reference, `${where}.reference`) };
    default:
      throw new CodecError(`${where}.kind: unknown`);
  }
}

function dep(v: unknown, where: string): RemoteDep {
  if (!isObject(v)) throw new CodecError(`${where}: expected an object`);
  switch (v.kind) {
    case 'http':
      return { kind: 'http', url: str(v.url, `${where}.url`), digest: strOrNull(v.digest, `${where}.digest`) };
    case 'oci-tag':
      return {
        kind: 'oci-tag',
        reference: str(v.reference, `${where}.reference`),
        pinned: str(v.pinned, `${where}.pinned`),
      };
    case 'image':
      return {
        kind: 'image',
        image: str(v.image, `${where}.image`),
        resolved: strOrNull(v.resolved, `${where}.resolved`),
      };
    default:
      throw new CodecError(`${where}.kind: unknown`);
  }
}

function policy(v: unknown, where: string): FetchPolicy {
  if (!isObject(v)) throw new CodecError(`${where}: expected an object`);
  const ttl = v.ociTagTtlMs;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0)
    throw new CodecError(`${where}.ociTagTtlMs: expected a duration in ms`);
  return {
    allowHosts: list(v.allowHosts, `${where}.allowHosts`).map((h, i) => str(h, `${where}.allowHosts[${i}]`)),
    insecureRegistries: list(v.insecureRegistries, `${where}.insecureRegistries`).map((h, i) =>
      str(h, `${where}.insecureRegistries[${i}]`),
    ),
    ociTagTtlMs: ttl,
  };
}

/** The parent's side: a render child's remote report, checked field by field. */
export function decodeReport(v: unknown): RemoteReport {
  if (!isObject(v)) throw new CodecError('remote: expected an object');
  return {
    needs: list(v.needs, 'remote.needs').map((n, i) => need(n, `remote.needs[${i}]`)),
    deps: list(v.deps, 'remote.deps').map((d, i) => dep(d, `remote.deps[${i}]`)),
    policy: policy(v.policy, 'remote.policy'),
  };
}
