/**
 * --overlay-code-file with data overlays (.yaml/.yml/.json), in-process:
 * deep-merged into each input as kubecfg composes them (objects merge
 * recursively, arrays and scalars replace, new fields are added), for
 * .jsonnet and .yakl inputs alike; `NAME=FILE` and dotted `a.b=FILE` (and
 * `--overlay-code a.b=CODE`) wrap the overlay in `+:` fields; exact output.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { runShow } from './show.js';
import { wrapInFields } from './yakl-overlay.js';
import { NO_TTY as tty, IN_PROCESS as ctx } from '../../test/support/command-params.js';

const BASE_JSONNET = `{
  deployment: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      replicas: 1,
      template: { spec: { containers: [{ name: 'web', image: 'nginx:1' }] } },
    },
  },
}
`;

const BASE_YAKL = `^^: deployment
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - {name: web, image: 'nginx:1'}
`;

const PROD_YAML = `deployment:
  metadata:
    labels: {tier: prod}
    annotations: {team: shop}
  spec:
    replicas: 3
    template:
      spec:
        containers:
        - {name: web, image: 'nginx:2'}
`;

const EXPECTED_PROD = `---
apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    team: shop
  labels:
    app: web
    tier: prod
  name: web
spec:
  replicas: 3
  template:
    spec:
      containers:
      - image: nginx:2
        name: web
`;

describe('data overlays (--overlay-code-file x.yaml|x.json)', () => {
  let dir: string;
  const show = (args: string[], flags: Record<string, FlagValue>) => {
    const params: CommandParams = { requestId: 'r', args, flags, cwd: dir, env: {}, tty };
    return runShow(params, ctx);
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-overlay-'));
    writeFileSync(join(dir, 'base.jsonnet'), BASE_JSONNET);
    writeFileSync(join(dir, 'base.yakl'), BASE_YAKL);
    writeFileSync(join(dir, 'prod.yaml'), PROD_YAML);
    writeFileSync(join(dir, 'prod.yml'), PROD_YAML);
    writeFileSync(
      join(dir, 'prod.json'),
      JSON.stringify({
        deployment: {
          metadata: { labels: { tier: 'prod' }, annotations: { team: 'shop' } },
          spec: { replicas: 3, template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } },
        },
      }),
    );
    writeFileSync(join(dir, 'spec.yaml'), 'replicas: 5\nminReadySeconds: 10\n');
    writeFileSync(join(dir, 'bad.yaml'), 'a: [1\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const cases: Array<{ input: string; overlay: string; features: string }> = [
    { input: 'base.jsonnet', overlay: 'prod.yaml', features: 'overlay' },
    { input: 'base.jsonnet', overlay: 'prod.yml', features: 'overlay' },
    { input: 'base.jsonnet', overlay: 'prod.json', features: 'overlay' },
    { input: 'base.yakl', overlay: 'prod.yaml', features: 'overlay,yakl' },
    { input: 'base.yakl', overlay: 'prod.json', features: 'overlay,yakl' },
  ];
  for (const c of cases) {
    it(`${c.input} + ${c.overlay}: objects merged, the container list and scalars replaced`, () => {
      const r = show([c.input], { features: [c.features], 'overlay-code-file': c.overlay });
      assert.equal(r.stderr, '');
      assert.equal(r.exitCode, 0);
      assert.equal(r.stdout, EXPECTED_PROD);
    });
  }

  it('a dotted NAME=FILE nests the data under +: fields', () => {
    const r = show(['base.jsonnet'], { features: ['overlay'], 'overlay-code-file': 'deployment.spec=spec.yaml' });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /\nspec:\n {2}minReadySeconds: 10\n {2}replicas: 5\n {2}template:\n/);
    assert.match(r.stdout, /labels:\n {4}app: web\n/);
  });

  it('a YAML syntax error in the overlay fails the input with its location', () => {
    const r = show(['base.jsonnet'], { features: ['overlay'], 'overlay-code-file': 'bad.yaml' });
    assert.equal(r.exitCode, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /error reading base\.jsonnet: /);
  });

  it('--overlay-code NAME=CODE nests the code under +: fields, as kubecfg does', () => {
    const r = show(['base.jsonnet'], {
      features: ['overlay'],
      'overlay-code': "deployment.metadata={ labels+: { env: 'dev' } }",
    });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /\n {2}labels:\n {4}app: web\n {4}env: dev\n {2}name: web\n/);
  });

  it('--overlay-code without NAME= is composed as it is (an == is no NAME)', () => {
    const r = show(['base.jsonnet'], {
      features: ['overlay'],
      'overlay-code': '{ deployment+: { spec+: { replicas: if 1 == 1 then 7 else 0 } } }',
    });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /\n {2}replicas: 7\n/);
  });

  const wraps: Array<[string, string]> = [
    ['a', '{ "a"+: X }'],
    ['a.b', '{ "a"+: { "b"+: X } }'],
    ['app-instance_', '{ "app-instance_"+: X }'],
  ];
  for (const [path, code] of wraps) {
    it(`wrapInFields(${path})`, () => assert.equal(wrapInFields(path, 'X'), code));
  }
});
