// --root through the real importer (hazards 1, 2, 3): Argo's symlink shapes, user paths escaping
// the root, host files named by import/importstr/importbin, and a canary outside the root that
// must never appear in an error. The good shapes must still render.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { DependencyRecorder } from '../../cache/index.js';
import { SourceFile } from '../../lang/common/source.js';
import { evaluate, parseModule } from '../../lang/jsonnet/index.js';
import { createImporter } from '../commands/importer.js';
import { confine, OutsideRootError, realRoot } from './root-confine.js';
import { RemoteSession } from './remote-session.js';

const canary = `canary-${randomBytes(8).toString('hex')}`;
let base: string;
let root: string;

before(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'kubecfg-root-')));
  root = join(base, 'repo');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(join(base, 'repo-evil'));
  mkdirSync(join(base, 'other-tenant'));
  writeFileSync(join(base, 'secret.yaml'), `token: ${canary}\n`);
  writeFileSync(join(base, 'repo-evil', 'x.libsonnet'), `'${canary}'`);
  writeFileSync(join(base, 'other-tenant', 'x.libsonnet'), `'${canary}'`);
  writeFileSync(join(root, 'f'), 'good');
  writeFileSync(join(root, 'sub', 'f'), 'good-sub');
  writeFileSync(join(root, 'sub', '..f'), 'good-dotdot-name');
  // Bad links (Argo's shapes), each pointing at the canary or leaving the root.
  symlinkSync('../secret.yaml', join(root, 'up'));
  symlinkSync('..///../bad//../link/', join(root, 'messy'));
  symlinkSync('../repo/f', join(root, 'outandback'));
  symlinkSync(join(base, 'secret.yaml'), join(root, 'abs'));
  // Good links.
  symlinkSync('./f', join(root, 'dotf'));
  symlinkSync('sub/f', join(root, 'subf'));
  symlinkSync('sub/..f', join(root, 'subdotdotf'));
  symlinkSync('../sub/f', join(root, 'sub', 'back'));
  // A chain longer than 10 hops, and a cycle.
  for (let i = 0; i < 12; i++) symlinkSync(`c${i + 1}`, join(root, `c${i}`));
  writeFileSync(join(root, 'c12'), 'end');
  symlinkSync('b', join(root, 'a'));
  symlinkSync('c', join(root, 'b'));
  symlinkSync('a', join(root, 'c'));
});
after(() => rmSync(base, { recursive: true, force: true }));

function run(code: string, file = 'main.jsonnet'): { value?: unknown; error?: string } {
  const session = new RemoteSession({});
  session.root = root;
  const importer = createImporter({ recorder: new DependencyRecorder(), cwd: root, jpath: [], session });
  try {
    return { value: evaluate(parseModule(new SourceFile(file, code)), { importer }) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

describe('--root refuses', () => {
  const refused: Array<[string, string, RegExp]> = [
    ['a link to ../x', "importstr 'up'", /outside the root/],
    ['a messy ..///../ link', "importstr 'messy'", /outside the root/],
    ['an out-and-back link', "importstr 'outandback'", /outside the root/],
    ['an absolute link', "importstr 'abs'", /outside the root/],
    ['../../secret.yaml', "importstr '../secret.yaml'", /outside the root/],
    ['../../../secret', "importstr '../../secret.yaml'", /outside the root/],
    ['a sibling sharing the prefix', "import '../repo-evil/x.libsonnet'", /outside the root/],
    ["another tenant's checkout", "import '../other-tenant/x.libsonnet'", /outside the root/],
    ['/etc/passwd', "importstr '/etc/passwd'", /absolute import paths are refused under --root/],
    ['/proc/self/environ', "importstr '/proc/self/environ'", /absolute import paths are refused under --root/],
    ['importbin of the canary', `importbin '${'../secret.yaml'}'`, /outside the root/],
    ['file:// outside', "importstr 'file:///etc/passwd'", /absolute import paths are refused/],
    ['a chain of more than 10 links', "importstr 'c0'", /more than 10 symbolic links/],
    ['a link cycle', "importstr 'a'", /more than 10 symbolic links/],
    ['a NUL byte', "importstr 'f\\u0000x'", /outside the root|not found|no match/],
  ];
  for (const [name, code, why] of refused) {
    test(name, () => {
      const r = run(`{ x: ${code} }`);
      assert.ok(r.error !== undefined, `rendered: ${JSON.stringify(r.value)}`);
      assert.match(r.error, why);
      assert.ok(!r.error.includes(canary), 'the canary leaked into the error');
      assert.ok(!r.error.includes(base), 'the error names an absolute host path');
    });
  }
});

describe('--root allows', () => {
  const allowed: Array<[string, string, unknown]> = [
    ['a plain file', "importstr 'f'", 'good'],
    ['./f', "importstr 'dotf'", 'good'],
    ['sub/f', "importstr 'subf'", 'good-sub'],
    ['sub/..f', "importstr 'subdotdotf'", 'good-dotdot-name'],
    ['../sub/f from inside sub', "importstr 'sub/back'", 'good-sub'],
    ['.. that stays inside', "importstr 'sub/../f'", 'good'],
    ['the built-in library', "std.type(import 'kubecfg.libsonnet')", 'object'],
  ];
  for (const [name, code, want] of allowed) {
    test(name, () => assert.deepEqual(run(`{ x: ${code} }`), { value: { x: want } }));
  }
  test('an absolute path from a snippet (flag files) inside the root', () => {
    assert.deepEqual(run(`{ x: importstr '${join(root, 'f')}' }`, '<extvar:v>'), { value: { x: 'good' } });
  });
  test('an absolute path from a snippet outside the root is still refused', () => {
    const r = run(`{ x: importstr '${join(base, 'secret.yaml')}' }`, '<extvar:v>');
    assert.match(r.error ?? '', /outside the root/);
    assert.ok(!(r.error ?? '').includes(canary));
  });
});

test('confine and realRoot report paths as given', () => {
  assert.throws(() => realRoot('no-such-dir', base), /--root no-such-dir: no such directory/);
  assert.throws(
    () => confine(root, join(root, 'up'), 'up'),
    (e: unknown) => e instanceof OutsideRootError && e.message.startsWith('up: outside the root'),
  );
  assert.deepEqual(confine(root, join(root, 'missing', 'x'), 'x'), { path: join(root, 'missing'), exists: false });
});

test('realRoot records every link on the way to the root (and on the way to its targets), no plain directory', () => {
  const dir = join(base, 'links-above');
  mkdirSync(join(dir, 'real', 'repo'), { recursive: true });
  symlinkSync('real', join(dir, 'hop'));
  symlinkSync(join(dir, 'hop', 'repo'), join(dir, 'root-link'));
  const recorder = new DependencyRecorder();
  assert.equal(realRoot('root-link', dir, recorder), join(dir, 'real', 'repo'));
  const links = recorder
    .deps()
    .filter((d) => d.kind === 'link')
    .map((d) => d.path);
  assert.deepEqual(links, [join(dir, 'root-link'), join(dir, 'hop')]);
});
