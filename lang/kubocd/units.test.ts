/**
 * Table tests of the building blocks: Go durations, printf size bounds,
 * the second-parse unescaping of Release.spec.parameters, schema
 * normalization/defaults/validation paths, YAML key conversion, deep copy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { durationString as formatGoDuration, parseGoDuration } from '../go/time.js';
import { printfBound } from './size-bound.js';
import { unescapeActions } from './parameters.js';
import { applyDefaults, normalizeSchema, validateSchema } from './schema.js';
import { parseYaml, toJsonValue } from './yaml.js';
import { deepCopy } from './template.js';
import { GoFloat, sprintf } from '../gotemplate/index.js';

test('Go durations: parse and canonical form', () => {
  const cases: [string, string | undefined][] = [
    ['2m0s', '2m0s'],
    ['120s', '2m0s'],
    ['1h', '1h0m0s'],
    ['1.5h', '1h30m0s'],
    ['300ms', '300ms'],
    ['1us', '1µs'],
    ['0', '0s'],
    ['-90s', '-1m30s'],
    ['10', undefined],
    ['', undefined],
    ['1d', undefined],
    ['.s', undefined],
  ];
  for (const [text, want] of cases) {
    const ns = parseGoDuration(text);
    assert.equal(ns === undefined ? undefined : formatGoDuration(ns), want, text);
  }
});

test('printf bounds are never below the real size, and exact for plain strings', () => {
  const cases: [string, unknown[]][] = [
    ['%s-%v', ['abc', 'é']],
    ['%q', ['a"\u0001\u00ff']],
    ['%x %X % x', ['héllo', 'x', 'ab']],
    ['%d %5.2f %e %g', [12, 3.14159, 1e300, 1e-300]],
    ['%v', [[1, 'a', { b: [null, true] }]]],
    ['%#v', [{ a: 'x"y', b: [1.5, new GoFloat(2)] }]],
    ['%d', ['notanumber']],
    ['%s %s', ['one']],
    ['%s', ['a', 'b', 3]],
    ['%[2]s %[1]s', ['a', 'b']],
    ['%*d|%-*d', [8, 1, 6, 2]],
    ['%.3s|%10s|%-10v', ['abcdef', 'x', 'y']],
    ['%!', []],
    ['100%%', []],
    ['%t %c %U %o %b', [true, 65, 0x1f600, 8, 5]],
  ];
  for (const [f, args] of cases) {
    const real = Buffer.byteLength(sprintf(f, args), 'utf8');
    const { bound } = printfBound(f, args);
    assert.ok(bound >= real, `${f}: bound ${bound} < real ${real}`);
  }
  assert.equal(printfBound('ab%scd%v', ['xyz', 'é']).bound, 9);
  assert.equal(printfBound('%p', [1]).usesP, true);
  assert.equal(printfBound('%%p', []).usesP, false);
});

test('unescapeActions: quotes and whitespace escapes in actions, nothing else', () => {
  const cases: [string, string | undefined][] = [
    ['{"host":"{{ printf \\"a.%s\\" .x }}"}', '{"host":"{{ printf "a.%s" .x }}"}'],
    ['{"a":"{{\\tif .x\\n}}y{{ end }}"}', '{"a":"{{\tif .x\n}}y{{ end }}"}'],
    ['{"a":"{{ printf \\"a\\tb\\" }}"}', undefined],
    ['{"a":"{{ printf \\"a\\\\b\\" }}"}', undefined],
    ['{"a":"{{ .x \\u003c }}"}', undefined],
    ['{"a":"{{/* \\" \\\\ */}}b"}', '{"a":"{{/* \\" \\\\ */}}b"}'],
    ['{"a":"{{- /* c */ -}}\\"x"}', '{"a":"{{- /* c */ -}}\\"x"}'],
    ['{"a":"{{ printf \\"}}\\" }}"}', '{"a":"{{ printf "}}" }}"}'],
    ['{"a":"{{ .x "}', undefined],
    ['{"a":"no action \\" here"}', '{"a":"no action \\" here"}'],
  ];
  for (const [text, want] of cases) assert.equal(unescapeActions(text), want, text);
});

