/**
 * End to end: a Release of a podinfo-like package rendered as `kubocd render`
 * does, from fixture manifests (Release, Package, Context, Config) and a small
 * chart rendered by lang/helm: model.yaml first, the HelmRelease, then the
 * chart's manifests; the same inputs give the same bytes; `${...}` stays.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadChart } from '../../lang/helm/index.js';
import { dumpPackage, renderRelease, type ReleaseRenderInput } from '../../lang/kubocd/index.js';
import { repoRoot } from '../support/repo-root.js';

const fixtures = join(repoRoot(import.meta.url), 'test/kubocd/fixtures');
const read = (name: string): string => readFileSync(join(fixtures, name), 'utf8');

function chartFiles(dir: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set('podinfo/' + relative(dir, p), new Uint8Array(readFileSync(p)));
    }
  };
  walk(dir);
  return out;
}

function input(): ReleaseRenderInput {
  return {
    release: read('podinfo-release.yaml'),
    package: read('podinfo-package.yaml'),
    contexts: [read('context.yaml')],
    configs: [read('config.yaml')],
    charts: new Map([['main', loadChart(chartFiles(join(fixtures, 'chart')))]]),
  };
}

test('renders model.yaml, the HelmRelease and the chart manifests, in this order', () => {
  const r = renderRelease(input());
  assert.equal(r.error, undefined);
  assert.deepEqual(
    r.files.map((f) => f.path),
    [
      'model.yaml',
      'helmReleases/podinfo1-main.yaml',
      'manifests/main/podinfo/templates/deployment.yaml',
      'manifests/main/podinfo/templates/ingress.yaml',
    ],
  );
  const model = r.files[0]!.text;
  assert.match(model, /^Context:\n  ingress:\n    className: nginx\n    domain: example\.com\n/);
  assert.match(
    model,
    /ImageRedirects:\n- imagePullSecrets:\n  - internal-registry\n  newPrefix: registry\.internal:5000\/quay\/\n  oldPrefix: quay\.io\/\n- newPrefix: other\.example/,
  );
  assert.match(model, /Parameters:\n  host: podinfo\.example\.com\n/);
  const hr = r.files[1]!.text;
  assert.match(
    hr,
    /^apiVersion: helm\.toolkit\.fluxcd\.io\/v2\nkind: HelmRelease\nmetadata:\n  name: podinfo1-main\n  namespace: default\n/,
  );
  assert.match(hr, /repository: registry\.internal:5000\/quay\/jetstack\/cert-manager-controller\n/);
  assert.match(hr, /labelNames:\n    - app\n    - team\n    - tier\n/);
  assert.match(hr, /chart: podinfo\n/);
  assert.match(hr, /version: 6\.7\.1\n/);
  const deployment = r.files[2]!.text;
  assert.match(deployment, /name: podinfo1-main\n  namespace: default\n/);
  assert.match(deployment, /replicas: 2\n/);
  assert.match(deployment, /image: "registry\.internal:5000\/quay\/jetstack\/cert-manager-controller:v1\.17\.0"/);
  assert.match(r.files[3]!.text, /- host: "podinfo\.example\.com"/);
});

test('the same inputs render the same bytes', () => {
  const a = renderRelease(input());
  const b = renderRelease(input());
  assert.deepEqual(a.files, b.files);
});

test('${...} in a manifest stays as written', () => {
  const r = renderRelease(input());
  // The templateHeader ends with a newline, which every template's output starts with (as in KuboCD).
  assert.deepEqual(r.packageFields, {
    roles: ['podinfo'],
    dependencies: [],
    description: '\nuses ${BUCKET} literally',
  });
  const d = dumpPackage(read('podinfo-package.yaml'));
  assert.equal(d.ok, true);
  assert.deepEqual(d.errors, []);
});

test('a missing context value fails schema validation with the path of declared properties', () => {
  const r = renderRelease({ ...input(), contexts: [] });
  assert.equal(
    r.error?.message,
    'could not validate context: context schema validation error: ingress.domain: the property is required',
  );
  assert.deepEqual(r.files, []);
});
