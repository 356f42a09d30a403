/**
 * The Cleat commands through the built CLI (`cleat check`, `cleat export`,
 * `cleat gen`), with --no-daemon and through the daemon: a type error printed
 * at its file:line:col with exit 1, an export to YAML and JSON with `--input`
 * and `--set`, the flux target's files, and the project-root rule: a lexical
 * `../` import, a symlink leading out, an out-and-back symlink and an
 * `--input` outside the root are all refused without the canary outside the
 * root ever showing up; links that stay inside render; and an edited import
 * is seen by the next export (the daemon's result cache tracks the reads);
 * `cleat argocd generate` with ARGOCD_APP_PARAMETERS from the client's env,
 * and a .cleat input of `show` behind the cleat feature.
 */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, Sandbox } from '../daemon/harness.js';

const CANARY = 'canary-7f3c91d2';

const FILES: Record<string, string> = {
  'lib/base.cleat': 'let labels = { app: "web" }\n',
  'main.cleat':
    'import * as base from "./lib/base.cleat"\n' +
    'input name: Str\n' +
    'input replicas: Int = 1\n' +
    'export { apiVersion: "v1", kind: "ConfigMap", metadata: { name: name, labels: base.labels }, data: { replicas: replicas } }\n',
  'values.yaml': 'name: from-file\nreplicas: 2\n',
  // Line 2, column 13: Int + Str.
  'bad.cleat': 'input n: Int\nexport { x: n + "a" }\n',
  'lexical-escape.cleat': 'import * as s from "../secret.cleat"\nexport { a: s.labels }\n',
  'link-escape.cleat': 'import * as s from "./evil.cleat"\nexport { a: s.labels }\n',
  'out-and-back.cleat': 'import * as s from "./back/lib/base.cleat"\nexport { a: s.labels }\n',
  'link-inside.cleat': 'import * as s from "./libl/base.cleat"\nexport { a: s.labels }\n',
  'schema.yaml':
    'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: example.com\n' +
    '  names: { kind: Widget }\n  versions:\n  - name: v1\n    storage: true\n' +
    '    schema: { openAPIV3Schema: { type: object, properties: { spec: { type: object, properties: { size: { type: integer } } } } } }\n',
};

const MODES: Array<{ name: string; flags: string[] }> = [
  { name: 'no-daemon', flags: ['--no-daemon'] },
  { name: 'daemon', flags: [] },
];

