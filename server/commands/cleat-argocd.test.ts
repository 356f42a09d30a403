/**
 * `kubecfg cleat argocd generate|parameters|plugin|dockerfile` in-process:
 * generate with ARGOCD_APP_PARAMETERS (string, array and map parameters under
 * the --set string-first rule, bad parameters as located input errors), the
 * project root of an Argo CD repository copy (cwd minus
 * ARGOCD_APP_SOURCE_PATH), the dynamic parameter announcements, and the
 * plugin.yaml / Dockerfile goldens in test/cleat-cli/fixtures/argocd/.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { repoRoot } from '../../test/support/repo-root.js';
import {
  argocdCheckoutRoot,
  runCleatArgocdDockerfile,
  runCleatArgocdGenerate,
  runCleatArgocdParameters,
  runCleatArgocdPlugin,
} from './cleat-argocd.js';
import { NO_TTY as tty, IN_PROCESS as ctx } from '../../test/support/command-params.js';

// From the sources (tsx) or from dist/ alike.
const GOLDEN = join(repoRoot(import.meta.url), 'test', 'cleat-cli', 'fixtures', 'argocd');
const golden = (name: string): string => readFileSync(join(GOLDEN, name), 'utf8');

const MAIN = `input name: Str
input replicas: Int = 1
input ports: [Int] = [80]
input labels: { [Str]: Str } = {}
input debug: Bool = false
export db = [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "\\(name)-db" }, data: { debug: str(debug) } }]
export app after db = [{
  apiVersion: "apps/v1", kind: "Deployment",
  metadata: { name: name, labels: labels },
  spec: { replicas: replicas, ports: ports },
}]
`;

describe('cleat argocd (in-process)', () => {
  let repo: string;
  let app: string;
  const params = (
    args: string[],
    flags: Record<string, FlagValue>,
    env: Record<string, string> = {},
  ): CommandParams => ({
    requestId: 'r',
    args,
    flags,
    cwd: app,
    env,
    tty,
  });
  before(() => {
    // A repository copy as Argo CD's CMP server lays it out: no .git, the app in apps/web.
    repo = mkdtempSync(join(tmpdir(), 'kcfg-argocd-'));
    app = join(repo, 'apps', 'web');
    mkdirSync(join(repo, 'lib'));
    mkdirSync(app, { recursive: true });
    writeFileSync(join(repo, 'lib', 'names.cleat'), 'fn suffixed(n: Str) -> Str = "\\(n)-x"\n');
    writeFileSync(join(app, 'main.cleat'), MAIN);
    writeFileSync(
      join(app, 'shared.cleat'),
      'import * as names from "../../lib/names.cleat"\nexport { apiVersion: "v1", kind: "ConfigMap", metadata: { name: names.suffixed("a") } }\n',
    );
  });
  after(() => rmSync(repo, { recursive: true, force: true }));

  it('generate reads ARGOCD_APP_PARAMETERS with --argocd-params and adds sync waves', () => {
    const parameters = JSON.stringify([
      { name: 'name', string: 'web' },
      { name: 'replicas', string: '3' },
      { name: 'ports', array: ['80', '443'] },
      { name: 'labels', map: { tier: 'front', 'app.kubernetes.io/part-of': 'shop' } },
      { name: 'debug', string: 'true' },
    ]);
    const r = runCleatArgocdGenerate(
      params(['main.cleat'], { 'argocd-params': true }, { ARGOCD_APP_PARAMETERS: parameters }),
      ctx,
    );
    assert.equal(r.stderr, '');
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdout, golden('generate.yaml'));
  });

  it('generate without --argocd-params ignores the variable; --set still applies', () => {
    const r = runCleatArgocdGenerate(
      params(['main.cleat'], { set: ['name=plain'] }, { ARGOCD_APP_PARAMETERS: '[{"name":"name","string":"x"}]' }),
      ctx,
    );
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: plain-db/);
    assert.match(r.stdout, /argocd.argoproj.io\/sync-wave: "1"/);
  });

  it('generate with --argocd-params and no parameters set reports the missing input', () => {
    const r = runCleatArgocdGenerate(params(['main.cleat'], { 'argocd-params': true }), ctx);
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /CLEAT_INPUT: .*`name`/);
  });

  const badParams: Array<{ name: string; text: string; says: RegExp }> = [
    { name: 'not JSON', text: '[{', says: /ARGOCD_APP_PARAMETERS is not valid JSON/ },
    { name: 'not a list', text: '{"name":"x"}', says: /must be a JSON array/ },
    { name: 'entry not an object', text: '[3]', says: /ARGOCD_APP_PARAMETERS\[0\] must be an object/ },
    { name: 'no name', text: '[{"string":"a"}]', says: /ARGOCD_APP_PARAMETERS\[0\] has no name/ },
    { name: 'unknown input', text: '[{"name":"nme","string":"a"}]', says: /unknown input `nme`.*did you mean `name`/ },
    { name: 'no value', text: '[{"name":"name"}]', says: /parameter `name`: expected a string, array or map value/ },
    {
      name: 'array item not a string',
      text: '[{"name":"name","string":"a"},{"name":"ports","array":[1]}]',
      says: /parameter `ports`: array items must be strings/,
    },
    {
      name: 'array item not an Int',
      text: '[{"name":"name","string":"a"},{"name":"ports","array":["http"]}]',
      says: /CLEAT_INPUT|CLEAT_TYPE_MISMATCH/,
    },
  ];
  for (const c of badParams) {
    it(`generate rejects ARGOCD_APP_PARAMETERS: ${c.name}`, () => {
      const r = runCleatArgocdGenerate(
        params(['main.cleat'], { 'argocd-params': true }, { ARGOCD_APP_PARAMETERS: c.text }),
        ctx,
      );
      assert.equal(r.exitCode, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, c.says);
    });
  }

  it('the root is the repository copy: imports may reach above the app directory, not above the copy', () => {
    const env = { ARGOCD_APP_SOURCE_PATH: 'apps/web' };
    const ok = runCleatArgocdGenerate(params(['shared.cleat'], {}, env), ctx);
    assert.equal(ok.exitCode, 0, ok.stderr);
    assert.match(ok.stdout, /name: a-x/);
    // Outside Argo CD the root is the entry's directory (no .git), so the same import leaves it.
    const outside = runCleatArgocdGenerate(params(['shared.cleat'], {}), ctx);
    assert.equal(outside.exitCode, 1);
    assert.match(outside.stderr, /CLEAT_IMPORT_OUTSIDE_ROOT/);
  });

  const roots: Array<{ cwd: string; path: string | undefined; root: string | undefined }> = [
    { cwd: '/tmp/_cmp/u1/apps/web', path: 'apps/web', root: '/tmp/_cmp/u1' },
    { cwd: '/tmp/_cmp/u1/apps/web', path: './apps/web/', root: '/tmp/_cmp/u1' },
    { cwd: '/tmp/_cmp/u1', path: '.', root: '/tmp/_cmp/u1' },
    { cwd: '/tmp/_cmp/u1', path: '', root: '/tmp/_cmp/u1' },
    { cwd: '/tmp/_cmp/u1/apps/web', path: 'other/web', root: undefined },
    { cwd: '/tmp/_cmp/u1/apps/web', path: '../web', root: undefined },
    { cwd: '/a', path: 'a', root: undefined },
    { cwd: '/tmp/x', path: undefined, root: undefined },
  ];
  for (const c of roots) {
    it(`argocdCheckoutRoot(${c.cwd}, ${String(c.path)}) = ${String(c.root)}`, () => {
      const env: Record<string, string> = c.path === undefined ? {} : { ARGOCD_APP_SOURCE_PATH: c.path };
      assert.equal(argocdCheckoutRoot(c.cwd, env), c.root);
    });
  }

  it('parameters prints the inputs as UI parameter announcements', () => {
    const r = runCleatArgocdParameters(params(['main.cleat'], {}), ctx);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, golden('parameters.json'));
  });

  it('parameters of a program that does not check prints its diagnostics', () => {
    writeFileSync(join(app, 'bad.cleat'), 'input n: Int\nexport { x: n + "a" }\n');
    const r = runCleatArgocdParameters(params(['bad.cleat'], {}), ctx);
    assert.equal(r.exitCode, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^bad\.cleat:2:\d+: CLEAT_TYPE_MISMATCH/);
  });

  it('plugin prints plugin.yaml; dockerfile the sidecar image', () => {
    const p = runCleatArgocdPlugin(params([], {}), ctx);
    assert.equal(p.exitCode, 0, p.stderr);
    assert.equal(p.stdout, golden('plugin.yaml'));
    const named = runCleatArgocdPlugin(params([], { name: 'cleat-prod', entry: './deploy/[prod].cleat' }), ctx);
    assert.equal(named.exitCode, 0, named.stderr);
    assert.equal(named.stdout, golden('plugin-named.yaml'));
    const d = runCleatArgocdDockerfile(params([], {}), ctx);
    assert.equal(d.stdout, golden('Dockerfile'));
  });

  const badPlugin: Array<{ flags: Record<string, FlagValue>; says: RegExp }> = [
    { flags: { name: 'Cleat' }, says: /--name "Cleat": a plugin name must be a DNS label/ },
    { flags: { entry: '../main.cleat' }, says: /--entry "..\/main.cleat": must be a relative path/ },
    { flags: { entry: '/abs/main.cleat' }, says: /must be a relative path/ },
    { flags: { entry: 'main.yaml' }, says: /must name a \.cleat file/ },
  ];
  for (const c of badPlugin) {
    it(`plugin refuses ${JSON.stringify(c.flags)}`, () => {
      const r = runCleatArgocdPlugin(params([], c.flags), ctx);
      assert.equal(r.exitCode, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, c.says);
    });
  }
});
