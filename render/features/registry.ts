/**
 * The feature registry of RFC05: one table, compiled in. Moving a feature
 * forward is a one-line change here; docs/features.md is generated from it
 * (scripts/gen-features-doc) and a test fails when the page is out of date.
 * Invariants (tested): names are unique; no semantic feature is beta or GA.
 */

export type Stage = 'alpha' | 'beta' | 'GA' | 'removed';
export type Kind = 'additive' | 'semantic';

export interface Feature {
  readonly name: string;
  readonly stage: Stage;
  readonly kind: Kind;
  readonly since: string;
  readonly doc: string;
}

/**
 * The eight features RFC05 registers on the first release with feature gates,
 * then `knit`, the first feature born under the system (a later release; see
 * docs/features.md for why its `since` is v0.41.0).
 */
export const FEATURES: readonly Feature[] = [
  { name: 'eval', stage: 'alpha', kind: 'additive', since: 'v0.40.0', doc: 'the eval command' },
  { name: 'traceback', stage: 'alpha', kind: 'additive', since: 'v0.40.0', doc: 'the traceback command' },
  { name: 'pack', stage: 'alpha', kind: 'additive', since: 'v0.40.0', doc: 'the pack command (OCI bundles)' },
  {
    name: 'httpd',
    stage: 'alpha',
    kind: 'additive',
    since: 'v0.40.0',
    doc: 'the httpd command (Metacontroller hooks)',
  },
  {
    name: 'overlay',
    stage: 'alpha',
    kind: 'additive',
    since: 'v0.40.0',
    doc: 'the --overlay-code and --overlay-code-file flags',
  },
  {
    name: 'yakl',
    stage: 'alpha',
    kind: 'additive',
    since: 'v0.40.0',
    doc: 'YAML with Jsonnet expressions: .yakl files and the yakl: import scheme',
  },
  {
    name: 'kustomize-import',
    stage: 'alpha',
    kind: 'additive',
    since: 'v0.40.0',
    doc: 'kustomize+https:// imports (kustomize builds as Jsonnet values)',
  },
  {
    name: 'binary-import',
    stage: 'alpha',
    kind: 'additive',
    since: 'v0.40.0',
    doc: 'the binary:// import scheme',
  },
  {
    name: 'knit',
    stage: 'alpha',
    kind: 'additive',
    since: 'v0.41.0',
    doc: 'kubecfg.knit, the keyed-array overlay merge',
  },
  {
    name: 'cleat',
    stage: 'alpha',
    kind: 'additive',
    since: 'v0.41.0',
    doc: 'Cleat programs (.cleat files) as inputs of show, diff and update',
  },
];

const byName = new Map(FEATURES.map((f) => [f.name, f]));

export function findFeature(name: string): Feature | undefined {
  return byName.get(name);
}

/** What a stage means when nobody names the feature. */
export function defaultEnabled(stage: Stage): boolean {
  return stage === 'beta' || stage === 'GA';
}
