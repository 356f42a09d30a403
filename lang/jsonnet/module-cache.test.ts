/**
 * Reuse of evaluated imports across evaluations (module-cache.ts): every
 * evaluation through a shared ModuleReuse must give exactly what a fresh
 * evaluation gives — values, errors and their traces — while modules whose
 * inputs did not change are handed over (counted as hits).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  JsonnetError,
  ModuleReuse,
  SourceFile,
  evaluateToString,
  parseModule,
  type EvalOptions,
  type Importer,
} from './index.js';

type Files = Record<string, string>;
type Vars = NonNullable<EvalOptions['extVars']>;

/** An in-memory importer over a flat namespace; `loads` lists every path it served. */
function memImporter(files: Files, loads: string[] = []): Importer {
  return {
    load(_from, path) {
      const text = files[path];
      if (text === undefined) throw new Error(`couldn't open import ${JSON.stringify(path)}: no such file`);
      loads.push(path);
      return { foundAt: path, contents: new TextEncoder().encode(text) };
    },
  };
}

/** Output text, or the error with its full trace. */
function run(files: Files, main: string, opts: EvalOptions = {}): string {
  try {
    const m = parseModule(new SourceFile(main, files[main]!));
    return evaluateToString(m, { importer: memImporter(files), ...opts }) as string;
  } catch (e) {
    if (e instanceof JsonnetError) return 'ERROR ' + e.format({ pretty: true, maxFrames: 20 });
    throw e;
  }
}

/** Evaluates with reuse and checks the result against a fresh evaluation. */
function checked(reuse: ModuleReuse, files: Files, main: string, opts: EvalOptions = {}): string {
  const fresh = run(files, main, opts);
  const reused = run(files, main, { ...opts, reuse });
  assert.equal(reused, fresh);
  return reused;
}

const chain: Files = {
  'main.jsonnet': "local a = import 'a.libsonnet'; { a: a.out, n: a.n }",
  'a.libsonnet': "local b = import 'b.libsonnet'; { n: b.n + 1, out: { from: 'a', b: b.out } }",
  'b.libsonnet': "local c = import 'c.libsonnet'; { n: c.n + 1, out: { from: 'b', c: c.out } }",
  'c.libsonnet': "{ n: 1, out: 'c1' }",
};

test('an unchanged closure is handed over; an edit deep in the chain invalidates every module above it', () => {
  const reuse = new ModuleReuse();
  const first = checked(reuse, chain, 'main.jsonnet');
  const missesAfterFirst = reuse.stats().misses;
  assert.equal(missesAfterFirst, 3);
  assert.equal(checked(reuse, chain, 'main.jsonnet'), first);
  assert.equal(reuse.stats().misses, 3, 'second run reuses a, b and c');
  assert.ok(reuse.stats().hits >= 1);
  const edited = { ...chain, 'c.libsonnet': "{ n: 10, out: 'c2' }" };
  const out = checked(reuse, edited, 'main.jsonnet');
  assert.match(out, /"c2"/);
  assert.match(out, /"n": 12/);
  assert.equal(reuse.stats().misses, 6, 'a, b and c are evaluated again');
});

test('an edit that leaves a sibling untouched keeps the sibling', () => {
  const files: Files = {
    'main.jsonnet': "{ x: (import 'x.libsonnet').v, y: (import 'y.libsonnet').v }",
    'x.libsonnet': '{ v: 1 }',
    'y.libsonnet': '{ v: 2 }',
  };
  const reuse = new ModuleReuse();
  checked(reuse, files, 'main.jsonnet');
  checked(reuse, { ...files, 'x.libsonnet': '{ v: 3 }' }, 'main.jsonnet');
  assert.equal(reuse.stats().misses, 3, 'x twice, y once');
});

test('ext vars: a module that reads one is invalidated when it changes; one that reads none is kept', () => {
  const files: Files = {
    'main.jsonnet': "{ env: (import 'env.libsonnet').env, fixed: (import 'fixed.libsonnet').v }",
    'env.libsonnet': "{ env: std.extVar('env') }",
    'fixed.libsonnet': "{ v: 'same' }",
  };
  const reuse = new ModuleReuse();
  const vars = (env: string, other = 'o'): Vars => ({
    env: { kind: 'string', value: env },
    other: { kind: 'string', value: other },
  });
  assert.match(checked(reuse, files, 'main.jsonnet', { extVars: vars('dev') }), /"dev"/);
  assert.equal(reuse.stats().misses, 2);
  // A var nobody reads changes: both modules are kept.
  checked(reuse, files, 'main.jsonnet', { extVars: vars('dev', 'changed') });
  assert.equal(reuse.stats().misses, 2);
  // The var env.libsonnet reads changes: only it is evaluated again.
  assert.match(checked(reuse, files, 'main.jsonnet', { extVars: vars('prod') }), /"prod"/);
  assert.equal(reuse.stats().misses, 3);
  // Removing the var is a change too (and an error, exactly as without reuse).
  assert.match(checked(reuse, files, 'main.jsonnet', { extVars: {} }), /Undefined external variable: env/);
});

