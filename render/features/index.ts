/** Feature gates (RFC05): the registry, per-invocation resolution and the `kubecfg features` output. */
export { FEATURES, findFeature, type Feature, type Stage, type Kind } from './registry.js';
export { Gates, FeatureError, splitFeatureFlag, ALPHA_SOURCE, type FeatureSource, type Resolution } from './gates.js';
export { featuresTable, featuresJson, tabulate } from './table.js';
export { featuresDoc } from './doc.js';
