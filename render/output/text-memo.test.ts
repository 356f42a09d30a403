import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonObject, type JsonValue } from '../../lang/common/json.js';
import { contentKey, TextMemo } from './text-memo.js';
import { formatYamlDocuments, marshalKubecfgYaml } from './yaml.js';
import { formatJsonObjects, goMarshalIndent } from './json.js';

/** A formatter that counts its calls and shows which value it saw. */
function counting(): { calls: number; format: (v: JsonValue) => string } {
  const f = {
    calls: 0,
    format: (v: JsonValue): string => {
      f.calls++;
      return `<${contentKey(v) ?? String(v)}>#${f.calls}`;
    },
  };
  return f;
}

const deployment = (replicas: number): JsonValue => ({
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: { replicas, template: { spec: { containers: [{ image: 'web:1' }] } } },
});

describe('TextMemo', () => {
  it('formats an object of the same content once, whatever its identity', () => {
    const memo = new TextMemo(1 << 20);
    const f = counting();
    const first = memo.text(deployment(2), f.format);
    assert.equal(memo.text(deployment(2), f.format), first);
    assert.equal(f.calls, 1);
    assert.deepEqual(memo.stats(), { hits: 1, misses: 1, entries: 1, chars: memo.stats().chars });
  });

  // Each pair differs in content, so the second must never be served the first one's text.
  const distinct: [string, JsonValue, JsonValue][] = [
    ['a nested number', deployment(2), deployment(3)],
    ['a string in an array', { a: ['x'] }, { a: ['y'] }],
    ['number and string', { a: 1 }, { a: '1' }],
    ['null and missing', { a: null }, {}],
    ['empty object and empty array', { a: {} }, { a: [] }],
    ['a __proto__ key', jsonObject([['__proto__', 1]]), {}],
    ['lone surrogates', { s: '\ud800' }, { s: '\udc00' }],
    ['key order (both formatted)', { a: 1, b: 2 }, { b: 2, a: 1 }],
    ['0 and null', { a: [0] }, { a: [null] }],
    ['a "0" string and 0', { a: '0' }, { a: 0 }],
  ];
  for (const [name, a, b] of distinct) {
    it(`tells apart ${name}`, () => {
      const memo = new TextMemo(1 << 20);
      const f = counting();
      const ta = memo.text(a, f.format);
      const tb = memo.text(b, f.format);
      assert.notEqual(ta, tb);
      assert.equal(f.calls, 2);
      assert.equal(memo.text(a, f.format), ta);
      assert.equal(memo.text(b, f.format), tb);
    });
  }

  const unmemoisable: [string, JsonValue][] = [
    ['-0 (JSON text "0")', { a: -0 }],
    ['NaN (JSON text "null")', { a: NaN }],
    ['Infinity', [Infinity]],
    ['-Infinity at the top', -Infinity],
    ['-0 at the top', -0],
    ['-0 after other items', [1, 'a', -0]],
    ['NaN deep inside', { a: [{ b: [NaN] }] }],
  ];
  for (const [name, value] of unmemoisable) {
    it(`formats ${name} every time instead of sharing a text`, () => {
      const memo = new TextMemo(1 << 20);
      const f = counting();
      memo.text(value, f.format);
      memo.text(value, f.format);
      assert.equal(f.calls, 2);
      assert.equal(contentKey(value), undefined);
    });
  }

  it('keeps -0 and 0 apart in the real YAML output', () => {
    const zero = formatYamlDocuments([{ n: 0 }]);
    const negativeZero = formatYamlDocuments([{ n: -0 }]);
    assert.equal(zero, '---\n' + marshalKubecfgYaml({ n: 0 }));
    assert.equal(negativeZero, '---\n' + marshalKubecfgYaml({ n: -0 }));
  });

  it('still memoises objects holding plain 0 and null (checked the slow, exact way)', () => {
    const memo = new TextMemo(1 << 20);
    const f = counting();
    memo.text({ n: 0, z: null, s: 'a:0}' }, f.format);
    memo.text({ n: 0, z: null, s: 'a:0}' }, f.format);
    assert.equal(f.calls, 1);
  });

  it('caches nothing when the formatter throws', () => {
    const memo = new TextMemo(1 << 20);
    let calls = 0;
    const failing = (): string => {
      calls++;
      throw new Error('too deep');
    };
    assert.throws(() => memo.text({ a: 1 }, failing), /too deep/);
    assert.throws(() => memo.text({ a: 1 }, failing), /too deep/);
    assert.equal(calls, 2);
    assert.equal(memo.stats().entries, 0);
  });

  it('stays within two generations and keeps what was used last', () => {
    const memo = new TextMemo(200);
    const f = counting();
    for (let i = 0; i < 50; i++) memo.text({ i }, f.format);
    assert.ok(memo.stats().chars <= 400, `chars ${memo.stats().chars}`);
    const before = f.calls;
    memo.text({ i: 49 }, f.format); // printed last: still there
    assert.equal(f.calls, before);
    memo.text({ i: 0 }, f.format); // printed long ago: gone, formatted again
    assert.equal(f.calls, before + 1);
  });

  it('does not keep a text larger than a generation', () => {
    const memo = new TextMemo(10);
    const f = counting();
    memo.text({ long: 'x'.repeat(20) }, f.format);
    memo.text({ long: 'x'.repeat(20) }, f.format);
    assert.equal(f.calls, 2);
    assert.equal(memo.stats().entries, 0);
  });

  it('clear() forgets everything', () => {
    const memo = new TextMemo(1 << 20);
    const f = counting();
    memo.text({ a: 1 }, f.format);
    memo.clear();
    memo.text({ a: 1 }, f.format);
    assert.equal(f.calls, 2);
  });
});

describe('show output through the memo', () => {
  it('prints exactly what the formatters print, on the first and the repeated render, after an edit', () => {
    const objects = [deployment(1), { kind: 'Service', metadata: { name: 'web' } }, { kind: 'X', n: -0, f: 0.1 }];
    const expectYaml = (objs: JsonValue[]): string => objs.map((o) => '---\n' + marshalKubecfgYaml(o)).join('');
    const expectJson = (objs: JsonValue[]): string => objs.map((o) => goMarshalIndent(o, '  ') + '\n').join('---\n');
    for (let round = 0; round < 2; round++) {
      assert.equal(formatYamlDocuments(objects), expectYaml(objects));
      assert.equal(formatJsonObjects(objects), expectJson(objects));
    }
    const edited = [deployment(5), ...objects.slice(1)];
    assert.equal(formatYamlDocuments(edited), expectYaml(edited));
    assert.equal(formatJsonObjects(edited), expectJson(edited));
    assert.match(formatYamlDocuments(edited), /replicas: 5/);
  });
});
