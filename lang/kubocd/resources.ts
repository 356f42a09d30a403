/**
 * The Kubernetes resources a Release rendering reads, from manifest texts:
 * the Release itself (defaults filled as the controller does), Context
 * resources (their spec.context merged in the given order) and Config
 * resources (their spec.imageRedirects concatenated in name order). Every
 * text is read as written: `${...}` stays. Messages never quote values.
 */

import { compareCodepoints } from '../common/json.js';
import { mapSet } from '../gotemplate/value.js';
import { KubocdError } from './errors.js';
import { deepCopy } from './template.js';
import { parseYaml, parseYamlDocuments } from './yaml.js';

type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

export function getKey(o: Obj, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

function metaName(o: Obj): string {
  const meta = getKey(o, 'metadata');
  const name = isObj(meta) ? getKey(meta, 'name') : undefined;
  return typeof name === 'string' ? name : '';
}

export interface ReleaseResource {
  name: string;
  namespace: string;
  /** The object as `.Release` shows it, with spec.targetNamespace and spec.createNamespace defaulted. */
  object: Obj;
  spec: Obj;
}

/** Reads a Release manifest. Throws KubocdError. */
export function readRelease(text: string): ReleaseResource {
  const doc = parseYaml(text, 'the YAML document');
  if (!isObj(doc) || getKey(doc, 'kind') !== 'Release')
    throw new KubocdError('the manifest is not a Release', 'KUBOCD_MANIFEST');
  const object = deepCopy(doc);
  const name = metaName(object);
  if (!name) throw new KubocdError("the Release has no 'metadata.name'", 'KUBOCD_MANIFEST');
  let meta = getKey(object, 'metadata') as Obj;
  let namespace = getKey(meta, 'namespace');
  if (typeof namespace !== 'string' || namespace === '') {
    namespace = 'default';
    meta = { ...meta, namespace };
    mapSet(object, 'metadata', meta);
  }
  let spec = getKey(object, 'spec');
  if (spec === undefined || spec === null) spec = {};
  if (!isObj(spec)) throw new KubocdError("the Release 'spec' is not a map", 'KUBOCD_MANIFEST');
  const tn = getKey(spec, 'targetNamespace');
  if (typeof tn !== 'string' || tn === '') mapSet(spec, 'targetNamespace', namespace);
  if (typeof getKey(spec, 'createNamespace') !== 'boolean') mapSet(spec, 'createNamespace', false);
  if (typeof getKey(spec, 'enabled') !== 'boolean') mapSet(spec, 'enabled', true);
  mapSet(object, 'spec', spec);
  return { name, namespace: namespace as string, object, spec };
}

/** Deep merge: maps merge key by key, anything else from `over` replaces. */
export function mergeMaps(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const k of Object.keys(over)) {
    const a = getKey(out, k);
    const b = over[k];
    mapSet(out, k, isObj(a) && isObj(b) ? mergeMaps(a, b) : deepCopy(b));
  }
  return out;
}

/** Merges the spec.context of every Context resource of the texts, in order. Throws KubocdError. */
export function mergeContexts(texts: readonly string[]): Obj {
  let ctx: Obj = {};
  texts.forEach((text, fileIdx) => {
    let docs: unknown[];
    try {
      docs = parseYamlDocuments(text, 'the YAML document');
    } catch (e) {
      if (e instanceof KubocdError) throw e.within(`context file #${fileIdx + 1}`);
      throw e;
    }
    for (const d of docs) {
      if (!isObj(d) || getKey(d, 'kind') !== 'Context') continue;
      const spec = getKey(d, 'spec');
      const c = isObj(spec) ? getKey(spec, 'context') : undefined;
      if (c === undefined || c === null) continue;
      if (!isObj(c))
        throw new KubocdError(`context file #${fileIdx + 1}: a Context's spec.context is not a map`, 'KUBOCD_MANIFEST');
      ctx = mergeMaps(ctx, c);
    }
  });
  return ctx;
}

/** The image redirects of the Config resources of the texts, Configs in name order. Throws KubocdError. */
export function collectImageRedirects(texts: readonly string[]): unknown[] {
  const configs: { name: string; redirects: unknown[] }[] = [];
  texts.forEach((text, fileIdx) => {
    let docs: unknown[];
    try {
      docs = parseYamlDocuments(text, 'the YAML document');
    } catch (e) {
      if (e instanceof KubocdError) throw e.within(`config file #${fileIdx + 1}`);
      throw e;
    }
    for (const d of docs) {
      if (!isObj(d) || getKey(d, 'kind') !== 'Config') continue;
      const spec = getKey(d, 'spec');
      const r = isObj(spec) ? getKey(spec, 'imageRedirects') : undefined;
      configs.push({ name: metaName(d), redirects: Array.isArray(r) ? r : [] });
    }
  });
  configs.sort((a, b) => compareCodepoints(a.name, b.name));
  return configs.flatMap((c) => c.redirects.map((x) => deepCopy(x)));
}
