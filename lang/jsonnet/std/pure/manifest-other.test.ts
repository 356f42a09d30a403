import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, errorOf } from '../../../../test/support/jsonnet-std-calls.js';

test('std.manifestIni', () => {
  const ini = { main: { a: 1, b: ['x', 'y'] }, sections: { s2: {}, s1: { k: 'v', o: { z: 1 } } } };
  assert.equal(call('manifestIni', ini), 'a = 1\nb = x\nb = y\n[s1]\nk = v\no = {"z": 1}\n[s2]\n');
  assert.equal(call('manifestIni', { sections: {} }), '');
  assert.equal(errorOf('manifestIni', {}), 'Field does not exist: sections');
  assert.equal(errorOf('manifestIni', 1), 'Unexpected type number, expected object');
});

test('std.manifestPython and manifestPythonVars', () => {
  assert.equal(
    call('manifestPython', { b: [true, false, null], a: 'x"y', c: 0.5 }),
    '{"a": "x\\"y", "b": [True, False, None], "c": 0.5}',
  );
  assert.equal(call('manifestPythonVars', { x: [1], y: 'z' }), 'x = [1]\ny = "z"\n');
  assert.equal(errorOf('manifestPythonVars', []), 'Unexpected type array, expected object');
});

test('std.manifestXmlJsonml', () => {
  assert.equal(
    call('manifestXmlJsonml', ['a', { href: 'x', n: 1 }, 'text', ['b', 'y'], ['br']]),
    '<a href="x" n="1">text<b>y</b><br></br></a>',
  );
  assert.equal(call('manifestXmlJsonml', ['p', '<&>']), '<p><&></p>');
  assert.equal(errorOf('manifestXmlJsonml', 'x'), 'Expected a JSONML value (an array), got string');
  assert.equal(errorOf('manifestXmlJsonml', []), 'Index 0 out of bounds, not within [0, 0)');
  assert.equal(errorOf('manifestXmlJsonml', ['a', 1]), 'Value non indexable: *jsonnet.valueNumber');
  assert.equal(errorOf('manifestXmlJsonml', [1]), 'Expected string or array, got number');
});
