/**
 * `kubecfg delete`: deletes every configured object in reverse dependency
 * order with Foreground propagation and an optional grace period; objects
 * already gone are skipped. Invariants: the first failure other than
 * NotFound stops the command with "Error deleting <desc>: <why>".
 */
import type { JsonObject } from '../lang/common/json.js';
import { locate, type ClusterSession } from './cluster.js';
import { isNotFound, KubeError } from './errors.js';
import { dependencyOrder, type ObjectOrder } from './object-order.js';

export interface DeleteOptions {
  /** Seconds; negative or undefined means the server default (kubecfg's --grace-period=-1). */
  readonly gracePeriodSeconds?: number;
  /** Order objects would be applied in; deletion runs it backwards. */
  readonly order?: ObjectOrder;
  readonly log?: (line: string) => void;
}

export interface DeleteReport {
  readonly deleted: string[];
  readonly missing: string[];
}

export async function deleteObjects(
  session: ClusterSession,
  objects: readonly JsonObject[],
  options: DeleteOptions = {},
): Promise<DeleteReport> {
  const log = options.log ?? (() => undefined);
  log(`Fetching schemas for ${objects.length} resources`);
  const ordered = [...(await (options.order ?? dependencyOrder(session.discovery))(objects))].reverse();
  const body: JsonObject = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' };
  const grace = options.gracePeriodSeconds;
  if (grace !== undefined && grace >= 0) {
    if (!Number.isInteger(grace))
      throw new KubeError('KUBE_CONFIG', `--grace-period must be a whole number of seconds, not ${grace}`);
    body['gracePeriodSeconds'] = grace;
  }
  const report: DeleteReport = { deleted: [], missing: [] };
  for (const obj of ordered) {
    const where = await locate(session, obj);
    log(`Deleting ${where.desc}`);
    try {
      await session.client.request('DELETE', where.path, { body });
      report.deleted.push(where.desc);
    } catch (err) {
      if (isNotFound(err)) {
        report.missing.push(where.desc);
        continue;
      }
      throw new KubeError(
        err instanceof KubeError ? err.code : 'KUBE_API',
        `Error deleting ${where.desc}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  return report;
}
