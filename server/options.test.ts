import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OptionsError, parseDaemonOptions, parseDuration, parseListen } from './options.js';

describe('daemon options', () => {
  const durations: [string, number][] = [
    ['0', 0],
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['3h', 10_800_000],
    ['1h30m', 5_400_000],
    ['250ms', 250],
    ['1.5s', 1500],
  ];
  for (const [text, ms] of durations) it(`duration ${text}`, () => assert.equal(parseDuration(text), ms));
  for (const text of ['', '3', 'h', '5x', '1h junk'])
    it(`rejects duration "${text}"`, () => assert.throws(() => parseDuration(text), OptionsError));

  it('parses --listen', () => {
    assert.deepEqual(parseListen('127.0.0.1:7070'), { host: '127.0.0.1', port: 7070 });
    assert.deepEqual(parseListen(':0'), { host: '127.0.0.1', port: 0 });
    assert.deepEqual(parseListen('[::1]:80'), { host: '::1', port: 80 });
    assert.throws(() => parseListen('host:port'), /want HOST:PORT/);
    assert.throws(() => parseListen('h:70000'), /want HOST:PORT/);
  });

  it('parses the option list', () => {
    const o = parseDaemonOptions(['--foreground', '--workers', '3', '--worker-memory-mb=64', '--idle-timeout', '0']);
    assert.equal(o.foreground, true);
    assert.equal(o.workers, 3);
    assert.equal(o.workerMemoryMb, 64);
    assert.equal(o.idleTimeoutMs, 0);
    assert.throws(() => parseDaemonOptions(['--workers', '0']), /positive integer/);
    assert.throws(() => parseDaemonOptions(['--bogus']), /unknown daemon option/);
  });

  it('render on save: on by default, --render-on-save=false turns it off', () => {
    assert.equal(parseDaemonOptions([]).renderOnSave, true);
    assert.equal(parseDaemonOptions(['--render-on-save']).renderOnSave, true);
    assert.equal(parseDaemonOptions(['--render-on-save=false']).renderOnSave, false);
    assert.throws(() => parseDaemonOptions(['--render-on-save=no']), /takes true or false/);
  });
});
