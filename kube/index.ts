/**
 * Public API of the cluster commands (diff, update, delete, validate) and
 * their connection handling, for server/ and the CLI glue.
 */
export {
  openCluster,
  sessionFor,
  locate,
  type ClusterSession,
  type OpenClusterOptions,
  type ObjectLocation,
} from './cluster.js';
export {
  resolveConnection,
  defaultEnvironment,
  parseRequestTimeout,
  type Impersonation,
  type ConnectionFlags,
  type ConnectionEnvironment,
  type ResolvedConnection,
} from './connection.js';
export { DiscoveryCache, type ApiResource, type ClusterDiscovery } from './discovery.js';
export { diffObjects, type DiffObjectResult, type DiffOptions, type DiffResult, type DiffStrategy } from './diff.js';
export type { ObjectRef } from './cluster.js';
export { updateObjects, type UpdateOptions, type UpdateReport, type ApplyAction } from './update.js';
export { deleteObjects, type DeleteOptions, type DeleteReport } from './delete.js';
export { validateObjects, type ValidateOptions, type ValidateReport, type ValidationProblem } from './validate.js';
export { alphabeticalOrder, dependencyOrder, type ObjectOrder } from './object-order.js';
export { KubeError, KubeApiError, type KubeErrorCode } from './errors.js';
export { ANNOTATION_LAST_APPLIED } from './last-applied.js';
export { LABEL_GC_TAG, ANNOTATION_GC_STRATEGY } from './gc-policy.js';
export type { GcReport } from './gc.js';