test('an ext var read through a library is charged to every module that imports the library', () => {
  const files: Files = {
    'main.jsonnet': "(import 'user.libsonnet').out",
    'user.libsonnet': "local lib = import 'lib.libsonnet'; { out: lib.get('region') }",
    'lib.libsonnet': '{ get(n):: std.extVar(n) }',
  };
  const reuse = new ModuleReuse();
  for (const region of ['eu', 'eu', 'us', 'us', 'eu']) {
    const out = checked(reuse, files, 'main.jsonnet', { extVars: { region: { kind: 'string', value: region } } });
    assert.equal(out, JSON.stringify(region) + '\n');
  }
});

test('an ext var read by a builtin callback (no file to blame) invalidates everything when it changes', () => {
  const files: Files = {
    'main.jsonnet': "(import 'm.libsonnet').vals",
    'm.libsonnet': "{ vals: std.map(std.extVar, ['a']) }",
  };
  const reuse = new ModuleReuse();
  for (const a of ['1', '2', '2', '3']) {
    assert.match(
      checked(reuse, files, 'main.jsonnet', { extVars: { a: { kind: 'string', value: a } } }),
      new RegExp(`"${a}"`),
    );
  }
});

test('code ext vars: their value is reused only while their definition and their own imports are unchanged', () => {
  const files: Files = {
    'main.jsonnet': "(import 'm.libsonnet').cfg",
    'm.libsonnet': "{ cfg: std.extVar('cfg') }",
    'data.libsonnet': '{ size: 1 }',
  };
  const reuse = new ModuleReuse();
  const opts = (code: string): EvalOptions => ({ extVars: { cfg: { kind: 'code', value: code } } });
  checked(reuse, files, 'main.jsonnet', opts("import 'data.libsonnet'"));
  checked(reuse, files, 'main.jsonnet', opts("import 'data.libsonnet'"));
  assert.match(
    checked(reuse, { ...files, 'data.libsonnet': '{ size: 2 }' }, 'main.jsonnet', opts("import 'data.libsonnet'")),
    /"size": 2/,
  );
  assert.match(checked(reuse, files, 'main.jsonnet', opts('{ size: 3 }')), /"size": 3/);
});

test('a lazy import first forced in a later request is tracked from then on', () => {
  const files: Files = {
    'first.jsonnet': "(import 'm.libsonnet').eager",
    'second.jsonnet': "(import 'm.libsonnet').lazy",
    'm.libsonnet': "{ eager: 1, lazy: (import 'late.libsonnet').v }",
    'late.libsonnet': '{ v: 1 }',
  };
  const reuse = new ModuleReuse();
  checked(reuse, files, 'first.jsonnet');
  assert.equal(checked(reuse, files, 'second.jsonnet'), '1\n');
  // m's cached object has `lazy` filled from late v1; editing late must not serve it again.
  assert.equal(checked(reuse, { ...files, 'late.libsonnet': '{ v: 2 }' }, 'second.jsonnet'), '2\n');
});

test('an import that now resolves elsewhere (same path, other file) invalidates the importer', () => {
  const files: Files = {
    'main.jsonnet': "(import 'm.libsonnet').x",
    'm.libsonnet': "{ x: (import 'dep.libsonnet') }",
    'dep.libsonnet': '1',
    'dep2.libsonnet': '2',
  };
  const reuse = new ModuleReuse();
  checked(reuse, files, 'main.jsonnet');
  // Same bytes under another name: an importer that now finds dep.libsonnet at another place.
  const moved: Importer = {
    load(from, path, kind) {
      return memImporter(files).load(from, path === 'dep.libsonnet' ? 'dep2.libsonnet' : path, kind);
    },
  };
  const m = parseModule(new SourceFile('main.jsonnet', files['main.jsonnet']!));
  assert.equal(evaluateToString(m, { importer: moved, reuse }), '2\n');
});

test("a reused module's reads are still made through the current request's importer", () => {
  const reuse = new ModuleReuse();
  const m = parseModule(new SourceFile('main.jsonnet', chain['main.jsonnet']!));
  evaluateToString(m, { importer: memImporter(chain), reuse });
  const loads: string[] = [];
  evaluateToString(m, { importer: memImporter(chain, loads), reuse });
  assert.deepEqual([...new Set(loads)].sort(), ['a.libsonnet', 'b.libsonnet', 'c.libsonnet']);
});

