/**
 * `.cleat` inputs of `kubecfg show` (feature cleat), in-process: refused with
 * the gate's message when the feature is off (nothing read), exported with
 * the plain target and searched for objects when on (keys sorted as show
 * prints them, Lists expanded, beside a YAML input), a non-object document
 * reported at its `$[i]` path, Cleat diagnostics as the input's error, and
 * the render half of diff and update.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { renderClusterObjects } from './cluster-render.js';
import { runShow } from './show.js';
import { NO_TTY as tty, IN_PROCESS as ctx } from '../../test/support/command-params.js';

const APP = `input name: Str = "web"
let labels = { app: name }
export [
  { apiVersion: "v1", kind: "ConfigMap", metadata: { name: name, labels: labels }, data: { on: "no" } },
  { apiVersion: "v1", kind: "List", items: [{ apiVersion: "v1", kind: "Service", metadata.name: name }] },
]
`;

describe('.cleat inputs of show', () => {
  let dir: string;
  const show = (args: string[], flags: Record<string, FlagValue>) => {
    const params: CommandParams = { requestId: 'r', args, flags, cwd: dir, env: {}, tty };
    return runShow(params, ctx);
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-cleat-show-'));
    writeFileSync(join(dir, 'app.cleat'), APP);
    writeFileSync(join(dir, 'extra.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n');
    writeFileSync(
      join(dir, 'scalar.cleat'),
      'export [{ apiVersion: "v1", kind: "ConfigMap", metadata.name: "a" }, 3]\n',
    );
    writeFileSync(join(dir, 'bad.cleat'), 'input n: Int = 1\nexport { x: n + "a" }\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('without the gate: the feature message, nothing printed', () => {
    const r = show(['app.cleat'], {});
    assert.equal(r.exitCode, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'app.cleat: cleat is an alpha feature; turn it on with --features=cleat\n');
  });

  it('with the gate: the documents as objects, next to a YAML input', () => {
    const r = show(['app.cleat', 'extra.yaml'], { features: ['cleat'] });
    assert.equal(r.stderr, '');
    assert.equal(r.exitCode, 0);
    assert.equal(
      r.stdout,
      `---
apiVersion: v1
data:
  "on": "no"
kind: ConfigMap
metadata:
  labels:
    app: web
  name: web
---
apiVersion: v1
kind: Service
metadata:
  name: web
---
apiVersion: v1
kind: Namespace
metadata:
  name: shop
`,
    );
  });

  it('a document that is not an object is reported at its path', () => {
    const r = show(['scalar.cleat'], { features: ['cleat'] });
    assert.equal(r.exitCode, 1);
    assert.match(
      r.stderr,
      /error reading scalar\.cleat: .*Looking for kubernetes object at "\$\[1\]", but instead found float64/,
    );
  });

  it('diff and update render a .cleat input the same way (the render half, no cluster)', () => {
    for (const command of ['diff', 'update'] as const) {
      const params: CommandParams = { requestId: 'r', args: ['app.cleat'], flags: {}, cwd: dir, env: {}, tty };
      const off = renderClusterObjects(command, params, ctx);
      assert.equal(off.exitCode, 1);
      assert.match(off.stderr, /app\.cleat: cleat is an alpha feature/);
      const on = renderClusterObjects(command, { ...params, flags: { features: ['cleat'] } }, ctx);
      assert.equal(on.exitCode, 0, on.stderr);
      const objects = JSON.parse(on.stdout) as { kind: string; metadata: { name: string } }[];
      assert.deepEqual(
        objects.map((o) => `${o.kind}/${o.metadata.name}`),
        ['ConfigMap/web', 'Service/web'],
      );
    }
  });

  it("Cleat diagnostics are the input's error", () => {
    const r = show(['bad.cleat'], { features: ['cleat'] });
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /^error reading bad\.cleat: bad\.cleat:2:\d+: CLEAT_TYPE_MISMATCH: /);
  });
});
