/**
 * `bench/yakl/run`: compiling a generated 5,000-line .yakl stream (named
 * Deployments with expressions, anchors-as-locals, flow lists and a hidden
 * config document) against the `yaml` package parsing the same text, in the
 * same run; prints medians and the ratio (the target is at most 2x).
 * Also the Jsonnet parse of the generated code, which show pays on a compile
 * cache miss. No assertions on time.
 */
import { parseAllDocuments } from 'yaml';
import { SourceFile } from '../../lang/common/source.js';
import { parseModule } from '../../lang/jsonnet/index.js';
import { compileYakl } from '../../lang/yakl/index.js';
import { fmtMs, median, printTable, timeMs } from '../lib/measure.js';

const TARGET_LINES = 5000;
const runs = Number(process.env.BENCH_RUNS ?? 5);

/** One named Deployment document using the constructs real files use most. */
function deployment(i: number): string {
  return [
    `^^: d${i}`,
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: \${'web-' + ${i}}`,
    `  labels: &labels${i}`,
    '    app: web',
    '    tier: frontend',
    'spec:',
    '  replicas: ${$.config.replicas}',
    '  selector:',
    `    matchLabels: \${labels${i}}`,
    '  template:',
    '    spec:',
    '      containers:',
    '        - name: web',
    '          image: nginx:1.27',
    '          ports:',
    '            - containerPort: 8080',
    `          args: [--verbose, '\${"--port=" + 8080}']`,
    '',
  ].join('\n');
}

function generatedYakl(lines = TARGET_LINES): string {
  const docs = ['^^:: config\nreplicas: 2\n'];
  let count = 3;
  for (let i = 0; count < lines; i++) {
    const d = deployment(i);
    docs.push(d);
    count += d.split('\n').length;
  }
  return docs.join('---\n');
}

function measure(fn: () => void): number {
  fn(); // warm-up: the first run pays for JIT compilation of both sides alike
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(timeMs(fn));
  return median(times);
}

const text = generatedYakl();
const lineCount = text.split('\n').length;
const yamlMs = measure(() => {
  parseAllDocuments(text);
});
let jsonnet = '';
const yaklMs = measure(() => {
  jsonnet = compileYakl('bench.yakl', text).jsonnet;
});
const parseMs = measure(() => {
  parseModule(new SourceFile('bench.yakl', jsonnet));
});
printTable([
  ['case', 'lines', 'yaml parse', 'yakl compile', 'yakl/yaml', 'jsonnet parse of output'],
  ['deployments', String(lineCount), fmtMs(yamlMs), fmtMs(yaklMs), `${(yaklMs / yamlMs).toFixed(2)}x`, fmtMs(parseMs)],
]);
