import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CommandMethods, daemonCommandNames, findCommand, mainStageOf } from '../../protocol/index.js';
import { RENDERS } from './registry.js';

describe('command registry', () => {
  it('binds a render to every catalog command with a method, and to nothing else', () => {
    assert.deepEqual(Object.keys(RENDERS).sort(), [...daemonCommandNames()].sort());
  });

  it('derives one streaming method per command, with distinct method names', () => {
    const methods = daemonCommandNames().map((name) => CommandMethods[name]);
    assert.ok(methods.every((m) => m.streaming));
    assert.deepEqual(
      methods.map((m) => m.method),
      daemonCommandNames().map((name) => findCommand(name)?.method),
    );
    assert.equal(new Set(methods.map((m) => m.method)).size, methods.length);
  });

  const stages: [string, string | undefined][] = [
    ['show', undefined],
    ['cleat-export', undefined],
    ['diff', 'cluster'],
    ['update', 'cluster'],
    ['delete', 'cluster'],
    ['validate', 'cluster'],
    ['pack', 'pack'],
    ['httpd', 'httpd'],
  ];
  for (const [name, stage] of stages) {
    it(`runs ${name} ${stage ? `with the ${stage} main stage` : 'as a render only'}`, () => {
      const command = daemonCommandNames().find((c) => c === name);
      assert.ok(command, `${name} is a daemon command`);
      assert.equal(mainStageOf(command), stage);
    });
  }
});
