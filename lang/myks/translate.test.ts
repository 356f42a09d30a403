// Translated ytt computation (spec myks-kcl-converter.txt, "Translated ytt
// computation"), one row per construct of the spec's table: Starlark in an
// env-data file → the KCL written into the level's env.k → the tree resolves
// to what ytt resolved (migrate's proof, `differences` empty), with no TODO.
// Then the fallbacks: what KCL does not reproduce stays the literal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { resolveDataValues, toPlain } from '../ytt/index.js';
import { migrate } from './migrate.js';
import { repo } from '../../test/support/myks-repo.js';
import { toKclExpr } from './translate.js';
import { readProgram, starProgram } from './translate-program.js';

const HEAD = `#@data/values
---
environment:
  applications:
  - proto: web
`;
/** a root level declaring `x` (schema `x`), the prelude and body given, and one leaf */
const level = (schema: string, prelude: string, body: string, extra: Record<string, string> = {}) => {
  const r = migrate(
    repo({
      'envs/env-data.00-schema.yaml': `#@data/values-schema\n---\n#@overlay/match missing_ok=True\nx:\n${schema}`,
      'envs/env-data.yaml': `${prelude}${HEAD}x:\n${body}`,
      'envs/prod/env-data.yaml': '#@data/values\n---\nenvironment:\n  id: prod\n',
      ...extra,
    }),
    'repo',
  );
  assert.deepEqual(r.differences, [], 'the converted tree resolves to the legacy values');
  const env = r.files.get('envs/env.k')!;
  assert.doesNotMatch(env, /TODO/);
  assert.equal(r.files.get('envs/prod/patch.k'), undefined, 'nothing is frozen at the leaf');
  return { r, env };
};

const SOPS = 'def sops(env, key):\n  return "ref+sops://" + env + "/" + key\nend\n';

