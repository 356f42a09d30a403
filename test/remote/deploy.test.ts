/**
 * deploy/ is rendered by our own tool: the Deployment, Service, HPA (CPU and
 * queue length) and ConfigMap of the remote render service come out of
 * `kubecfg show deploy/kubecfg-remote.jsonnet`, with the parameters applied.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { runCommand } from '../../server/commands/run.js';
import { repoRoot } from '../support/repo-root.js';

interface Obj {
  kind: string;
  metadata: { name: string; namespace: string };
  spec?: {
    metrics?: { type: string; pods?: { metric: { name: string } } }[];
    template?: { spec: { automountServiceAccountToken: boolean } };
  };
  data?: Record<string, string>;
}

function render(tlaCode: string[]): Obj[] {
  const root = repoRoot(import.meta.url);
  const outcome = runCommand(
    'show',
    {
      requestId: 'deploy',
      args: [join('deploy', 'kubecfg-remote.jsonnet')],
      flags: { 'tla-str': ['namespace=ci-tools'], 'tla-code': ['replicas=3', ...tlaCode] },
      cwd: root,
      env: {},
      tty: { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'never', noColor: true, forceColor: null },
    },
    { shouldStop: () => false, testHooks: false },
  );
  assert.equal(outcome.stderr, '');
  assert.equal(outcome.exitCode, 0);
  return parseAllDocuments(outcome.stdout).map((d) => d.toJS() as Obj);
}

test('deploy/kubecfg-remote.jsonnet renders the service manifests with kubecfg show', () => {
  const items = render([]);
  assert.deepEqual(items.map((o) => `${o.kind}/${o.metadata.name}`).sort(), [
    'ConfigMap/kubecfg-remote-config',
    'Deployment/kubecfg-remote',
    'Deployment/kubecfg-remote-redis',
    'HorizontalPodAutoscaler/kubecfg-remote',
    'NetworkPolicy/kubecfg-remote-redis',
    'Service/kubecfg-remote',
    'Service/kubecfg-remote-redis',
  ]);
  for (const o of items) assert.equal(o.metadata.namespace, 'ci-tools');
  const hpa = items.find((o) => o.kind === 'HorizontalPodAutoscaler')!;
  assert.deepEqual(
    hpa.spec!.metrics!.map((m) => m.type),
    ['Resource', 'Pods'],
  );
  assert.equal(hpa.spec!.metrics![1]!.pods!.metric.name, 'kubecfg_remote_renders_queued');
  const cm = items.find((o) => o.kind === 'ConfigMap')!;
  assert.match(cm.data!['remote.args']!, /--tokens \/etc\/kubecfg-remote\/tokens\/tokens.json/);
  // The replicas share the Redis deployed beside them.
  assert.match(cm.data!['remote.args']!, / --redis-url redis:\/\/kubecfg-remote-redis:6379(?: |$)/);
  const dep = items.find((o) => o.kind === 'Deployment')!;
  assert.equal(dep.spec!.template!.spec.automountServiceAccountToken, false);
});

test('deploy/kubecfg-remote.jsonnet takes an external Redis, or none', () => {
  const args = (items: Obj[]): string => items.find((o) => o.kind === 'ConfigMap')!.data!['remote.args']!;
  const external = render(["redisUrl='redis://cache.example:6379/2'"]);
  assert.ok(!external.some((o) => o.metadata.name.endsWith('-redis')), 'no Redis deployed');
  assert.match(args(external), / --redis-url redis:\/\/cache\.example:6379\/2(?: |$)/);
  const none = render(["redisUrl=''"]);
  assert.ok(!none.some((o) => o.metadata.name.endsWith('-redis')));
  assert.doesNotMatch(args(none), /--redis-url/);
});
