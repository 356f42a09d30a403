/**
 * Output targets (spec §9): how component dependencies reach the cluster.
 * plain: every document in export order. argocd: each document gets the
 * `argocd.argoproj.io/sync-wave` annotation of its component's wave (an
 * annotation the author set is kept). flux: one Kustomization per component,
 * with `dependsOn` for its `after` list, plus the component's documents as a
 * file under the component's directory. Pure functions over values.
 */
import { CleatCodes, CleatError } from './diagnostics.js';
import { isObject, ObjectValue, type Value } from './value.js';

export interface ComponentOutput {
  name: string;
  after: string[];
  wave: number;
  documents: Value[];
}

const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';

export function plainTarget(components: ComponentOutput[]): Value[] {
  return components.flatMap((c) => c.documents);
}

function withAnnotation(doc: Value, key: string, value: string, where: string): Value {
  if (!isObject(doc))
    throw new CleatError(CleatCodes.COMPONENT, `component \`${where}\`: an Argo CD document must be an object`);
  const meta = doc.get('metadata');
  if (meta !== undefined && meta !== null && !isObject(meta))
    throw new CleatError(
      CleatCodes.COMPONENT,
      `component \`${where}\`: metadata must be an object`,
      undefined,
      'metadata',
    );
  const ann = meta ? meta.get('annotations') : undefined;
  if (ann !== undefined && ann !== null && !isObject(ann))
    throw new CleatError(
      CleatCodes.COMPONENT,
      `component \`${where}\`: annotations must be an object`,
      undefined,
      'metadata.annotations',
    );
  if (ann && ann.has(key)) return doc;
  const newAnn = new ObjectValue(new Map([...(ann ? ann.fields : []), [key, value]]));
  const newMeta = new ObjectValue(new Map([...(meta ? meta.fields : []), ['annotations', newAnn]]));
  const fields = new Map(doc.fields);
  fields.set('metadata', newMeta);
  return new ObjectValue(fields);
}

export function argocdTarget(components: ComponentOutput[]): Value[] {
  return components.flatMap((c) => c.documents.map((d) => withAnnotation(d, SYNC_WAVE, String(c.wave), c.name)));
}

export interface FluxOptions {
  /** The GitRepository (or OCIRepository) the Kustomizations read from. */
  sourceRef?: { kind: string; name: string };
  /** Namespace of the Kustomization objects (default flux-system). */
  namespace?: string;
  /** Directory prefix in the source where component files live (default `./`). */
  basePath?: string;
  /** Reconcile interval (default 10m). */
  interval?: string;
}

export interface FluxOutput {
  /** One Kustomization per component. */
  kustomizations: Value[];
  /** `<basePath>/<component>/manifests.yaml` → documents. */
  files: { path: string; documents: Value[] }[];
}

const obj = (entries: [string, Value][]): ObjectValue => new ObjectValue(new Map(entries));

export function fluxTarget(components: ComponentOutput[], options: FluxOptions = {}): FluxOutput {
  const base = (options.basePath ?? '.').replace(/\/+$/, '');
  const source = options.sourceRef ?? { kind: 'GitRepository', name: 'flux-system' };
  const kustomizations = components.map((c) => {
    const spec: [string, Value][] = [
      ['interval', options.interval ?? '10m'],
      ['path', `${base}/${c.name}`],
      ['prune', true],
      ['wait', true],
      [
        'sourceRef',
        obj([
          ['kind', source.kind],
          ['name', source.name],
        ]),
      ],
    ];
    if (c.after.length) spec.push(['dependsOn', c.after.map((a) => obj([['name', a]]))]);
    return obj([
      ['apiVersion', 'kustomize.toolkit.fluxcd.io/v1'],
      ['kind', 'Kustomization'],
      [
        'metadata',
        obj([
          ['name', c.name],
          ['namespace', options.namespace ?? 'flux-system'],
        ]),
      ],
      ['spec', obj(spec)],
    ]);
  });
  const files = components.map((c) => ({ path: `${base}/${c.name}/manifests.yaml`, documents: c.documents }));
  return { kustomizations, files };
}
