import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heapLimitOverridden, heapOverrides, workerExecArgv } from './heap-limits.js';

describe('worker heap limits', () => {
  it('strips heap size flags from worker execArgv', () => {
    assert.deepEqual(
      workerExecArgv([
        '--max-old-space-size=4096',
        '--enable-source-maps',
        '--max-semi-space-size',
        '64',
        '--import',
        'tsx',
      ]),
      ['--enable-source-maps', '--import', 'tsx'],
    );
  });
  it('reports overrides from execArgv and NODE_OPTIONS', () => {
    assert.deepEqual(heapOverrides(['--max_old_space_size=100'], '--inspect --max-old-space-size=8192'), [
      '--max_old_space_size=100',
      'NODE_OPTIONS --max-old-space-size=8192',
    ]);
    assert.deepEqual(heapOverrides([], undefined), []);
  });
  it('flags a heap limit far above the requested one', () => {
    assert.equal(heapLimitOverridden(1100 * 1048576, 1024), false);
    assert.equal(heapLimitOverridden(8192 * 1048576, 1024), true);
  });
});
