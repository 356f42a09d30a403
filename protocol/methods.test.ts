import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommandMethods, Methods, ParamsError, findMethod, commandOfMethod } from './index.js';

const tty = { stdoutIsTTY: false, stderrIsTTY: true, columns: 80, color: 'auto', noColor: false, forceColor: null };
const good = {
  requestId: 'r',
  args: ['a.jsonnet'],
  flags: { jpath: ['lib'], format: 'json', verbose: 2, alpha: true },
  cwd: '/w',
  env: { KUBECFG_X: '1' },
  tty,
};

describe('protocol validators', () => {
  it('accepts well-formed params and copies them', () => {
    const p = CommandMethods.show.validate(good);
    assert.deepEqual({ ...p.flags }, good.flags);
    assert.notEqual(p, good);
    assert.deepEqual(Methods.hello.validate({ protocolVersion: 1, buildId: 'b' }), {
      protocolVersion: 1,
      buildId: 'b',
    });
    assert.deepEqual(Methods.status.validate(undefined), {});
  });

  const bad: [string, () => unknown, string][] = [
    ['hello params not an object', () => Methods.hello.validate([1]), 'params'],
    ['hello missing buildId', () => Methods.hello.validate({ protocolVersion: 1 }), 'params.buildId'],
    ['hello empty buildId', () => Methods.hello.validate({ protocolVersion: 1, buildId: '' }), 'params.buildId'],
    [
      'hello fractional version',
      () => Methods.hello.validate({ protocolVersion: 1.5, buildId: 'b' }),
      'params.protocolVersion',
    ],
    ['unknown top-level field', () => Methods.cancel.validate({ requestId: 'r', extra: 1 }), 'params.extra'],
    ['unknown flag', () => CommandMethods.show.validate({ ...good, flags: { nope: true } }), 'params.flags.nope'],
    [
      'flag of another command',
      () => CommandMethods.show.validate({ ...good, flags: { 'show-keys': true } }),
      'params.flags.show-keys',
    ],
    [
      'bool flag given a string',
      () => CommandMethods.show.validate({ ...good, flags: { alpha: 'yes' } }),
      'params.flags.alpha',
    ],
    [
      'enum flag outside its values',
      () => CommandMethods.show.validate({ ...good, flags: { format: 'toml' } }),
      'params.flags.format',
    ],
    [
      'array item not a string',
      () => CommandMethods.show.validate({ ...good, flags: { jpath: ['a', 3] } }),
      'params.flags.jpath[1]',
    ],
    ['arg not a string', () => CommandMethods.show.validate({ ...good, args: [null] }), 'params.args[0]'],
    ['env value not a string', () => CommandMethods.show.validate({ ...good, env: { A: 1 } }), 'params.env.A'],
    [
      'tty color wrong',
      () => CommandMethods.eval.validate({ ...good, flags: {}, tty: { ...tty, color: 'sometimes' } }),
      'params.tty.color',
    ],
    [
      'tty columns not a number',
      () => CommandMethods.jsonnet.validate({ ...good, flags: {}, tty: { ...tty, columns: '80' } }),
      'params.tty.columns',
    ],
  ];
  for (const [name, run, field] of bad) {
    it(`rejects ${name}, naming ${field}`, () => {
      assert.throws(
        run,
        (err: unknown) =>
          err instanceof ParamsError && err.field === field && err.message.startsWith(`invalid params: ${field}:`),
      );
    });
  }

  it('keeps __proto__ keys as data', () => {
    const p = CommandMethods.show.validate(
      JSON.parse(
        '{"requestId":"r","args":[],"flags":{},"cwd":"/","env":{"__proto__":"x"},"tty":' + JSON.stringify(tty) + '}',
      ),
    );
    assert.equal(Object.getPrototypeOf(p.env), null);
    assert.equal(p.env['__proto__'], 'x');
  });

  it('maps methods to commands', () => {
    assert.equal(findMethod('render/eval'), CommandMethods.eval);
    assert.equal(commandOfMethod('render/jsonnet'), 'jsonnet');
    assert.equal(findMethod('nope'), undefined);
  });
});
