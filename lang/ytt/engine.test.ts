// resolveDataValues on in-memory files: the Starlark subset, load(), the
// myks env-data module, schemas (what the converter reads), and clear errors
// for bad input. Expected values follow what ytt v0.45.9 resolves (the
// corpus test checks the same behaviours against ytt's own output).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  DataValuesError,
  dataValuesYaml,
  YttError,
  resolveDataValues,
  toPlain,
  validationsByPath,
  type ResolveInput,
  type SchemaType,
} from './index.js';

function resolve(files: Record<string, string>, extra: Partial<ResolveInput> = {}): unknown {
  const names = Object.keys(files).filter((f) => !f.startsWith('lib/'));
  const r = resolveDataValues({ files: names, reader: { read: (p) => files[p] }, ...extra });
  return toPlain(r.values);
}

const STARLARK: [string, string, unknown][] = [
  ['arithmetic', '60 * 60 * 24', 86400],
  ['float division', '7 / 2', 3.5],
  ['floor division', '-7 // 2', -4],
  ['modulo sign follows divisor', '-7 % 3', 2],
  ['string concat', '"a" + "b"', 'ab'],
  ['list concat', '[1] + [2]', [1, 2]],
  ['repeat', '"ab" * 2', 'abab'],
  ['comparison chain', '1 < 2 and 2 <= 2', true],
  ['in dict', '"a" in {"a": 1}', true],
  ['conditional', '"y" if 0 else "n"', 'n'],
  ['list comprehension', '[x * x for x in range(4) if x % 2 == 0]', [0, 4]],
  ['dict comprehension', '{k: len(k) for k in ["ab", "c"]}', { ab: 2, c: 1 }],
  ['nested comprehension', '[a + b for a in "xy".elems() for b in ["1", "2"]]', ['x1', 'x2', 'y1', 'y2']],
  ['lambda', '(lambda a, b=2: a * b)(3)', 6],
  ['percent format', '"%s-%d-%r" % ("a", 3, "q")', 'a-3-"q"'],
  ['format', '"{}:{}".format("h", 80)', 'h:80'],
  ['slice', '[0, 1, 2, 3][1:3]', [1, 2]],
  ['negative index', '"abc"[-1]', 'c'],
  ['sorted with key', 'sorted(["bb", "a", "ccc"], key=len)', ['a', 'bb', 'ccc']],
  ['dict get default', '{}.get("x", 5)', 5],
  ['tuple to array', '(1, 2)', [1, 2]],
  ['None to null', 'None', null],
  ['str of list', 'str([1, "a"])', '[1, "a"]'],
  ['enumerate', '[i for i, _ in enumerate(["a", "b"])]', [0, 1]],
  ['range with start, stop and a negative step', 'range(5, 0, -2)', [5, 3, 1]],
  ['title and capitalize', '"ab cd".title() + "|" + "eF".capitalize() + "|" + "".capitalize()', 'Ab Cd|Ef|'],
  ['strip with a character set', '"xxaxx".strip("x")', 'a'],
];

for (const [name, expr, want] of STARLARK) {
  test(`starlark: ${name}`, () => {
    assert.deepEqual(resolve({ 'v.yaml': `#@data/values\n---\nv: #@ ${expr}\n` }), { v: want });
  });
}

test('for/if blocks and def with a single return, in code lines', () => {
  const got = resolve({
    'v.yaml': [
      '#@ def host(n, domain="example.com"):',
      '#@   return n + "." + domain',
      '#@ end',
      '#@ hosts = []',
      '#@ for n in ["a", "b"]:',
      '#@   if n != "b":',
      '#@     hosts.append(host(n))',
      '#@   else:',
      '#@     hosts.append(host(n, domain="x.org"))',
      '#@   end',
      '#@ end',
      '#@data/values',
      '---',
      'hosts: #@ hosts',
      '',
    ].join('\n'),
  });
  assert.deepEqual(got, { hosts: ['a.example.com', 'b.x.org'] });
});

test('load() of a repo-local .star file through the library map', () => {
  const got = resolve(
    {
      'v.yaml': '#@ load("helpers.star", "sops")\n#@data/values\n---\ntoken: #@ sops("0", "api")\n',
      'lib/helpers.star': 'def sops(i, k):\n  return "ref+sops://s.yaml#/" + i + "/" + k\nend\n',
    },
    { library: { 'helpers.star': 'lib/helpers.star' } },
  );
  assert.deepEqual(got, { token: 'ref+sops://s.yaml#/0/api' });
});

