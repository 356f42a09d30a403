/**
 * `traceback --all` (traceRoots) against ursonnet's method run by the C++
 * oracle /usr/bin/jsonnet: every object field body that is not an object
 * literal is wrapped in `std.trace('uRsOnNeT', ...)` (the rewrite ursonnet
 * makes), the value at the path is evaluated, and the TRACE lines, each
 * location once in first-seen order, reversed, must equal our list.
 * The programs keep each field body on its field's line, so the line the
 * oracle reports for the wrapping call is the field's line, which is the
 * one ursonnet reports (and write methods as `f:: function(x) ...`, whose
 * body the rewrite can wrap in place). A `+:` field with a body that is not
 * an object literal is left out: C++ desugars it to `super.f + body` and so
 * evaluates super first, where go-jsonnet (kubecfg's) evaluates the body
 * first; the order of such rows is go-jsonnet's (lang/jsonnet/trace.test.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { children, type Node } from '../../lang/jsonnet/ast.js';
import { ImportError, parseAst, parseModule, SourceFile } from '../../lang/jsonnet/index.js';
import type { Importer } from '../../lang/jsonnet/module.js';
import { traceRoots, type PathStep } from '../../lang/jsonnet/trace.js';

const ORACLE = '/usr/bin/jsonnet';
const TAG = 'uRsOnNeT';

const LIB = `{
  defaults:: { replicas: 1, image: 'nginx' },
  container:: function(name, image=self.defaults.image) {
    name: name,
    image: image,
    ports: [{ containerPort: 80 }],
  },
  labels:: function(app) { app: app, tier: 'web' },
}
`;

const MAIN = `local lib = import 'lib.libsonnet';
local replicas = 3;
{
  local top = self,
  params:: { name: 'web', port: 8080 },
  deployment: {
    metadata: { name: top.params.name, labels: lib.labels(top.params.name) },
    spec: {
      replicas: replicas,
      template: { spec: { containers: [lib.container(top.params.name)] } },
    },
  },
  service: {
    spec: { ports: [{ port: top.params.port, name: 'http' }], selector: top.deployment.metadata.labels },
  },
  extra: { [k]: std.length(k) for k in ['a', 'bb'] },
  computed: std.join('-', [top.params.name, std.toString(replicas)]),
} + {
  deployment+: { spec+: { replicas: 5 } },
}
`;

const cases: { name: string; path: PathStep[] }[] = [
  { name: 'a scalar set by an overlay', path: ['deployment', 'spec', 'replicas'] },
  { name: 'a value from a library function', path: ['deployment', 'spec', 'template'] },
  { name: 'a value reached through locals and self', path: ['service'] },
  { name: 'an object comprehension', path: ['extra'] },
  { name: 'a computed string', path: ['computed'] },
  { name: 'the whole file', path: [] },
];

/** ursonnet's rewrite, textually: each traced field body wrapped in std.trace. */
function instrument(name: string, text: string): string {
  const inserts: [number, string][] = [];
  const stack: Node[] = [parseAst(new SourceFile(name, text))];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const fields = node.type === 'Object' ? node.fields : node.type === 'ObjectComp' ? [node.field] : [];
    for (const f of fields) {
      if (f.body.type === 'Object') continue;
      inserts.push([f.body.span.start, `std.trace('${TAG}', (`], [f.body.span.end, '))']);
    }
    stack.push(...children(node));
  }
  inserts.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [at, s] of inserts) out = out.slice(0, at) + s + out.slice(at);
  return out;
}

function expr(path: PathStep[]): string {
  return '$' + path.map((s) => `[${JSON.stringify(s)}]`).join('');
}

describe(
  'traceback --all against ursonnet run by the C++ oracle',
  { skip: !existsSync(ORACLE) && 'no /usr/bin/jsonnet' },
  () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'kubecfg-roots-'));
      writeFileSync(join(dir, 'lib.libsonnet'), instrument('lib.libsonnet', LIB));
      writeFileSync(join(dir, 'main.jsonnet'), instrument('main.jsonnet', MAIN));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const importer: Importer = {
      load(_from, path) {
        if (path === 'lib.libsonnet') return { foundAt: 'lib.libsonnet', contents: new TextEncoder().encode(LIB) };
        throw new ImportError(`couldn't open import "${path}"`);
      },
    };

    for (const c of cases) {
      it(c.name, () => {
        const snippet = `((import 'main.jsonnet') + { __ursonnet_res_:: ${expr(c.path)} }).__ursonnet_res_`;
        const lines = runOracle(dir, snippet);
        const seen = new Set<string>();
        const first: string[] = [];
        for (const l of lines) {
          const m = new RegExp(`^TRACE: (.*):(\\d+) ${TAG}$`).exec(l);
          if (m === null) continue;
          const key = `${basename(m[1]!)}:${m[2]}`;
          if (!seen.has(key)) {
            seen.add(key);
            first.push(key);
          }
        }
        const want = first.reverse();
        const module = parseModule(new SourceFile('main.jsonnet', MAIN));
        const got = traceRoots(module, c.path, { importer }).map((l) => `${basename(l.file)}:${l.line}`);
        assert.ok(want.length > 0);
        assert.deepEqual(got, want);
      });
    }
  },
);

/** The oracle's stderr lines (std.trace writes there). */
function runOracle(cwd: string, snippet: string): string[] {
  const errFile = join(cwd, 'trace.err');
  execFileSync('/bin/sh', ['-c', `"${ORACLE}" -e "$0" 2> trace.err > /dev/null`, snippet], { cwd });
  return readFileSync(errFile, 'utf8').split('\n');
}