test('error traces are the same with and without reuse, on every repeat', () => {
  const files: Files = {
    'main.jsonnet': "local m = import 'm.libsonnet'; { ok: m.ok, bad: m.bad, checked: m.checked }",
    'm.libsonnet': [
      "local h = import 'h.libsonnet';",
      '{',
      '  ok: 1,',
      '  bad: h.fail(self.ok),',
      "  checked: { assert self.n > 5 : 'n too small', n: 3 },",
      '}',
    ].join('\n'),
    'h.libsonnet': "{ fail(x):: if x > 0 then error 'failed with ' + x else x }",
  };
  const reuse = new ModuleReuse();
  const first = checked(reuse, files, 'main.jsonnet');
  assert.match(first, /^ERROR RUNTIME ERROR: failed with 1/);
  for (let i = 0; i < 3; i++) assert.equal(checked(reuse, files, 'main.jsonnet'), first);
  const asserting = { ...files, 'main.jsonnet': "(import 'm.libsonnet').checked" };
  const a1 = checked(reuse, asserting, 'main.jsonnet');
  assert.match(a1, /n too small/);
  assert.equal(checked(reuse, asserting, 'main.jsonnet'), a1);
});

test('a request cancelled in the middle leaves nothing half-done for the next one', () => {
  const files: Files = {
    'main.jsonnet': "local m = import 'm.libsonnet'; { total: m.total, obj: m.obj }",
    'm.libsonnet': [
      '{',
      '  total: std.foldl(function(a, b) a + b, std.range(1, 20000), 0),',
      '  obj: { assert std.length(std.range(1, 5000)) == 5000, v: self.w, w: 1 },',
      '}',
    ].join('\n'),
  };
  const reuse = new ModuleReuse();
  for (const budget of [1, 5, 20, 60, 200]) {
    let polls = 0;
    const cancelled = run(files, 'main.jsonnet', { reuse, shouldStop: () => ++polls > budget });
    if (cancelled.startsWith('ERROR')) assert.match(cancelled, /evaluation cancelled/);
    // The next request (not cancelled) gets the full, fresh answer; and no old cancellation replays.
    assert.equal(checked(reuse, files, 'main.jsonnet'), run(files, 'main.jsonnet'));
  }
});

test('a cancelled request does not leave its cancel poll behind in reused values', () => {
  const files: Files = {
    'main.jsonnet': "(import 'm.libsonnet').f(3000)",
    'm.libsonnet': '{ f(n):: std.foldl(function(acc, i) acc + i % 7, std.range(1, n), 0) }',
  };
  const reuse = new ModuleReuse();
  assert.match(run(files, 'main.jsonnet', { reuse, shouldStop: () => true }), /evaluation cancelled/);
  assert.equal(run(files, 'main.jsonnet', { reuse }), run(files, 'main.jsonnet'));
});

test('the LRU bound drops the oldest module values and results stay exact', () => {
  const files: Files = {
    'main.jsonnet': '[' + [0, 1, 2, 3, 4].map((i) => `(import 'm${i}.libsonnet')`).join(', ') + ']',
  };
  for (let i = 0; i < 5; i++)
    files[`m${i}.libsonnet`] = i < 4 ? `{ v: ${i}, next: (import 'm${i + 1}.libsonnet').v }` : '{ v: 4 }';
  const reuse = new ModuleReuse({ maxModules: 2 });
  for (let round = 0; round < 3; round++) checked(reuse, files, 'main.jsonnet');
  assert.ok(reuse.stats().modules <= 2);
});

test('natives: values holding std.native functions are kept per natives table', () => {
  const files: Files = {
    'main.jsonnet': "(import 'm.libsonnet').f('x')",
    'm.libsonnet': "{ f:: std.native('tag') }",
  };
  const reuse = new ModuleReuse();
  const natives = (t: string): EvalOptions['natives'] => ({ tag: { params: ['s'], fn: ([s]) => `${String(s)}-${t}` } });
  const n1 = natives('one');
  const n2 = natives('two');
  assert.equal(checked(reuse, files, 'main.jsonnet', { natives: n1 }), '"x-one"\n');
  assert.equal(checked(reuse, files, 'main.jsonnet', { natives: n2 }), '"x-two"\n');
  assert.equal(checked(reuse, files, 'main.jsonnet', { natives: n1 }), '"x-one"\n');
});

test('a native that evaluates Jsonnet itself while the shared evaluator is busy gets a fresh one', () => {
  const reuse = new ModuleReuse();
  const inner = parseModule(new SourceFile('inner.jsonnet', "(import 'm.libsonnet').v"));
  const files: Files = {
    'm.libsonnet': '{ v: 41 }',
    'main.jsonnet': "std.native('nested')() + (import 'm.libsonnet').v",
  };
  const natives: EvalOptions['natives'] = {
    nested: {
      params: [],
      fn: () => JSON.parse(evaluateToString(inner, { importer: memImporter(files), reuse, natives }) as string),
    },
  };
  assert.equal(checked(reuse, files, 'main.jsonnet', { natives }), '82\n');
});

