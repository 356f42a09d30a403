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

test('deploy/kubecfg-remote.jsonnet renders the service manifests with kubecfg show', () => {
  const root = repoRoot(import.meta.url);
  const outcome = runCommand(
    'show',
    {
      requestId: 'deploy',
      args: [join('deploy', 'kubecfg-remote.jsonnet')],
      flags: { 'tla-str': ['namespace=ci-tools'], 'tla-code': ['replicas=3'] },
      cwd: root,
      env: {},
      tty: { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'never', noColor: true, forceColor: null },
    },
    { shouldStop: () => false, testHooks: false },
  );
  assert.equal(outcome.stderr, '');
  assert.equal(outcome.exitCode, 0);
  const items = parseAllDocuments(outcome.stdout).map((d) => d.toJS() as Obj);
  assert.deepEqual(items.map((o) => o.kind).sort(), ['ConfigMap', 'Deployment', 'HorizontalPodAutoscaler', 'Service']);
  for (const o of items) assert.equal(o.metadata.namespace, 'ci-tools');
  const hpa = items.find((o) => o.kind === 'HorizontalPodAutoscaler')!;
  assert.deepEqual(
    hpa.spec!.metrics!.map((m) => m.type),
    ['Resource', 'Pods'],
  );
  assert.equal(hpa.spec!.metrics![1]!.pods!.metric.name, 'kubecfg_remote_renders_queued');
  const cm = items.find((o) => o.kind === 'ConfigMap')!;
  assert.match(cm.data!['remote.args']!, /--tokens \/etc\/kubecfg-remote\/tokens\/tokens.json/);
  const dep = items.find((o) => o.kind === 'Deployment')!;
  assert.equal(dep.spec!.template!.spec.automountServiceAccountToken, false);
});
