// A schema default that reads nothing of the instance (`application: Application = Application {}`)
// is evaluated once per run and shared (lang/kcl bodyValue, docs/performance.md "KCL"). What must
// not change: every instance still gets the default's value; a default that reads an attribute
// is evaluated per instance; print() in a default prints once per instance; and a default built
// while checks were deferred (a config unioned into it) is not reused where checks apply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateKcl, memoryHost, toPlain } from './index.js';

const run = (src: string): { value: unknown; printed: string } => {
  const r = evaluateKcl(memoryHost({ '/r/main.k': src }), { paths: ['/r/main.k'] });
  return { value: toPlain(r.value), printed: r.printed };
};

test('a shared static default gives every instance the same values, unions included', () => {
  const src = `schema Web:
    name: str = "w"
    application: Application = Application {}
    labels: {str:str} = {app = "web"}
    derived: str = name + "-x"

schema Application:
    replicas: int = 1

a = Web {}
b = Web {name = "b", application.replicas = 2}
c = Web {labels.tier = "front"}
d = Web {}
`;
  assert.deepEqual(run(src).value, {
    a: { name: 'w', application: { replicas: 1 }, labels: { app: 'web' }, derived: 'w-x' },
    b: { name: 'b', application: { replicas: 2 }, labels: { app: 'web' }, derived: 'b-x' },
    c: { name: 'w', application: { replicas: 1 }, labels: { app: 'web', tier: 'front' }, derived: 'w-x' },
    d: { name: 'w', application: { replicas: 1 }, labels: { app: 'web' }, derived: 'w-x' },
  });
});

test('print() in a default runs once per instance', () => {
  const src = `schema S:
    _p = print("made")
    x: int = 1

a = S {}
b = S {}
`;
  assert.equal(run(src).printed, 'made\nmade\n');
});

test('a default first built with checks deferred is checked where nothing is unioned into it', () => {
  const src = `schema Web:
    application: Application = Application {}

schema Application:
    image: str

a = Web {application.image = "x"}
`;
  assert.deepEqual(run(src).value, { a: { application: { image: 'x' } } });
  // The same default, first built deferred for a, then needed as it is for b: b must fail.
  assert.throws(() => run(`${src}b = Web {}\n`), /attribute 'image' of Application is required/);
});
