import { test } from 'node:test';
import assert from 'node:assert/strict';
import { orderAlphabetically, orderForApply, orderForDelete } from './order.js';
import type { FoundObject } from '../objects.js';

const obj = (apiVersion: string, kind: string, name: string, namespace?: string): FoundObject => ({
  object: { apiVersion, kind, metadata: namespace === undefined ? { name } : { name, namespace } },
  path: `$.${kind}_${name}`,
});
const names = (list: FoundObject[]): string[] =>
  list.map((f) => `${f.object.kind}/${(f.object.metadata as { name: string }).name}`);

const input = [
  obj('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'hook'),
  obj('apps/v1', 'Deployment', 'web', 'prod'),
  obj('v1', 'Service', 'web', 'prod'),
  obj('v1', 'ConfigMap', 'a', 'prod'),
  obj('v1', 'Namespace', 'prod'),
  obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com'),
  obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'reader'),
  obj('example.com/v1', 'Widget', 'w', 'prod'),
  obj('batch/v1', 'CronJob', 'nightly', 'prod'),
  obj('extensions/v1beta1', 'Deployment', 'old', 'prod'),
  obj('v1', 'Pod', 'p', 'dev'),
];

test('apply order: tiers, then namespace/name/kind', () => {
  assert.deepEqual(names(orderForApply(input)), [
    'CustomResourceDefinition/widgets.example.com',
    'Namespace/prod',
    'ClusterRole/reader',
    'ConfigMap/a',
    'Deployment/old', // extensions/v1beta1 is not served by 1.36: unknown kind, tier 50
    'Widget/w',
    'Service/web',
    'Pod/p',
    'CronJob/nightly',
    'Deployment/web',
    'ValidatingWebhookConfiguration/hook',
  ]);
});

test('a lookup describes kinds the built-in table lacks', () => {
  const lookup = (gvk: { group: string; kind: string }) =>
    gvk.group === 'example.com' ? { namespaced: false, containsPodSpec: false } : undefined;
  const ordered = names(orderForApply(input, lookup));
  assert.ok(ordered.indexOf('Widget/w') < ordered.indexOf('ConfigMap/a'));
});

test('delete order is the reverse of apply order', () => {
  assert.deepEqual(names(orderForDelete(input)), names(orderForApply(input)).reverse());
});

test('diff order is alphabetical by namespace, name, kind', () => {
  assert.deepEqual(
    names(
      orderAlphabetically([
        obj('v1', 'Service', 'b', 'x'),
        obj('v1', 'ConfigMap', 'b', 'x'),
        obj('v1', 'Namespace', 'x'),
      ]),
    ),
    ['Namespace/x', 'ConfigMap/b', 'Service/b'],
  );
});
