import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { JsonObject } from '../../lang/common/json.js';
import { EXPORT_LIST, ExportError, exportObjects, type ExportOptions } from './export-dir.js';

const root = mkdtempSync(join(tmpdir(), 'kcfg-export-'));
after(() => rmSync(root, { recursive: true, force: true }));

const cm = (name: string, data: Record<string, string> = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns' },
  data,
});

let n = 0;
function options(over: Partial<ExportOptions> = {}): ExportOptions {
  const dir = join(root, `d${n++}`);
  return {
    dir,
    dirName: 'out',
    format: 'yaml',
    // A subdirectory per namespace shows that emptied subdirectories go too.
    fileNameFormat: '{{.metadata.namespace}}/{{.metadata.name}}',
    extension: 'yaml',
    umask: 0o022,
    replace: true,
    ...over,
  };
}

/** Every file under dir, relative, sorted. */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((p) => statSync(join(dir, p)).isFile()).sort();
}

describe('export-dir', () => {
  it('without replace (plain show), a non-empty directory is refused as kubecfg refuses it', () => {
    const opts = options({ replace: false });
    exportObjects([cm('a')], opts);
    assert.deepEqual(tree(opts.dir), ['ns/a.yaml']);
    assert.throws(() => exportObjects([cm('a')], opts), /export directory "out" is not empty/);
  });

  it('replace: rewrites changed files, removes those of vanished objects, keeps foreign files', () => {
    const opts = options();
    assert.deepEqual(exportObjects([cm('a', { v: '1' }), cm('b')], opts), ['ns/a.yaml', 'ns/b.yaml']);
    assert.deepEqual(tree(opts.dir), [EXPORT_LIST, 'ns/a.yaml', 'ns/b.yaml']);
    writeFileSync(join(opts.dir, 'README'), 'mine\n');
    const before = statSync(join(opts.dir, 'ns/a.yaml')).ino;

    exportObjects([cm('a', { v: '2' }), cm('c')], opts);
    assert.deepEqual(tree(opts.dir), [EXPORT_LIST, 'README', 'ns/a.yaml', 'ns/c.yaml']);
    assert.match(readFileSync(join(opts.dir, 'ns/a.yaml'), 'utf8'), /v: "2"/);
    // A new inode: the file was renamed into place, so a reader holding the old one read it whole.
    assert.notEqual(statSync(join(opts.dir, 'ns/a.yaml')).ino, before);
    assert.equal(readFileSync(join(opts.dir, 'README'), 'utf8'), 'mine\n');
    assert.deepEqual(JSON.parse(readFileSync(join(opts.dir, EXPORT_LIST), 'utf8')), {
      files: ['ns/a.yaml', 'ns/c.yaml'],
    });

    // The last object of a subdirectory goes: the emptied subdirectory goes with it.
    exportObjects([], { ...opts, fileNameFormat: '{{.metadata.name}}' });
    assert.deepEqual(tree(opts.dir), [EXPORT_LIST, 'README']);
    assert.equal(existsSync(join(opts.dir, 'ns')), false);
  });

  it('replace: a render that would overwrite a foreign file fails and changes nothing', () => {
    const opts = options();
    exportObjects([cm('a', { v: '1' })], opts);
    writeFileSync(join(opts.dir, 'ns', 'b.yaml'), 'hand written\n');
    assert.throws(
      () => exportObjects([cm('a', { v: '2' }), cm('b')], opts),
      (err: unknown) =>
        err instanceof ExportError &&
        /export file "ns\/b.yaml" exists and was not written by kubecfg/.test(err.message),
    );
    assert.match(readFileSync(join(opts.dir, 'ns/a.yaml'), 'utf8'), /v: "1"/);
    assert.equal(readFileSync(join(opts.dir, 'ns/b.yaml'), 'utf8'), 'hand written\n');
  });

  it('replace: the first render needs an empty directory or its own list', () => {
    const opts = options();
    mkdirSync(opts.dir);
    writeFileSync(join(opts.dir, 'other.yaml'), 'x\n');
    assert.throws(() => exportObjects([cm('a')], opts), /not empty \(show --watch replaces only what it exported/);
    writeFileSync(join(opts.dir, EXPORT_LIST), '{"files":["../../etc/passwd"]}');
    assert.throws(() => exportObjects([cm('a')], opts), /is not the list kubecfg writes/);
    assert.deepEqual(tree(opts.dir), [EXPORT_LIST, 'other.yaml']);
  });

  it('replace: two objects with one file name are refused before anything is written', () => {
    const opts = options();
    assert.throws(() => exportObjects([cm('a'), cm('a')], opts), /two objects export to the same file "ns\/a.yaml"/);
    assert.deepEqual(tree(opts.dir), []);
  });

  it('replace: no temporary file is left behind', () => {
    const opts = options();
    for (let i = 0; i < 3; i++) exportObjects([cm('a', { i: String(i) })], opts);
    assert.deepEqual(
      (readdirSync(opts.dir, { recursive: true }) as string[]).filter((p) => p.endsWith('.tmp')),
      [],
    );
  });
});
