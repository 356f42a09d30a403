import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROTOCOL_VERSION, type HelloParams } from '../../protocol/index.js';
import type { Logger } from '../logger.js';
import { clientSkew, hello } from './hello.js';

const logged: string[] = [];
const ctx = {
  buildId: 'build-a',
  startedAt: new Date(0),
  logger: { info: (_obj: unknown, msg: string) => logged.push(msg) } as unknown as Logger,
};

describe('the version handshake', () => {
  const cases: [string, HelloParams | undefined, boolean][] = [
    ['same protocol and build', { protocolVersion: PROTOCOL_VERSION, buildId: 'build-a' }, true],
    ['another build', { protocolVersion: PROTOCOL_VERSION, buildId: 'build-b' }, false],
    ['another protocol', { protocolVersion: PROTOCOL_VERSION + 1, buildId: 'build-a' }, false],
  ];
  for (const [name, client, compatible] of cases) {
    it(`${name}: hello and a command's client field agree`, () => {
      assert.equal(hello(ctx, client!).compatible, compatible);
      const skew = clientSkew(ctx, client);
      assert.equal(skew === undefined, compatible);
      if (skew) {
        assert.match(skew.message, /daemon is build build-a .* the CLI is build build-\w .*must be replaced/);
        assert.deepEqual(skew.data, hello(ctx, client!));
      }
    });
  }

  it('lets a command without a client field through (its CLI said hello first)', () => {
    assert.equal(clientSkew(ctx, undefined), undefined);
  });
});