const rows: {
  name: string;
  schema: string;
  prelude: string;
  body: string;
  extra?: Record<string, string>;
  want: RegExp[];
}[] = [
  {
    name: 'a prelude variable read by a value',
    schema: '  port: 0\n',
    prelude: '#@ port = 8080\n',
    body: '  port: #@ port\n',
    want: [/\n_port = 8080\n/, /\n {4}x\.port = _port\n/],
  },
  {
    name: 'an inline expression with a merge annotation',
    schema: '  later: 0\n',
    prelude: '',
    body: '  #@overlay/match missing_ok=True\n  later: #@ 2 * 21\n',
    want: [/\n {4}x\.later = 2 \* 21\n/],
  },
  {
    name: 'an inline expression',
    schema: '  purge_files_after: 0\n',
    prelude: '',
    body: '  purge_files_after: #@ 60 * 60 * 24\n',
    want: [/\n {4}x\.purge_files_after = 60 \* 60 \* 24\n/],
  },
  {
    name: 'a loop appending to a list, joined to its binding',
    schema: '  hosts: [""]\n',
    prelude:
      '#@ domain = "example.com"\n#@ nodes = ["a", "b"]\n#@ hosts = [domain]\n#@ for n in nodes:\n#@   hosts.append(n + "." + domain)\n#@ end\n',
    body: '  hosts: #@ hosts\n',
    want: [/\n_hosts = \[_domain\] \+ \[n \+ "\." \+ _domain for n in _nodes\]\n/, /\n {4}x\.hosts = _hosts\n/],
  },
  {
    name: 'a loop appending to two lists under a condition, one comprehension each',
    schema: '  hosts: [""]\n  ips: [""]\n',
    prelude:
      '#@ hosts = []\n#@ ips = ["10.0.0.1"]\n#@ for i in range(1, 4):\n#@   if i != 2:\n#@     hosts.append("n" + str(i))\n#@     ips.append("10.0.0." + str(i + 1))\n#@   end\n#@ end\n',
    body: '  hosts: #@ hosts\n  ips: #@ ips\n',
    want: [
      /\n_hosts = \[\] \+ \["n" \+ str\(i\) for i in range\(1, 4\) if i != 2\]\n/,
      /\n_ips = \["10\.0\.0\.1"\] \+ \["10\.0\.0\." \+ str\(i \+ 1\) for i in range\(1, 4\) if i != 2\]\n/,
    ],
  },
  {
    name: 'a function of the ytt library, called through its lambda',
    schema: '  token: ""\n',
    prelude: '#@ load("secrets.star", "sops")\n',
    body: '  token: #@ sops("0", "api")\n',
    extra: { 'lib/secrets.star': SOPS },
    want: [/^import myks\nimport lib\n/, /\n {4}x\.token = lib\.sops\("0", "api"\)\n/],
  },
  {
    name: 'a for/end loop over a sequence item, with an assignment indented into the body',
    schema: '  registries:\n  - name: ""\n',
    prelude: '',
    body: '  #@ registries = ["docker.io", "ghcr.io"]\n  registries:\n  #@ for reg in registries:\n  - name: #@ reg\n  #@ end\n',
    want: [
      /\n_registries = \["docker\.io", "ghcr\.io"\]\n/,
      /\n {4}x\.registries = \[\{name = reg\} for reg in _registries\]\n/,
    ],
  },
  {
    name: 'a for/end loop with an if around its item, a filtered comprehension',
    schema: '  mirrors: [""]\n',
    prelude: '#@ regs = ["docker.io", "quay.io", "ghcr.io"]\n',
    body: '  mirrors:\n  #@ for r in regs:\n  #@ if r != "quay.io":\n  - #@ "mirror." + r\n  #@ end\n  #@ end\n',
    want: [/\n {4}x\.mirrors = \["mirror\." \+ r for r in _regs if r != "quay\.io"\]\n/],
  },
  {
    name: 'nested for/end loops over a sequence item, one comprehension with a clause per loop',
    schema: '  pairs: [""]\n',
    prelude: '#@ envs = ["dev", "prod"]\n#@ regions = ["eu", "us", "ap"]\n',
    body: '  pairs:\n  #@ for e in envs:\n  #@ for r in regions:\n  #@ if r != "ap" or e == "prod":\n  #@ if r != "us":\n  - #@ e + "-" + r\n  #@ end\n  #@ end\n  #@ end\n  #@ end\n',
    want: [
      /\n {4}x\.pairs = \[e \+ "-" \+ r for e in _envs for r in _regions if \(r != "ap" or e == "prod"\) and \(r != "us"\)\]\n/,
    ],
  },
  {
    name: 'a for/end loop inside the item a for/end loop yields, a comprehension inside a comprehension',
    schema: '  clusters:\n  - name: ""\n    nodes: [""]\n',
    prelude: '#@ names = ["a", "b"]\n',
    body: '  clusters:\n  #@ for c in names:\n  - name: #@ c\n    nodes:\n    #@ for n in range(2):\n    - #@ c + str(n)\n    #@ end\n  #@ end\n',
    want: [/\n {4}x\.clusters = \[\{name = c, nodes = \[c \+ str\(n\) for n in range\(2\)\]\} for c in _names\]\n/],
  },
  {
    name: 'a for/end loop yielding several items, one more clause over them',
    schema: '  ports:\n  - name: ""\n    port: 0\n',
    prelude: '#@ bases = [8000, 9000]\n',
    body: '  ports:\n  #@ for b in bases:\n  - name: #@ "http-" + str(b)\n    port: #@ b\n  - name: #@ "https-" + str(b)\n    port: #@ b + 443\n  #@ end\n',
    want: [
      /\n {4}x\.ports = \[item for b in _bases for item in \[\{name = "http-" \+ str\(b\), port = b\}, \{name = "https-" \+ str\(b\), port = b \+ 443\}\]\]\n/,
    ],
  },
  {
    name: 'nested loops appending to a list, one comprehension joined to its binding',
    schema: '  hosts: [""]\n',
    prelude:
      '#@ hosts = ["lb"]\n#@ for e in ["dev", "prod"]:\n#@   for n in range(2):\n#@     if n > 0 or e == "prod":\n#@       hosts.append(e + str(n))\n#@     end\n#@   end\n#@ end\n',
    body: '  hosts: #@ hosts\n',
    want: [
      /\n_hosts = \["lb"\] \+ \[e \+ str\(n\) for e in \["dev", "prod"\] for n in range\(2\) if n > 0 or e == "prod"\]\n/,
    ],
  },
  {
    name: 'an if/end block around sequence items, the items or nothing',
    schema: '  args: [""]\n',
    prelude: '#@ debug = True\n#@ trace = False\n#@ mods = ["a", "b"]\n',
    body: '  args:\n  - --serve\n  #@ if debug:\n  - --debug\n  - --verbose\n  #@ end\n  #@ if trace:\n  - --trace\n  #@ end\n  #@ if debug:\n  #@ for m in mods:\n  - #@ "--mod=" + m\n  #@ end\n  #@ end\n',
    want: [
      /\n {4}x\.args = \["--serve"\] \+ \(\["--debug", "--verbose"\] if _debug else \[\]\) \+ \(\["--trace"\] if _trace else \[\]\) \+ \(\["--mod=" \+ m for m in _mods\] if _debug else \[\]\)\n/,
    ],
  },
  {
    name: 'an if/elif/else block around sequence items, a conditional list expression',
    schema: '  args: [""]\n',
    prelude: '#@ lvl = "warn"\n#@ json = False\n',
    body: '  args:\n  - --serve\n  #@ if lvl == "debug":\n  - --debug\n  - --trace\n  #@ elif lvl == "warn":\n  - --quiet\n  #@ else:\n  #@ end\n  #@ if json:\n  - --json\n  #@ else:\n  - --text\n  #@ end\n',
    want: [
      /\n {4}x\.args = \["--serve"\] \+ \(\["--debug", "--trace"\] if _lvl == "debug" else \["--quiet"\] if _lvl == "warn" else \[\]\) \+ \(\["--json"\] if _json else \["--text"\]\)\n/,
    ],
  },
  {
    name: 'a for/end loop joined to the items stated around it',
    schema: '  ports:\n  - name: ""\n    port: 0\n',
    prelude: '#@ extra = [8080, 8443]\n',
    body: '  ports:\n  - name: http\n    port: 80\n  #@ for p in extra:\n  - name: #@ "p" + str(p)\n    port: #@ p\n  #@ end\n',
    want: [
      /\n {4}x\.ports = \[\{name = "http", port = 80\}\] \+ \[\{name = "p" \+ str\(p\), port = p\} for p in _extra\]\n/,
    ],
  },
  {
    name: 'a text template interpolating a library call, across lines',
    schema: '  key: ""\n',
    prelude: '#@ load("secrets.lib.yaml", "sops")\n',
    body: '  #@yaml/text-templated-strings\n  key: |\n    token: (@= sops("0", "k") @)\n',
    extra: { 'lib/secrets.lib.yaml': `#@ ${SOPS.replace(/\n(?!$)/g, '\n#@ ')}` },
    want: [/\n {4}x\.key = """\\\ntoken: \$\{lib\.sops\("0", "k"\)\}\n"""\n/],
  },
  {
    name: 'a one-line text template',
    schema: '  url: ""\n',
    prelude: '#@ host = "example.com"\n',
    body: '  #@yaml/text-templated-strings\n  url: https://(@= host @)/$path\n',
    want: [/\n {4}x\.url = "https:\/\/\$\{_host\}\/\\\$path"\n/],
  },
  {
    name: 'a one-line text template calling with a string literal, in a triple-quoted string',
    schema: '  auth: ""\n',
    prelude: '#@ load("secrets.star", "sops")\n',
    body: "  #@yaml/text-templated-strings\n  auth: \"Bearer (@= sops('0', 'k') @)\"\n",
    extra: { 'lib/secrets.star': SOPS },
    want: [/\n {4}x\.auth = """Bearer \$\{lib\.sops\("0", "k"\)\}"""\n/],
  },
  {
    name: 'a text template with an if/else block, a conditional expression',
    schema: '  url: ""\n',
    prelude: '#@ tls = True\n#@ host = "example.com"\n',
    body: '  #@yaml/text-templated-strings\n  url: "(@ if tls: @)https(@ else: @)http(@ end @)://(@= host @)"\n',
    want: [/\n {4}x\.url = """\$\{\("https" if _tls else "http"\)\}:\/\/\$\{_host\}"""\n/],
  },
  {
    name: 'a text template with a for block and trims, a join over a comprehension',
    schema: '  list: ""\n',
    prelude: '#@ hosts = ["a", "b"]\n',
    body: '  #@yaml/text-templated-strings\n  list: |\n    hosts:\n    (@ for h in hosts: -@)\n    - (@= h @)\n    (@ end @)\n',
    want: [/\n {4}x\.list = """\\\nhosts:\n\$\{""\.join\(\["- " \+ h \+ "\\n" for h in _hosts\]\)\}\n"""\n/],
  },
  {
    name: 'a text template with nested blocks and elif',
    schema: '  tags: ""\n',
    prelude: '#@ regs = ["docker.io", "quay.io", "ghcr.io"]\n',
    body: "  #@yaml/text-templated-strings\n  tags: \"(@ for r in regs: @)(@ if r == 'docker.io': @)D(@ elif r.startswith('q'): @)Q(@ else: @)[(@= r @)](@ end @)(@ end @)\"\n",
    want: [
      /\n {4}x\.tags = """\$\{""\.join\(\[\("D" if r == "docker\.io" else "Q" if r\.startswith\("q"\) else "\[" \+ r \+ "\]"\) for r in _regs\]\)\}"""\n/,
    ],
  },
  {
    name: 'a text template with an assignment, its expression where the name is read',
    schema: '  count: ""\n',
    prelude: '#@ hosts = ["a", "b"]\n',
    body: '  #@yaml/text-templated-strings\n  count: "(@ n = len(hosts) @)(@= str(n) @) hosts(@ for h in hosts: @)(@ n = h + \'!\' @) (@= n @)(@ end @)"\n',
    want: [
      /\n {4}x\.count = """\$\{str\(len\(_hosts\)\)\} hosts\$\{""\.join\(\[" " \+ \(h \+ "!"\) for h in _hosts\]\)\}"""\n/,
    ],
  },
  {
    name: 'a templated key, an interpolated key',
    schema: '  web-port: 0\n  tls: false\n',
    prelude: '#@ name = "web"\n',
    body: '  #@yaml/text-templated-strings\n  (@= name @)-port: 8080\n  tls: true\n',
    want: [/\n {4}x: \{\n {8}"\$\{_name\}-port" = 8080\n {8}tls = True\n {4}\}\n/],
  },
  {
    name: 'a map-valued derivation, as an override',
    schema: '  labels:\n    app: ""\n    tier: ""\n',
    prelude: '#@ name = "web"\n',
    body: '  labels: #@ {"app": name, "tier": name + "-tier"}\n',
    want: [/\n {4}x\.labels = \{"app": _name, "tier": _name \+ "-tier"\}\n/],
  },
  {
    name: 'a local single-return def, as a lambda',
    schema: '  fqdn: ""\n',
    prelude: '#@ def fqdn(n, domain="example.com"):\n#@   return n + "." + domain\n#@ end\n',
    body: '  fqdn: #@ fqdn("api")\n',
    want: [
      /\n_fqdn = lambda n, domain = "example\.com" \{\n {4}n \+ "\." \+ domain\n\}\n/,
      /\n {4}x\.fqdn = _fqdn\("api"\)\n/,
    ],
  },
  {
    name: 'comments of the prelude come along, also between the elements of a list',
    schema: '  zones: [""]\n',
    prelude: '#! the zones we run in\n#@ zones = [\n#!  primary\n#@   "a",\n#@   "b"]\n',
    body: '  zones: #@ zones\n',
    want: [/\n# the zones we run in\n_zones = \[\n {2}# {2}primary\n {2}"a",\n {2}"b"\]\n/],
  },
];

for (const row of rows)
  test(`translated: ${row.name}`, () => {
    const { r, env } = level(row.schema, row.prelude, row.body, row.extra);
    for (const w of row.want) assert.match(env, w, env);
    assert.deepEqual(r.notes, [], 'every computed value is translated');
  });

// The proofs compare against lang/ytt; ytt itself (when on PATH) resolves every row's file the same.
const YTT = spawnSync('sh', ['-c', 'command -v ytt'], { encoding: 'utf8' }).stdout.trim();
test('differential: ytt resolves each row as lang/ytt does', (t) => {
  if (!YTT) {
    t.skip('no ytt on PATH');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'kcfg-translate-'));
  try {
    for (const row of rows) {
      const files: Record<string, string> = {
        's.yaml': `#@data/values-schema\n---\nx:\n${row.schema}`,
        'v.yaml': `${row.prelude}#@data/values\n---\nx:\n${row.body}`,
      };
      for (const [p, text] of Object.entries(row.extra ?? {})) files[p.replace(/^lib\//, '')] = text;
      for (const [p, text] of Object.entries(files)) writeFileSync(join(dir, p), text);
      const r = spawnSync(
        YTT,
        [
          '-f',
          's.yaml',
          '-f',
          'v.yaml',
          ...Object.keys(files)
            .slice(2)
            .flatMap((f) => ['-f', f]),
          '--data-values-inspect',
        ],
        {
          cwd: dir,
          encoding: 'utf8',
        },
      );
      assert.equal(r.status, 0, r.stderr);
      const ours = resolveDataValues({
        files: ['s.yaml', 'v.yaml'],
        reader: { read: (p) => files[p] },
        library: Object.fromEntries(
          Object.keys(files)
            .slice(2)
            .map((f) => [f, f]),
        ),
      });
      assert.deepEqual(toPlain(ours.values), parse(r.stdout), row.name);
      for (const p of Object.keys(files)) rmSync(join(dir, p));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the library lambdas a generated file calls are written in <lib>/<file>.k, and only those (with the constants they read)', () => {
  const { r } = level('  token: ""\n', '#@ load("secrets.star", "sops")\n', '  token: #@ sops("0", "api")\n', {
    'lib/secrets.star':
      'SCHEME = "ref+sops"\nUNUSED = 1\n\ndef unused(x):\n  return x\nend\n\ndef prefix():\n  return SCHEME + "://"\nend\n\ndef sops(env, key):\n  return prefix() + env + "/" + key\nend\n',
  });
  assert.equal(
    r.files.get('lib/secrets.k'),
    '# ytt library functions as KCL lambdas (the .star sources stay: ytt templates still load them).\n\nSCHEME = "ref+sops"\n\nprefix = lambda {\n    SCHEME + "://"\n}\n\nsops = lambda env, key {\n    prefix() + env + "/" + key\n}\n',
  );
});

test('a library name two files bind, or one file binds twice, is not translated', () => {
  const { r, env } = level('  a: ""\n', '#@ load("one.star", "f")\n', '  a: #@ f()\n', {
    'lib/one.star': 'def f():\n  return "one"\nend\n',
    'lib/two.star': 'def f():\n  return "two"\nend\n',
  });
  assert.match(env, /\n {4}x\.a = "one"\n/);
  assert.equal(r.files.get('lib/one.k'), undefined);
});

test('what KCL does not reproduce, or has no translation, stays the literal ytt resolved', () => {
  const { r, env } = level(
    '  a: ""\n  b: 0\n  c: ""\n  d:\n    p: 0\n    q: 0\n',
    '#@ domain = "example.com"\n#@ n = 7\n',
    // % formatting evaluates differently (or not at all) in KCL; a keyword argument has no
    // translation; a loop with two items per iteration is not a comprehension
    '  a: #@ "%s!" % domain\n  b: #@ n // 2\n  c: #@ domain.replace("example", "x", count=1)\n  d:\n    #@ for z in ["p", "q"]:\n    #@yaml/text-templated-strings\n    (@= z @): 1\n    #@ end\n',
  );
  assert.match(env, /\n {8}a = "example\.com!"\n/);
  assert.match(env, /\n {8}b = _n \/\/ 2\n/);
  assert.match(env, /\n {8}c = "x\.com"\n/);
  assert.match(env, /\n {8}d: \{p = 1, q = 1\}\n/);
  assert.doesNotMatch(env, /_domain/, 'a prelude variable nothing translated reads is pruned');
  assert.deepEqual(r.notes, [
    'envs/env-data.yaml: 3 computed value(s) converted as the literal ytt resolved (not translated to KCL)',
  ]);
});

test('a list read between its binding and the loop appending to it is not joined', () => {
  const { env } = level(
    '  hosts: [""]\n  first: [""]\n',
    '#@ hosts = ["a"]\n#@ first = list(hosts)\n#@ for n in ["b"]:\n#@   hosts.append(n)\n#@ end\n',
    '  hosts: #@ hosts\n  first: #@ first\n',
  );
  assert.match(env, /\n {8}hosts = \["a", "b"\]\n/);
});

test('toKclExpr: names rewritten, the shared subset kept, the rest refused', () => {
  const refs = new Map([
    ['port', '_port'],
    ['sops', 'lib.sops'],
    ['env_data', '_level'],
  ]);
  for (const [src, want] of [
    ['port + 1', '_port + 1'],
    ['\'single\' + "double"', '"single" + "double"'],
    ['sops("0", "k")', 'lib.sops("0", "k")'],
    ['env_data.environment.id', '_level.environment.id'],
    ['[p * 2 for p in range(3) if p != port]', '[p * 2 for p in range(3) if p != _port]'],
    ['"a.b".split(".")[0].upper()', '"a.b".split(".")[0].upper()'],
    ['1.5e3 + port', '1.5e3 + _port'],
    ['unknown + 1', undefined],
    ['sorted(x, key=len)', undefined],
    ['"""doc"""', undefined],
    ['"${x}"', undefined],
  ] as const)
    assert.equal(toKclExpr(src, refs), want, src);
});

test('readProgram: the statements of a template and of a .star file, blocks to their end', () => {
  const prog = (lines: string[]) => lines.map((text, i) => ({ text, file: 'f', line: i + 1, column: 3 }));
  const s = readProgram(
    prog([
      ' load("x.star", "a", b="c")',
      ' xs = [',
      '   1]',
      ' for n in xs:',
      '   ys.append(n)',
      ' end',
      ' if a:',
      '   z = 1',
      ' end',
    ]),
  );
  assert.deepEqual(
    s.map((x) => x.k),
    ['load', 'assign', 'append', 'other'],
  );
  assert.deepEqual(s[0], {
    k: 'load',
    module: 'x.star',
    names: [
      { local: 'a', exported: 'a' },
      { local: 'b', exported: 'c' },
    ],
  });
  assert.equal((s[1] as { expr: string }).expr, '[\n  1]');
  assert.deepEqual((s[3] as { names: string[] }).names, ['z']);
  const star = readProgram(
    starProgram('X = 1\n\n# f\ndef f(a):\n    return a + 1\nend\n\ndef g():\n    return 2\nend\n', 'l.star'),
  );
  assert.deepEqual(
    star.map((x) => (x.k === 'def' ? `${x.name}(${x.params}) ${x.expr}` : x.k)),
    ['assign', 'f(a) a + 1', 'g() 2'],
  );
});

test('a value an application derives from its environment: _level where the leaf proves it, the literal where not', () => {
  const r = migrate(
    repo({
      'envs/env-data.yaml': HEAD,
      'prototypes/web/app-data.yaml':
        '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  host: ""\n',
      'envs/_apps/web/app-data.yaml':
        '#@ load("@myks:data.lib.yaml", "env_data")\n#@data/values\n---\napplication:\n  host: #@ "web." + env_data.environment.id\n',
      'envs/prod/env-data.yaml': '#@data/values\n---\nenvironment:\n  id: prod\n',
      // computed with the render context: frozen in stage's patch.k, which _level is not built from
      'envs/stage/env-data.yaml':
        '#@ load("@ytt:data", "data")\n#@data/values\n---\nenvironment:\n  id: #@ "st" + "age"\n',
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  assert.match(
    r.files.get('envs/prod/app-web.k')!,
    /\n {4}web\.application: \{\n {8}# Derived from the environment data of this leaf \(_level\)[^\n]*\n {8}host = "web\." \+ _level\.environment\.id\n/,
  );
  assert.match(
    r.files.get('envs/stage/app-web.k')!,
    /# TODO\(myks migrate\)[^\n]*\n {4}web\.application\.host = "web\.stage"\n/,
  );
});

test('an environment value is never translated from _level (patch.k is what _level is built from)', () => {
  const r = migrate(
    repo({
      'envs/env-data.yaml': HEAD,
      'envs/prod/env-data.yaml': '#@ load("@ytt:data", "data")\n#@data/values\n---\nenvironment:\n  id: #@ "prod"\n',
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  assert.match(r.files.get('envs/prod/patch.k')!, /TODO\(myks migrate\)[^\n]*\n {4}environment\.id = "prod"\n/);
});

const APP = {
  'envs/env-data.yaml': HEAD,
  'envs/prod/env-data.yaml': '#@data/values\n---\nenvironment:\n  id: prod\n',
};

test("a prototype's derivations go into its proto.k, typed as the schema attribute's default", () => {
  const r = migrate(
    repo({
      ...APP,
      'prototypes/web/app-data.yaml':
        '#@ port = 8080\n#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  port: #@ port\n  purge_files_after: #@ 60 * 60 * 24\n',
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  const proto = r.files.get('prototypes/web/proto.k')!;
  assert.match(proto, /^import myks\n\n_port = 8080\n\nschema Web\(myks\.App\):\n/);
  assert.match(proto, /\n {4}port: int = _port\n {4}purge_files_after: int = 60 \* 60 \* 24\n/);
  assert.deepEqual(r.notes, []);
});

test("an application file's derivations go into the level's app-<name>.k; a helper the level binds otherwise gets the application's prefix", () => {
  const r = migrate(
    repo({
      ...APP,
      'envs/env-data.yaml': `#@ port = 1\n${HEAD}x: #@ port\n`,
      'envs/env-data.00-schema.yaml': '#@data/values-schema\n---\n#@overlay/match missing_ok=True\nx: 0\n',
      'prototypes/web/app-data.yaml':
        '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  token: ""\n  port: 0\n  uri: ""\n',
      'envs/_apps/web/app-data.yaml':
        '#@ load("secrets.star", "sops")\n#@ port = 9090\n#@ def get_uri(p):\n#@   return "http://web:" + str(p)\n#@ end\n#@data/values\n---\napplication:\n  token: #@ sops("0", "api")\n  port: #@ port\n  uri: #@ get_uri(port)\n',
      'lib/secrets.star': SOPS,
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  const app = r.files.get('envs/app-web.k')!;
  assert.match(
    app,
    /^import lib\nimport myks\nimport prototypes\.web\n\n_web_port = 9090\n_web_get_uri = lambda p \{\n {4}"http:\/\/web:" \+ str\(p\)\n\}\n\n_apps: myks\.Apps \{\n/,
  );
  assert.match(app, /token = lib\.sops\("0", "api"\)\n {12}port = _web_port\n {12}uri = _web_get_uri\(_web_port\)\n/);
  assert.ok(r.files.has('lib/secrets.k'));
  assert.match(r.files.get('envs/env.k')!, /\n_port = 1\n[\s\S]*\n {4}x = _port\n/);
});

test('an env-data file binding a name another env-data file of the level binds differently keeps its literals, and says so', () => {
  const r = migrate(
    repo({
      ...APP,
      'envs/env-data.00-schema.yaml':
        '#@data/values-schema\n---\n#@overlay/match missing_ok=True\nx:\n  a: 0\n  b: 0\n',
      'envs/env-data.yaml': `#@ port = 1\n${HEAD}x:\n  a: #@ port\n`,
      'envs/env-data.zz.yaml': '#@ port = 2\n#@data/values\n---\nx:\n  b: #@ port\n',
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  const env = r.files.get('envs/env.k')!;
  assert.match(env, /\n {4}x\.a = _port\n/);
  assert.match(env, /\n {4}x\.b = 2\n/);
  assert.ok(
    r.notes.some((n) => n.startsWith('envs/env-data.zz.yaml: its derivations are kept as the literals')),
    r.notes.join('\n'),
  );
});

test("the converter's own names are never a prelude variable's", () => {
  const { env } = level('  a: 0\n', '#@ level = 2\n#@ b = 3\n', '  a: #@ level + b\n');
  assert.doesNotMatch(env, /_level = 2/);
  assert.match(env, /\n {4}x\.a = 5\n/);
});

test('an application value derived through a prelude variable reading env_data: the variable read as its expression', () => {
  const r = migrate(
    repo({
      ...APP,
      'prototypes/web/app-data.yaml':
        '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  host: ""\n',
      'envs/_apps/web/app-data.yaml':
        '#@ load("@myks:data.lib.yaml", "env_data")\n#@ id = env_data.environment.id\n#@data/values\n---\napplication:\n  host: #@ id + ".example.com"\n',
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  assert.match(r.files.get('envs/prod/app-web.k')!, /\n {8}host = \(_level\.environment\.id\) \+ "\.example\.com"\n/);
});

test('a text template reading env_data: the file is split, not skipped, and the leaf states the interpolation', () => {
  const r = migrate(
    repo({
      ...APP,
      'prototypes/web/app-data.yaml':
        '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  host: ""\n  port: 0\n',
      'envs/_apps/web/app-data.yaml':
        '#@ load("@myks:data.lib.yaml", "env_data")\n#@data/values\n---\napplication:\n  #@yaml/text-templated-strings\n  host: (@= env_data.environment.id @).example.com\n  port: 8080\n',
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  assert.ok(!r.warnings.some((w) => w.includes('not converted')), r.warnings.join('\n'));
  assert.match(r.files.get('envs/app-web.k')!, /application\.port = 8080/);
  assert.match(r.files.get('envs/prod/app-web.k')!, /\n {8}host = "\$\{_level\.environment\.id\}\.example\.com"\n/);
});

test('a ytt template function (a def with a YAML body) has no translation: its value stays the literal', () => {
  const { r, env } = level(
    '  labels:\n    app: ""\n  count: 0\n',
    '#@ def labels():\napp: web\n#@ end\n#@ n = 1\n',
    '  labels: #@ labels()\n  count: #@ n + 1\n',
  );
  assert.match(env, /labels\.app = "web"/);
  assert.match(env, /count = _n \+ 1/);
  assert.deepEqual(r.notes, [
    'envs/env-data.yaml: 1 computed value(s) converted as the literal ytt resolved (not translated to KCL)',
  ]);
});

test('a _level derivation calling a library lambda: the leaf file imports the library, which is written', () => {
  const r = migrate(
    repo({
      ...APP,
      'prototypes/web/app-data.yaml':
        '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  token: ""\n',
      'envs/_apps/web/app-data.yaml':
        '#@ load("@myks:data.lib.yaml", "env_data")\n#@ load("secrets.star", "sops")\n#@data/values\n---\napplication:\n  token: #@ sops(env_data.environment.id, "api")\n',
      'lib/secrets.star': SOPS,
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  const app = r.files.get('envs/prod/app-web.k')!;
  assert.match(app, /^import lib\nimport myks\n/);
  assert.match(app, /\n {8}token = lib\.sops\(_level\.environment\.id, "api"\)\n/);
  assert.match(r.files.get('lib/secrets.k')!, /\nsops = lambda env, key \{\n/);
});

test('a map-valued derivation ytt merged into what a level above stated stays the literal (a union, merging as ytt did)', () => {
  const r = migrate(
    repo({
      'envs/env-data.00-schema.yaml':
        '#@data/values-schema\n---\n#@overlay/match missing_ok=True\nx:\n  labels:\n    app: ""\n    team: ""\n  other:\n    a: ""\n',
      'envs/env-data.yaml': `${HEAD}x:\n  labels:\n    team: core\n`,
      'envs/prod/env-data.yaml':
        '#@ name = "web"\n#@data/values\n---\nenvironment:\n  id: prod\nx:\n  labels: #@ {"app": name}\n  other: #@ {"a": name}\n',
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  const env = r.files.get('envs/prod/env.k')!;
  assert.match(env, /\n {4}x: \{\n {8}labels\.app = "web"\n {8}other = \{"a": _name\}\n {4}\}\n/, env);
  assert.equal(r.files.get('envs/prod/patch.k'), undefined, 'nothing frozen: the literal merges as ytt did');
  assert.ok(!r.warnings.some((w) => w.includes('differently')), r.warnings.join('\n'));
});

test("a templated key follows its file's prelude: kept literal with the file's literals, prefixed with an application's helpers", () => {
  const r = migrate(
    repo({
      ...APP,
      'envs/env-data.00-schema.yaml':
        '#@data/values-schema\n---\n#@overlay/match missing_ok=True\nx:\n  a: 0\n  b-port: 0\n',
      'envs/env-data.yaml': `#@ name = "a"\n${HEAD}x:\n  a: #@ len(name)\n`,
      'envs/env-data.zz.yaml':
        '#@ name = "b"\n#@data/values\n---\n#@yaml/text-templated-strings\nx:\n  (@= name @)-port: 1\n',
      'prototypes/web/app-data.yaml':
        '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  web-port: 0\n',
      'envs/_apps/web/app-data.yaml':
        '#@ name = "web"\n#@data/values\n---\n#@yaml/text-templated-strings\napplication:\n  (@= name @)-port: 2\n',
    }),
    'repo',
  );
  assert.deepEqual(r.differences, []);
  const env = r.files.get('envs/env.k')!;
  assert.match(env, /\n {4}x\.a = len\(_name\)\n/);
  assert.match(env, /\n {4}x: \{"b-port" = 1\}\n|\n {4}x\."b-port" = 1\n|"b-port" = 1/);
  assert.doesNotMatch(env, /\$\{_name\}/, 'the clashing file keeps its literal key');
  const app = r.files.get('envs/app-web.k')!;
  assert.match(app, /\n_web_name = "web"\n/);
  assert.match(app, /"\$\{_web_name\}-port" = 2/);
});