describe('Cleat through the CLI', { skip: !BUILT && 'run npm run build first', timeout: 120_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
    mkdirSync(join(sb.work, 'lib'));
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(sb.work, name), text);
    // Outside the root (sb.work has no .git, so the entry's directory is the root).
    writeFileSync(join(sb.root, 'secret.cleat'), `let labels = { app: "${CANARY}" }\n`);
    writeFileSync(join(sb.root, 'secret.yaml'), `name: ${CANARY}\n`);
    symlinkSync('../secret.cleat', join(sb.work, 'evil.cleat'));
    symlinkSync(`../${basename(sb.work)}`, join(sb.work, 'back'));
    symlinkSync('lib', join(sb.work, 'libl'));
  });
  after(() => sb.cleanup());

  for (const mode of MODES) {
    const run = (args: string[]) => sb.run([...mode.flags, ...args]);
    const noCanary = (r: { stdout: string; stderr: string }): void => {
      assert.ok(!r.stdout.includes(CANARY) && !r.stderr.includes(CANARY), 'the canary leaked');
      assert.ok(!r.stderr.includes(sb.root), 'an absolute host path leaked');
    };

    it(`${mode.name}: cleat-check prints a type error at file:line:col and exits 1`, async () => {
      const bad = await run(['cleat', 'check', 'bad.cleat']);
      assert.equal(bad.code, 1);
      assert.equal(bad.stdout, '');
      assert.match(bad.stderr, /^bad\.cleat:2:13: CLEAT_TYPE_MISMATCH: /m);
      const good = await run(['cleat', 'check', 'main.cleat']);
      assert.equal(good.code, 0, good.stderr);
      assert.equal(good.stderr, '');
    });

    it(`${mode.name}: cleat-export to YAML and JSON, --input then --set`, async () => {
      const yaml = await run(['cleat', 'export', 'main.cleat', '--input', 'values.yaml', '--set', 'replicas=3']);
      assert.equal(yaml.code, 0, yaml.stderr);
      assert.equal(
        yaml.stdout,
        '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-file\n  labels:\n    app: web\ndata:\n  replicas: 3\n',
      );
      const json = await run(['cleat', 'export', '-o', 'json', '--set', 'name=web', 'main.cleat']);
      assert.equal(json.code, 0, json.stderr);
      assert.deepEqual(JSON.parse(json.stdout), {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'web', labels: { app: 'web' } },
        data: { replicas: 1 },
      });
      const missing = await run(['cleat', 'export', 'main.cleat']);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /^main\.cleat:2:1: CLEAT_INPUT: missing input `name`/m);
    });

    it(`${mode.name}: the flux target prints the Kustomization then each component's file`, async () => {
      const r = await run(['cleat', 'export', '--target', 'flux', '--set', 'name=web', 'main.cleat']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^---\napiVersion: kustomize\.toolkit\.fluxcd\.io\/v1\nkind: Kustomization\n/);
      assert.match(r.stdout, /\n# Source: \.\/default\/manifests\.yaml\n---\napiVersion: v1\nkind: ConfigMap\n/);
    });

    it(`${mode.name}: imports and --input files stay inside the project root`, async () => {
      const refused: Array<[string[], RegExp]> = [
        [['cleat', 'export', 'lexical-escape.cleat'], /^lexical-escape\.cleat:1:20: CLEAT_IMPORT_OUTSIDE_ROOT: /m],
        [
          ['cleat', 'export', 'link-escape.cleat'],
          /^link-escape\.cleat:1:20: CLEAT_IMPORT: .*outside the project root/m,
        ],
        [
          ['cleat', 'export', 'out-and-back.cleat'],
          /^out-and-back\.cleat:1:20: CLEAT_IMPORT: .*outside the project root/m,
        ],
        [['cleat', 'export', 'evil.cleat'], /^evil\.cleat: .*outside the project root/m],
        [
          ['cleat', 'export', 'main.cleat', '--input', '../secret.yaml'],
          /^--input \.\.\/secret\.yaml: outside the project root/m,
        ],
      ];
      for (const [args, want] of refused) {
        const r = await run(args);
        assert.equal(r.code, 1, args.join(' '));
        assert.match(r.stderr, want);
        noCanary(r);
      }
      const inside = await run(['cleat', 'export', 'link-inside.cleat']);
      assert.equal(inside.code, 0, inside.stderr);
      assert.equal(inside.stdout, '---\na:\n  app: web\n');
      // --root widens the root on purpose: then the file outside is allowed.
      const widened = await run(['cleat', 'export', '--root', '..', 'lexical-escape.cleat']);
      assert.equal(widened.code, 0, widened.stderr);
      assert.match(widened.stdout, new RegExp(CANARY));
    });

    it(`${mode.name}: an edit of an imported module is seen by the next export`, async () => {
      writeFileSync(join(sb.work, 'edit.cleat'), 'import * as m from "./lib/edit.cleat"\nexport { v: m.v }\n');
      writeFileSync(join(sb.work, 'lib', 'edit.cleat'), 'let v = 1\n');
      const first = await run(['cleat', 'export', 'edit.cleat']);
      assert.equal(first.stdout, '---\nv: 1\n', first.stderr);
      writeFileSync(join(sb.work, 'lib', 'edit.cleat'), 'let v = 22\n');
      const second = await run(['cleat', 'export', 'edit.cleat']);
      assert.equal(second.stdout, '---\nv: 22\n', second.stderr);
    });

    it(`${mode.name}: cleat-gen prints the Cleat types of a CRD`, async () => {
      const r = await run(['cleat', 'gen', 'schema.yaml']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /type v1\.Widget = \{\n  apiVersion: "example\.com\/v1",/);
      const missing = await run(['cleat', 'gen', 'nope.yaml']);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /nope\.yaml/);
    });

    it(`${mode.name}: cleat argocd generate reads ARGOCD_APP_PARAMETERS from the client's environment`, async () => {
      const env = {
        ARGOCD_APP_PARAMETERS: '[{"name": "name", "string": "argo"}, {"name": "replicas", "string": "4"}]',
      };
      const r = await sb.run([...mode.flags, 'cleat', 'argocd', 'generate', '--argocd-params', 'main.cleat'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        r.stdout,
        '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argo\n  labels:\n    app: web\n' +
          '  annotations:\n    argocd.argoproj.io/sync-wave: "0"\ndata:\n  replicas: 4\n',
      );
      const params = await run(['cleat', 'argocd', 'parameters', 'main.cleat']);
      assert.equal(params.code, 0, params.stderr);
      assert.deepEqual(
        (JSON.parse(params.stdout) as { name: string; required: boolean }[]).map((p) => [p.name, p.required]),
        [
          ['name', true],
          ['replicas', false],
        ],
      );
    });

    it(`${mode.name}: show takes a .cleat file behind the cleat feature`, async () => {
      const off = await run(['show', 'link-inside.cleat']);
      assert.equal(off.code, 1);
      assert.match(off.stderr, /link-inside\.cleat: cleat is an alpha feature; turn it on with --features=cleat/);
      writeFileSync(join(sb.work, 'cm.cleat'), 'export { apiVersion: "v1", kind: "ConfigMap", metadata.name: "c" }\n');
      const on = await run(['--features=cleat', 'show', 'cm.cleat']);
      assert.equal(on.code, 0, on.stderr);
      assert.equal(on.stdout, '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n');
    });
  }
});