test('@myks:data.lib.yaml given as a module: env_data is a struct of the environment data', () => {
  const got = resolve(
    {
      'app-data.yaml':
        '#@ load("@myks:data.lib.yaml", "env_data")\n#@data/values\n---\nbaseDomains: #@ env_data.environment.hosts\nid: #@ env_data.environment.id\n',
    },
    { modules: { '@myks:data.lib.yaml': { env_data: { environment: { id: 'dev', hosts: ['a.example'] } } } } },
  );
  assert.deepEqual(got, { baseDomains: ['a.example'], id: 'dev' });
});

test('@ytt:data in a data-values file sees no data values (ytt evaluates it before any are known)', () => {
  const got = resolve({
    'a.yaml': '#@data/values\n---\na: 1\n',
    'b.yaml': '#@ load("@ytt:data", "data")\n#@data/values\n---\na: #@ len(data.values)\n',
  });
  assert.deepEqual(got, { a: 0 });
});

test('the schema: defaults, nullable, any, validations and their sources', () => {
  const r = resolveDataValues({
    files: ['s.yaml'],
    reader: {
      read: () =>
        [
          '#@data/values-schema',
          '---',
          '#! the image',
          '#@schema/validation min_len=1',
          'image: ""',
          '#@schema/nullable',
          'tls: {cert: ""}',
          '#@schema/type any=True',
          'extra: {a: 1}',
          '#@schema/validation ("unique", lambda x: len(x) == len(set(x)))',
          'names: [""]',
          '',
        ].join('\n'),
    },
  });
  const s = r.schema as Extract<SchemaType, { kind: 'map' }>;
  assert.equal(s.kind, 'map');
  assert.deepEqual(
    s.items.map((i) => [i.key, i.type.kind]),
    [
      ['image', 'scalar'],
      ['tls', 'null'],
      ['extra', 'any'],
      ['names', 'array'],
    ],
  );
  assert.equal(s.items[0]?.type.validation?.minLen, 1);
  assert.deepEqual(
    s.items[0]?.type.comments.map((c) => c.text),
    [' the image'],
  );
  assert.equal(s.items[3]?.type.validation?.rules[0]?.message, 'unique');
  assert.deepEqual(toPlain(r.values), { image: '', tls: null, extra: { a: 1 }, names: [] });
  assert.deepEqual(
    r.invalidations.map((i) => [i.path, i.violations[0]?.mustBe]),
    [['image', 'length >= 1']],
  );
});

const BAD: [string, Record<string, string>, RegExp][] = [
  ['undefined name', { 'v.yaml': '#@data/values\n---\na: #@ nope\n' }, /v\.yaml:3:\d+: undefined: nope/],
  ['syntax error in code', { 'v.yaml': '#@ x = (1\n#@data/values\n---\na: 1\n' }, /v\.yaml:\d+:\d+: syntax error/],
  ['missing end', { 'v.yaml': '#@ if True:\n#@data/values\n---\na: 1\n' }, /missing 'end'/],
  ['load of a missing file', { 'v.yaml': '#@ load("x.star", "f")\n#@data/values\n---\na: 1\n' }, /cannot load x\.star/],
  ['fail()', { 'v.yaml': '#@data/values\n---\na: #@ fail("boom")\n' }, /fail: boom/],
  ['function as a value', { 'v.yaml': '#@data/values\n---\na: #@ len\n' }, /Unable to convert value/],
  [
    'recursion',
    { 'v.yaml': '#@ def f(x):\n#@   return f(x)\n#@ end\n#@data/values\n---\na: #@ f(1)\n' },
    /called recursively/,
  ],
  ['missing file', {}, /file not found/],
  [
    'a text template printing a non-string (ytt: cannot set non-string value)',
    { 'v.yaml': '#@data/values\n---\n#@yaml/text-templated-strings\nport: (@= 8080 @)\n' },
    /v\.yaml:4:\d+: cannot set non-string value \(int\), consider using str\(\.\.\.\)/,
  ],
  [
    'a text template with an unclosed block',
    { 'v.yaml': '#@data/values\n---\n#@yaml/text-templated-strings\nk: "(@ if True: @)x"\n' },
    /v\.yaml:\d+:\d+: .*missing 'end'/,
  ],
  [
    'a text template with an unclosed code piece',
    { 'v.yaml': '#@data/values\n---\n#@yaml/text-templated-strings\nk: "(@= 1"\n' },
    /v\.yaml:4:\d+: Missing code closing '@\)'/,
  ],
  [
    'range without arguments',
    { 'v.yaml': '#@data/values\n---\na: #@ range()\n' },
    /range: got 0 arguments, want at least 1/,
  ],
  [
    'range with four arguments',
    { 'v.yaml': '#@data/values\n---\na: #@ range(1, 2, 3, 4)\n' },
    /range: got 4 arguments, want at most 3/,
  ],
];
for (const [name, files, re] of BAD) {
  test(`bad input: ${name} — a clear error naming the place`, () => {
    const list = Object.keys(files).length ? Object.keys(files) : ['missing.yaml'];
    assert.throws(
      () => resolveDataValues({ files: list, reader: { read: (p) => files[p] } }),
      (e: unknown) =>
        e instanceof DataValuesError &&
        e instanceof YttError &&
        re.test(e.message) &&
        /Overlaying data values|Templating file/.test(e.message),
    );
  });
}

