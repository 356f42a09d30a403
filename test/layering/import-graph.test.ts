import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cycles, folderGraph, runtimeImportGraph } from './import-graph.js';

// Reads the compiled tree this test runs from; a stale dist/ (files whose
// source was deleted) can show old arrows: `npm run build:clean` removes them.
const graph = runtimeImportGraph();
const folderOf = (module: string): string => module.split('/').slice(0, -1).slice(0, 2).join('/');
const folders = folderGraph(graph, folderOf);

test('the compiled tree has no runtime import cycle', () => {
  assert.ok(graph.size > 100, `only ${graph.size} modules found: is dist/ built?`);
  assert.deepEqual(cycles(graph), []);
});

test('no upward arrow: lang/common imports nothing, lang/go only lang/common', () => {
  assert.deepEqual(folders.get('lang/common') ?? [], []);
  assert.deepEqual(folders.get('lang/go'), ['lang/common']);
  for (const [from, to] of folders) {
    if (from.startsWith('lang/') || from.startsWith('render')) {
      const up = to.filter((d) => !d.startsWith('lang/') && !d.startsWith('render'));
      assert.deepEqual(up, [], `${from} imports ${up.join(', ')}`);
    }
  }
});

test('server/commands and server/remote-inputs call nothing above them', () => {
  const above = ['server', 'server/httpd', 'server/worker', 'server/rpc', 'server/handlers', 'server/remote'];
  for (const folder of ['server/commands', 'server/remote-inputs']) {
    const bad = (folders.get(folder) ?? []).filter((d) => above.includes(d));
    assert.deepEqual(bad, [], `${folder} imports ${bad.join(', ')}`);
  }
  assert.ok(!(folders.get('server/remote-inputs') ?? []).includes('server/commands'));
});

test('the cycle finder finds a cycle', () => {
  const g = new Map([
    ['a.js', ['b.js']],
    ['b.js', ['c.js']],
    ['c.js', ['a.js']],
    ['d.js', ['a.js']],
  ]);
  assert.deepEqual(cycles(g), [['a.js', 'b.js', 'c.js']]);
});
