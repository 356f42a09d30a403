/**
 * docs/features.md, generated from the registry so the page cannot drift
 * (RFC05: "The docs page listing all features is generated from the registry").
 */
import { FEATURES } from './registry.js';

export function featuresDoc(): string {
  const lines = [
    '# Feature gates',
    '',
    '<!-- Generated from render/features/registry.ts by `npm run gen:features-doc`; do not edit. -->',
    '',
    'Features that are not stable yet are off until you turn them on (RFC05). Turn them on with',
    '`--features=a,b` (repeatable; `name=false` turns one off), `KUBECFG_FEATURES`, the',
    "`flags.features` setting of `.kubecfgrc.jsonnet` (object `{yakl: true}` or array `['yakl']`),",
    'or `--alpha` / `KUBECFG_ALPHA=true` for every alpha feature. For each feature the first source',
    'that names it wins: `--features` (or `KUBECFG_FEATURES`), then the rc file, then `--alpha`, then',
    'the stage default. `kubecfg features` shows the result and which source decided it.',
    '',
    'Stages: **alpha** (off by default, may change), **beta** (on by default, only grows), **GA**',
    '(always on; `=false` is an error), **removed** (setting it warns and does nothing).',
    '',
    '| name | stage | kind | since | what it gates |',
    '| --- | --- | --- | --- | --- |',
    ...FEATURES.map((f) => `| \`${f.name}\` | ${f.stage} | ${f.kind} | ${f.since} | ${f.doc} |`),
    '',
    '`knit` is registered after the eight features of the first feature-gate release, so its',
    '`since` is the next release, v0.41.0; it is listed after them in `kubecfg features`.',
    '',
    '`kustomize-import` is registered, as kubecfg registers it, but kustomize builds are not part of',
    'this kubecfg: with the feature on, a `kustomize+https://` import fails and says so (docs/imports.md).',
    '',
  ];
  return lines.join('\n');
}