test('schema pattern: Go RE2 syntax, linear-time matching', () => {
  const s = (pattern: string) => normalizeSchema({ properties: { v: { type: 'string', pattern } } }, false);
  const cases: [string, string, string | undefined][] = [
    ['^(a+)+$', `${'a'.repeat(10000)}!`, 'v: the string does not match the pattern'],
    ['^(a+)+$', 'a'.repeat(10000), undefined],
    ['^\\pL+$', 'Grüße', undefined], // RE2 class syntax, which a JS RegExp without flags lacks
    ['^[[:alpha:]]+$', 'abc', undefined],
    ['(?i)^abc$', 'ABC', undefined],
    ['^a$', 'a\n', 'v: the string does not match the pattern'], // $ is end of text in Go
    ['(?=a)', 'a', 'v: the schema pattern is not a valid regular expression'], // no lookaround in RE2
    ['(a)\\1', 'aa', 'v: the schema pattern is not a valid regular expression'],
  ];
  for (const [pattern, value, want] of cases) assert.equal(validateSchema(s(pattern), { v: value }), want, pattern);
});

test('schema: KuboCD short form, defaults, paths of declared properties only', () => {
  const s = normalizeSchema(
    {
      properties: {
        host: { type: 'string', required: true },
        replicas: { type: 'integer', default: 2, minimum: 1 },
        ingress: { properties: { className: { type: 'string', default: 'nginx' }, tls: { type: 'boolean' } } },
        zones: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      },
    },
    false,
  );
  const v = applyDefaults(s, { host: 'h' });
  assert.deepEqual(toJsonValue(v), { host: 'h', replicas: 2, ingress: { className: 'nginx' } });
  const cases: [unknown, string | undefined][] = [
    [{ host: 'h' }, undefined],
    [{}, 'host: the property is required'],
    [{ host: 1 }, 'host: the value has the wrong type, expected string'],
    [{ host: 'h', replicas: 1.5 }, 'replicas: the value has the wrong type, expected integer'],
    [{ host: 'h', replicas: new GoFloat(3) }, undefined],
    [{ host: 'h', replicas: 0 }, 'replicas: the value is less than the minimum'],
    [{ host: 'h', secretKEY: 1 }, '(root): a property is not declared in the schema'],
    [{ host: 'h', ingress: { secretKEY: 1 } }, 'ingress: a property is not declared in the schema'],
    [{ host: 'h', zones: ['a', 'c'] }, 'zones.1: the value is not one of the allowed values'],
  ];
  for (const [value, want] of cases) assert.equal(validateSchema(s, value), want, JSON.stringify(value));
  const ctx = normalizeSchema({ properties: { a: { type: 'string' } } }, true);
  assert.equal(validateSchema(ctx, { a: 'x', other: 1 }), undefined);
  assert.throws(
    () => normalizeSchema({ properties: { a: { description: 'no type' } } }, false),
    /missing type for node '.a'/,
  );
});

test('YAML: keys converted to strings, numbers as float64', () => {
  assert.deepEqual(toJsonValue(parseYaml('1: a\nyes: b\n1.5: c', 'the YAML document')), {
    '1': 'a',
    '1.5': 'c',
    true: 'b',
  });
  // YAML 1.1 reads yes as true, so these keys collide once converted.
  assert.throws(() => parseYaml('true: a\nyes: b', 'the YAML document'), /keys are the same once converted/);
  const v = parseYaml('num: 3\nf: 1.5', 'the YAML document') as Record<string, unknown>;
  assert.ok(v['num'] instanceof GoFloat);
  assert.equal(v['f'], 1.5);
  assert.equal(toJsonValue(parseYaml('t: 2026-01-01', 'the YAML document')) !== null, true);
});

test('deepCopy: independent maps and lists, __proto__ kept as data', () => {
  const src = JSON.parse('{"__proto__": {"x": 1}, "l": [{"a": 1}]}') as Record<string, unknown>;
  const c = deepCopy(src);
  assert.notEqual(c['l'], src['l']);
  assert.deepEqual(Object.keys(c), ['__proto__', 'l']);
  assert.equal(Object.getPrototypeOf(c), Object.prototype);
});