// ---------------------------------------------------------------- property: random graphs and edits

interface Model {
  consts: number[];
  readsExt: boolean[];
  lazyDep: (number | null)[];
  ext: string | null;
  roots: number[];
}

const N = 6;

function filesOf(m: Model): Files {
  const files: Files = {};
  for (let i = 0; i < N; i++) {
    const deps = [i + 1, i + 2].filter((j) => j < N);
    const lazy = m.lazyDep[i];
    files[`m${i}.libsonnet`] = [
      ...deps.map((j) => `local d${j} = import 'm${j}.libsonnet';`),
      '{',
      `  v:: ${m.consts[i]}${deps.map((j) => ` + d${j}.v`).join('')}${m.readsExt[i] ? " + std.length(std.extVar('x'))" : ''},`,
      `  out: { name: 'm${i}', v: $.v },`,
      `  lazy: ${lazy != null && lazy > i ? `(import 'm${lazy}.libsonnet').out` : 'null'},`,
      '}',
    ].join('\n');
  }
  files['main.jsonnet'] = `[${m.roots.map((r) => `(import 'm${r}.libsonnet').${r % 2 ? 'lazy' : 'out'}`).join(', ')}]`;
  return files;
}

type Edit =
  | { kind: 'const'; i: number; v: number }
  | { kind: 'readsExt'; i: number }
  | { kind: 'lazy'; i: number; to: number | null }
  | { kind: 'ext'; v: string | null }
  | { kind: 'roots'; roots: number[] };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('const' as const), i: fc.nat(N - 1), v: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ kind: fc.constant('readsExt' as const), i: fc.nat(N - 1) }),
  fc.record({ kind: fc.constant('lazy' as const), i: fc.nat(N - 1), to: fc.option(fc.nat(N - 1)) }),
  fc.record({ kind: fc.constant('ext' as const), v: fc.option(fc.constantFrom('a', 'bb', 'ccc')) }),
  fc.record({
    kind: fc.constant('roots' as const),
    roots: fc.uniqueArray(fc.nat(N - 1), { minLength: 1, maxLength: 3 }),
  }),
);

function apply(m: Model, e: Edit): Model {
  const next: Model = { ...m, consts: [...m.consts], readsExt: [...m.readsExt], lazyDep: [...m.lazyDep] };
  switch (e.kind) {
    case 'const':
      next.consts[e.i] = e.v;
      break;
    case 'readsExt':
      next.readsExt[e.i] = !next.readsExt[e.i];
      break;
    case 'lazy':
      next.lazyDep[e.i] = e.to;
      break;
    case 'ext':
      next.ext = e.v;
      break;
    case 'roots':
      next.roots = e.roots;
  }
  return next;
}

test('property: after any sequence of edits, evaluating with reuse equals evaluating fresh', () => {
  const start: Model = {
    consts: Array.from({ length: N }, (_, i) => i),
    readsExt: Array.from({ length: N }, (_, i) => i === 4),
    lazyDep: Array.from({ length: N }, () => null),
    ext: 'a',
    roots: [0],
  };
  fc.assert(
    fc.property(
      fc.array(editArb, { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 8 }),
      (edits, maxModules) => {
        const reuse = new ModuleReuse({ maxModules });
        let m = start;
        for (const e of edits) {
          m = apply(m, e);
          const opts: EvalOptions = m.ext === null ? {} : { extVars: { x: { kind: 'string', value: m.ext } } };
          checked(reuse, filesOf(m), 'main.jsonnet', opts);
        }
      },
    ),
    { numRuns: 80 },
  );
});

test('clear() drops every cached value; the next evaluation starts fresh and is still exact', () => {
  const reuse = new ModuleReuse();
  checked(reuse, chain, 'main.jsonnet');
  assert.equal(reuse.stats().modules, 3);
  reuse.clear();
  assert.equal(reuse.stats().modules, 0);
  checked(reuse, chain, 'main.jsonnet');
  assert.equal(reuse.stats().misses, 6);
});

test('std.trace: a module whose evaluation printed traces is evaluated again, so every request prints them', () => {
  const files: Files = {
    'main.jsonnet': "(import 'm.libsonnet').x + (import 'quiet.libsonnet').y",
    'm.libsonnet': "{ x: std.trace('computing x', 1) }",
    'quiet.libsonnet': '{ y: 2 }',
  };
  const reuse = new ModuleReuse();
  for (let i = 0; i < 3; i++) {
    const lines: string[] = [];
    assert.equal(run(files, 'main.jsonnet', { reuse, trace: (m) => lines.push(m) }), '3\n');
    assert.deepEqual(lines, ['TRACE: m.libsonnet:1 computing x']);
  }
  assert.equal(reuse.stats().misses, 4, 'm three times, quiet once');
});
