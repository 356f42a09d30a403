// OciError: the one error type oci/ throws. Every error carries a stable code (OCI_*) and a message
// that says where (registry, repository, reference, value path or archive entry) and why.
// Invariant: messages never contain credentials, tokens, Authorization headers or response bodies
// beyond a short, sanitized registry error code; callers may show them to users as they are.
import { KubecfgError } from '../lang/common/errors.js';

export type OciErrorCode =
  | 'OCI_REFERENCE' // a reference or oci:// URL that does not parse
  | 'OCI_NOT_FOUND' // manifest, tag, blob or in-bundle path missing
  | 'OCI_UNAUTHORIZED' // 401/403 after trying the credentials we have
  | 'OCI_DIGEST_MISMATCH' // content does not hash to the digest we asked for
  | 'OCI_MEDIA_TYPE' // a manifest or layer media type we refuse
  | 'OCI_TOO_LARGE' // a read or an archive passed its byte cap
  | 'OCI_TIMEOUT' // a request or a body read took too long
  | 'OCI_NETWORK' // connection refused, reset, DNS failure ...
  | 'OCI_REGISTRY' // any other unexpected HTTP answer
  | 'OCI_MANIFEST' // a manifest or config that is not valid JSON of the expected shape
  | 'OCI_ARCHIVE' // an unsafe or malformed tar/gzip archive
  | 'OCI_CREDENTIALS' // docker config or credential helper problems
  | 'OCI_BUNDLE' // a well-formed artifact that is not a usable kubecfg bundle
  | 'OCI_STORE'; // the on-disk bundle store failed

export class OciError extends KubecfgError {
  readonly code: OciErrorCode;
  /** HTTP status when the error came from a registry answer. */
  readonly status: number | undefined;

  constructor(code: OciErrorCode, message: string, opts: { status?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'OciError';
    this.code = code;
    this.status = opts.status;
  }
}

export function isOciError(e: unknown, code?: OciErrorCode): e is OciError {
  return e instanceof OciError && (code === undefined || e.code === code);
}

/** A short description of an unknown thrown value, safe to embed in a message. */
export function describeCause(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${e.message}` : e.message;
  }
  return String(e);
}
