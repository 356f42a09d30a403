/** resolveDNS through the asynchronous resolver: rounds until every name is answered. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderReleaseResolvingDns } from './index.js';

const release = `apiVersion: kubocd.kubotal.io/v1alpha1
kind: Release
metadata: { name: demo, namespace: apps }
spec: { parameters: { host: db.local } }
`;
const pkg = JSON.stringify({
  apiVersion: 'v1alpha1',
  name: 'demo',
  tag: '1',
  schema: { parameters: { properties: { host: { type: 'string' } } } },
  modules: [
    {
      name: 'main',
      source: { oci: { repository: 'r', tag: '1' } },
      values: 'a: {{ resolveDNS .Parameters.host }}\nb: {{ resolveDNS "other.local" }}',
    },
  ],
});

test('resolveDNS answers come from the injected lookup, each name asked once', async () => {
  const asked: string[] = [];
  const r = await renderReleaseResolvingDns({ release, package: pkg }, async (h) => {
    asked.push(h);
    return h === 'db.local' ? '10.0.0.7' : 'fd00::1';
  });
  assert.equal(r.error, undefined);
  assert.deepEqual(r.modules?.[0]?.values, { a: '10.0.0.7', b: 'fd00::1' });
  assert.deepEqual(asked, ['db.local', 'other.local']);
});

test('a name that does not resolve fails without quoting it', async () => {
  const r = await renderReleaseResolvingDns({ release, package: pkg }, async () => undefined);
  assert.equal(
    r.error?.message,
    "module 'main': could not render 'values' template: line 1, column 7: error calling resolveDNS: resolveDNS: the host name did not resolve",
  );
});