test('a template cache shared by resolutions parses each file once and changes nothing', () => {
  const files: Record<string, string> = {
    'a.yaml': '#@data/values\n---\na: 1\nb: [1]\n',
    'b.yaml': '#@data/values\n---\na: 2\n',
  };
  const templateCache = new Map();
  const input = { files: ['a.yaml', 'b.yaml'], reader: { read: (p: string) => files[p] }, templateCache };
  const first = toPlain(resolveDataValues(input).values);
  const second = toPlain(resolveDataValues(input).values);
  assert.deepEqual(first, { a: 2, b: [1] });
  assert.deepEqual(second, first);
  assert.equal(templateCache.size, 2);
  files['b.yaml'] = '#@data/values\n---\na: 3\n';
  assert.deepEqual(toPlain(resolveDataValues(input).values), { a: 3, b: [1] });
});

test('validationsByPath: every validation with its path, custom rules and unsupported keywords included', () => {
  const text = [
    '#@data/values-schema',
    '---',
    'app:',
    '  servers:',
    '  - #@schema/validation min=1, when=lambda v: True',
    '    port: 80',
    '#@schema/validation ("unique", lambda x: True)',
    'names: [""]',
    '',
  ].join('\n');
  const r = resolveDataValues({ files: ['s.yaml'], reader: { read: () => text } });
  assert.deepEqual(
    validationsByPath(r.schema).map((v) => [
      v.path,
      v.validation.min,
      v.validation.otherKwargs,
      v.validation.rules.map((x) => x.message),
    ]),
    [
      // an annotation after `- ` belongs to the array item, as in ytt
      ['app.servers[]', 1, ['when'], []],
      ['names', undefined, [], ['unique']],
    ],
  );
});

// YAML 1.1 keys: `n:`, `on:`, `off:` are booleans to ytt, which prints them as such (an int key
// as an int); a quoted key stays a string. ytt's --data-values-inspect, when on PATH, agrees.
test('YAML 1.1 keys keep their type: --data-values-inspect prints false:, true:, 1:', () => {
  const text = '#@data/values\n---\nn: 1\nb: 0\n"3": x\n7: z\nmap:\n  on: a\n  "no": b\n  off: c\n';
  const r = resolveDataValues({ files: ['v.yaml'], reader: { read: () => text } });
  const want = 'false: 1\nb: 0\n"3": x\n7: z\nmap:\n  true: a\n  "no": b\n  false: c\n';
  assert.equal(dataValuesYaml(r.values), want);
  const ytt = spawnSync('sh', ['-c', 'command -v ytt'], { encoding: 'utf8' }).stdout.trim();
  if (!ytt) return;
  const got = spawnSync(ytt, ['-f', '-', '--data-values-inspect'], { input: text, encoding: 'utf8' });
  assert.equal(got.stdout, want, got.stderr);
});
