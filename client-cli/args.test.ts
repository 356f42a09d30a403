import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkArgCount, parseArgs, UsageError } from './args.js';
import { applyEnvFlags, resolveVarsFromEnv } from './env-flags.js';

describe('argv parsing', () => {
  const cases: [
    string,
    string[],
    { path: string[]; args: string[]; flags: Record<string, unknown>; help?: boolean },
  ][] = [
    [
      'flag value forms',
      ['show', '-J', 'a', '-Jb', '-J=c', '--jpath', 'd', '--jpath=e', 'x.jsonnet'],
      { path: ['show'], args: ['x.jsonnet'], flags: { jpath: ['a', 'b', 'c', 'd', 'e'] } },
    ],
    [
      'global flags before the command',
      ['--alpha', '-V', 'k=v', 'show', 'f'],
      { path: ['show'], args: ['f'], flags: { alpha: true, 'ext-str': ['k=v'] } },
    ],
    [
      'bool with =false and counted -v',
      ['-vvv', 'show', '--show-provenance=false'],
      { path: ['show'], args: [], flags: { verbose: 3, 'show-provenance': false } },
    ],
    ['double dash ends flags', ['show', '--', '-e', '--x'], { path: ['show'], args: ['-e', '--x'], flags: {} }],
    ['stdin dash is an argument', ['show', '-'], { path: ['show'], args: ['-'], flags: {} }],
    [
      'short bool cluster',
      ['eval', '-k', '-o', 'json', 'f'],
      { path: ['eval'], args: ['f'], flags: { 'show-keys': true, format: 'json' } },
    ],
    [
      'subcommands',
      ['daemon', 'start', '--listen', ':0', '--idle-timeout=5m'],
      { path: ['daemon', 'start'], args: [], flags: { listen: ':0', 'idle-timeout': '5m' } },
    ],
    ['help flag', ['show', '--help'], { path: ['show'], args: [], flags: {}, help: true }],
    ['help command', ['help'], { path: [], args: [], flags: {}, help: true }],
    [
      '-e takes code starting with a dash-free value',
      ['show', '-e', '{a: 1}'],
      { path: ['show'], args: [], flags: { exec: '{a: 1}' } },
    ],
  ];
  for (const [name, argv, want] of cases) {
    it(name, () => {
      const p = parseArgs(argv);
      assert.deepEqual(p.commandPath, want.path);
      assert.deepEqual(p.args, want.args);
      assert.deepEqual({ ...p.flags }, want.flags);
      assert.equal(p.help, want.help ?? false);
    });
  }

  const errors: [string[], RegExp][] = [
    [['show', '--nope'], /unknown flag: --nope/],
    [['show', '-Z'], /unknown shorthand flag: 'Z' in -Z/],
    [['show', '-o', 'xml'], /^invalid argument "xml" for "-o, --format" flag: must be one of yaml, json$/],
    [
      ['show', '--alpha=maybe'],
      /^invalid argument "maybe" for "--alpha" flag: strconv\.ParseBool: parsing "maybe": invalid syntax$/,
    ],
    [['show', '--jpath'], /flag needs an argument: --jpath/],
    [['eval', '--show-provenance'], /unknown flag: --show-provenance/],
    [['daemon', 'start', '--workers', 'two'], /strconv\.ParseInt: parsing "two": invalid syntax$/],
    [['daemon', 'start', '--workers', '99999999999999999999'], /strconv\.ParseInt: parsing "9+": value out of range$/],
    [
      ['show', '--qps-limit', '1e400'],
      /for "--qps-limit" flag: strconv\.ParseFloat: parsing "1e400": value out of range$/,
    ],
  ];
  for (const [argv, message] of errors) {
    it(`rejects ${argv.join(' ')}`, () => {
      assert.throws(
        () => parseArgs(argv),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
      );
    });
  }

  it('checks argument counts', () => {
    assert.throws(() => checkArgCount(parseArgs(['eval'])), /needs exactly one argument/);
    assert.throws(() => checkArgCount(parseArgs(['daemon', 'frobnicate'])), /unknown command "frobnicate"/);
    assert.doesNotThrow(() => checkArgCount(parseArgs(['show', 'a', 'b'])));
  });
});

describe('KUBECFG_* environment', () => {
  it('fills flags not given, appends -J after KUBECFG_JPATH, and lets the CLI win', () => {
    const flags = applyEnvFlags(parseArgs(['show', '-J', 'cli', '--features=eval']).flags, {
      KUBECFG_JPATH: 'e1:e2',
      KUBECFG_ALPHA: 'true',
      KUBECFG_FEATURES: 'yakl,overlay',
      KUBECFG_EXT_STR: 'a=b',
    });
    assert.deepEqual(flags.jpath, ['e1', 'e2', 'cli']);
    assert.equal(flags.alpha, true);
    assert.deepEqual(flags.features, ['eval']);
    assert.deepEqual(flags['ext-str'], ['a=b']);
  });

  it('maps KUBECFG_DAEMON=0 to --no-daemon and rejects bad values', () => {
    assert.equal(applyEnvFlags({}, { KUBECFG_DAEMON: '0' })['no-daemon'], true);
    // A command flag named like a global one (kubocd render --context FILE) is not fed from KUBECFG_CONTEXT.
    const own = [{ name: 'context', kind: 'stringArray' as const, help: '' }];
    assert.equal(applyEnvFlags({}, { KUBECFG_CONTEXT: 'prod' }, own).context, undefined);
    assert.equal(applyEnvFlags({}, { KUBECFG_CONTEXT: 'prod' }).context, 'prod');
    assert.throws(() => applyEnvFlags({}, { KUBECFG_ALPHA: 'sure' }), /invalid value "sure" in KUBECFG_ALPHA/);
    assert.throws(() => applyEnvFlags({}, { KUBECFG_COLOR: 'purple' }), /KUBECFG_COLOR/);
  });

  it('resolves -V NAME from the environment', () => {
    const flags: Record<string, string[]> = { 'ext-str': ['HOME', 'x=1'], 'tla-code': ['N'] };
    resolveVarsFromEnv(flags, { HOME: '/h', N: '3' });
    assert.deepEqual(flags, { 'ext-str': ['HOME=/h', 'x=1'], 'tla-code': ['N=3'] });
    assert.throws(() => resolveVarsFromEnv({ 'ext-str': ['MISSING'] }, {}), /Missing environment variable: MISSING/);
  });
});
