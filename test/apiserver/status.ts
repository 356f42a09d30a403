/**
 * Kubernetes `Status` failure bodies, as real API servers return them, and
 * the error type handlers throw to produce one. Invariants: `code` is the
 * HTTP status; `reason` is one of the metav1.StatusReason names.
 */
import type { JsonObject } from '../../lang/common/json.js';

export class ApiStatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: JsonObject,
  ) {
    super(message);
  }

  toStatus(): JsonObject {
    const status: JsonObject = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details !== undefined) status['details'] = this.details;
    return status;
  }
}

/** `deployments.apps` or `pods`: how Kubernetes names a resource in messages. */
export function qualifiedResource(plural: string, group: string): string {
  return group === '' ? plural : `${plural}.${group}`;
}

export const notFound = (plural: string, group: string, kind: string, name: string): ApiStatusError =>
  new ApiStatusError(404, 'NotFound', `${qualifiedResource(plural, group)} "${name}" not found`, {
    name,
    group,
    kind: plural,
  });

export const alreadyExists = (plural: string, group: string, name: string): ApiStatusError =>
  new ApiStatusError(409, 'AlreadyExists', `${qualifiedResource(plural, group)} "${name}" already exists`, {
    name,
    group,
    kind: plural,
  });

export const conflict = (plural: string, group: string, name: string, why: string): ApiStatusError =>
  new ApiStatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(plural, group)} "${name}": ${why}`,
    { name, group, kind: plural },
  );

export const badRequest = (message: string): ApiStatusError => new ApiStatusError(400, 'BadRequest', message);

export const invalid = (message: string): ApiStatusError => new ApiStatusError(422, 'Invalid', message);
