/**
 * Typed errors of the cluster commands. Every error carries a stable
 * `KUBE_*` code and a message saying which object or setting is at fault
 * and why. Invariants: messages never contain credentials (tokens, keys,
 * URL user-info) nor Secret data.
 */
import { KubecfgError } from '../lang/common/errors.js';

export type KubeErrorCode =
  | 'KUBE_CONFIG'
  | 'KUBE_NO_CONFIG'
  | 'KUBE_AUTH'
  | 'KUBE_UNREACHABLE'
  | 'KUBE_API'
  | 'KUBE_UNKNOWN_KIND'
  | 'KUBE_INVALID_OBJECT'
  | 'KUBE_VALIDATION'
  | 'KUBE_GC_UNVERIFIABLE';

export class KubeError extends KubecfgError {
  constructor(
    readonly code: KubeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'KubeError';
  }
}

/** A failure answered by the API server, with its Status reason and HTTP code. */
export class KubeApiError extends KubeError {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super('KUBE_API', message);
    this.name = 'KubeApiError';
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }
  get isConflict(): boolean {
    return this.status === 409 && this.reason !== 'AlreadyExists';
  }
  get isForbidden(): boolean {
    return this.status === 403;
  }
}

export function isNotFound(err: unknown): boolean {
  return err instanceof KubeApiError && err.isNotFound;
}

export function isConflict(err: unknown): boolean {
  return err instanceof KubeApiError && err.isConflict;
}
