/**
 * `diff -o json` and `update -o json`: one JSON document on stdout summing up
 * what the command found or did, for scripts and CI (kubecfg has no such
 * output; the text forms stay kubecfg's). Keys are stable and documented in
 * docs/cluster.md; objects keep the order the command printed them in.
 */
import type { DiffResult, ObjectRef, UpdateReport } from '../../kube/index.js';

function refFields(ref: ObjectRef): Record<string, string> {
  return {
    apiVersion: ref.apiVersion,
    kind: ref.kind,
    resource: ref.resource,
    ...(ref.namespace !== undefined ? { namespace: ref.namespace } : {}),
    name: ref.name,
  };
}

export function diffSummaryJson(result: DiffResult): string {
  const doc = {
    command: 'diff',
    differencesFound: result.differencesFound,
    objects: result.objects.map((o) => ({ ...refFields(o.ref), status: o.status, diff: o.diff })),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

export function updateSummaryJson(report: UpdateReport, dryRun: boolean): string {
  const gc = report.gc;
  const doc = {
    command: 'update',
    dryRun,
    objects: report.applied.map((a) => ({ ...refFields(a.ref), action: a.action })),
    garbageCollection:
      gc === undefined
        ? null
        : {
            deleted: gc.deleted,
            kept: gc.kept.map((k) => ({ object: k.desc, reason: k.why })),
            unverifiable: gc.unverifiable.map((k) => ({ object: k.desc, reason: k.why })),
          },
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
