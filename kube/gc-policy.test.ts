import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../lang/common/json.js';
import { gcTagOf, gcVerdict } from './gc-policy.js';

const obj = (meta: JsonObject): JsonObject => ({ metadata: { name: 'x', uid: 'u1', ...meta } });
const TAG = 'kubecfg.ksonnet.io/garbage-collect-tag';
const STRATEGY = 'kubecfg.ksonnet.io/garbage-collect-strategy';

test('gc eligibility', () => {
  const table: Array<[string, JsonObject, boolean]> = [
    ['label tag', obj({ labels: { [TAG]: 'mine' } }), true],
    ['annotation tag (older kubecfg)', obj({ annotations: { [TAG]: 'mine' } }), true],
    ['no tag', obj({}), false],
    ['other tag', obj({ labels: { [TAG]: 'theirs' } }), false],
    ['strategy ignore', obj({ labels: { [TAG]: 'mine' }, annotations: { [STRATEGY]: 'ignore' } }), false],
    ['unknown strategy is kept', obj({ labels: { [TAG]: 'mine' }, annotations: { [STRATEGY]: 'sometimes' } }), false],
    [
      'controller owned',
      obj({
        labels: { [TAG]: 'mine' },
        ownerReferences: [{ kind: 'ReplicaSet', name: 'r', uid: 'o', controller: true }],
      }),
      false,
    ],
    // kubecfg's update_test.go: an owner reference without `controller: true` does not protect the object.
    [
      'owned without controller',
      obj({ labels: { [TAG]: 'mine' }, ownerReferences: [{ kind: 'X', name: 'r', uid: 'o' }] }),
      true,
    ],
    [
      'owned with controller: false',
      obj({ labels: { [TAG]: 'mine' }, ownerReferences: [{ kind: 'X', name: 'r', uid: 'o', controller: false }] }),
      true,
    ],
    [
      'one controller reference among others',
      obj({
        labels: { [TAG]: 'mine' },
        ownerReferences: [
          { kind: 'X', name: 'r', uid: 'o' },
          { kind: 'Y', name: 's', uid: 'p', controller: true },
        ],
      }),
      false,
    ],
    ['applied in this run', obj({ uid: 'seen', labels: { [TAG]: 'mine' } }), false],
  ];
  for (const [what, o, want] of table)
    assert.equal(gcVerdict(o, new Set(['mine']), new Set(['seen'])).eligible, want, what);
  assert.equal(gcTagOf(obj({ labels: { [TAG]: '' }, annotations: { [TAG]: 'a' } })), 'a');
});
