/**
 * A registry answer's status checked against what the call expects, with the
 * distribution-spec error body summarised into the OciError. Shared by the
 * client and the blob upload, which must not import each other.
 */
import { OciError } from './errors.js';
import type { HttpResponse } from './http-transport.js';

export function expectStatus(res: HttpResponse, ok: number[], what: string): void {
  if (ok.includes(res.status)) return;
  throw new OciError('OCI_REGISTRY', `${what}: unexpected HTTP ${res.status}${registryErrorSummary(res)}`, {
    status: res.status,
  });
}

/** ", CODE: message" from a distribution-spec error body, sanitized and short; '' if none. */
export function registryErrorSummary(res: HttpResponse): string {
  if (res.body.byteLength === 0 || res.body.byteLength > 64 * 1024) return '';
  try {
    const doc = JSON.parse(new TextDecoder().decode(res.body)) as { errors?: { code?: unknown; message?: unknown }[] };
    const first = Array.isArray(doc.errors) ? doc.errors[0] : undefined;
    if (first === undefined || typeof first.code !== 'string') return '';
    const msg = typeof first.message === 'string' ? first.message.replace(/[^\x20-\x7e]/g, '?').slice(0, 160) : '';
    return `, ${first.code.replace(/[^A-Z0-9_]/gi, '').slice(0, 40)}${msg === '' ? '' : ': ' + msg}`;
  } catch {
    return '';
  }
}
