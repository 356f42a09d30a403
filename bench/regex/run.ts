/**
 * `bench/regex/run`: the Go regexp layer on its linear-time engine (our RE2
 * parser + re2js) next to the previous engine (the same parser translated to
 * a backtracking V8 RegExp, bench/regex/backtracking.ts), both compiled once
 * and driven by the same Go loops, on ordinary kubecfg/Helm-style patterns.
 * The last row is the reason for the change: a catastrophic pattern, shown
 * for the old engine at 22 characters and for ours at 10,000. No assertions
 * on time.
 */
import { compileGoRegexp, replaceAllWith, type GoRegexp } from '../../lang/go/regexp/go-regexp.js';
import { fmtMs, median, printTable, timeMs } from '../lib/measure.js';
import { compileBacktracking } from './backtracking.js';

const runs = Number(process.env.BENCH_RUNS ?? 7);

function measure(fn: () => void): number {
  fn(); // warm-up: both sides pay JIT compilation once
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(timeMs(fn));
  return median(times);
}

const matchCases: [string, string][] = [
  ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'my-service-01'],
  ['^v?(\\d+)\\.(\\d+)\\.(\\d+)(-[0-9A-Za-z.-]+)?$', 'v1.28.3-rc.1'],
  [
    '^([a-z0-9.-]+(:[0-9]+)?/)?[a-z0-9/._-]+(:[\\w.-]+)?(@sha256:[a-f0-9]{64})?$',
    'registry.example.com:5000/team/app:1.2',
  ],
  ['(?i)^(true|false|yes|no)$', 'Yes'],
  ['\\.ya?ml$', 'components/web/deployment.yaml'],
  ['[^a-zA-Z0-9-]', 'Some Name_With.Dots'],
  ['^\\pL[\\pL\\pN_]*$', 'Größe_2'],
];
const rounds = 2000;
const text = 'foo-bar baz-qux '.repeat(64);
const substRounds = 100;

interface Figures {
  match: number;
  subst: number;
  catastrophic: number;
}

function run(compile: (pattern: string) => GoRegexp, catastrophicLength: number): Figures {
  const compiled = matchCases.map(([p, s]) => [compile(p), s] as const);
  const subst = compile('(\\w+)-(\\w+)');
  const catastrophic = compile('^(a+)+$');
  const subject = `${'a'.repeat(catastrophicLength)}!`;
  return {
    match: measure(() => {
      for (let i = 0; i < rounds; i++) for (const [re, s] of compiled) re.test(s);
    }),
    subst: measure(() => {
      for (let i = 0; i < substRounds; i++) replaceAllWith(subst, text, '${2}_$1');
    }),
    catastrophic: measure(() => catastrophic.test(subject)),
  };
}

const ours = run(compileGoRegexp, 10000);
const old = run(compileBacktracking, 22);
const per = (ms: number, n: number) => `${((ms * 1000) / n).toFixed(2)}µs`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
printTable([
  ['case', 'linear (re2js)', 'old (V8 backtracking)', 'linear/old'],
  [
    `MatchString, ${matchCases.length} ordinary patterns (per match)`,
    per(ours.match, rounds * matchCases.length),
    per(old.match, rounds * matchCases.length),
    ratio(ours.match, old.match),
  ],
  [
    'ReplaceAllString, 1 KiB, 128 matches (per call)',
    per(ours.subst, substRounds),
    per(old.subst, substRounds),
    ratio(ours.subst, old.subst),
  ],
  ["^(a+)+$ on a's + '!' (linear: 10,000 a's; old: 22)", fmtMs(ours.catastrophic), fmtMs(old.catastrophic), '-'],
]);
