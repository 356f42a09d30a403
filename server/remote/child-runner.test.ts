import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classify } from './child-runner.js';

test('a dead child is classified by the limit its last words name', () => {
  const cases: [NodeJS.Signals | null, string, number, string][] = [
    [null, 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', 4096, 'memory'],
    ['SIGABRT', "terminate called after throwing an instance of 'std::bad_alloc'", 4096, 'address-space'],
    ['SIGABRT', "terminate called after throwing an instance of 'std::bad_alloc'", 0, 'memory'],
    ['SIGTRAP', '# Fatal process out of memory: Failed to reserve virtual memory', 4096, 'address-space'],
    ['SIGXCPU', '', 4096, 'cpu'],
    ['SIGSEGV', '', 4096, 'crash'],
  ];
  for (const [signal, stderr, as, want] of cases) assert.equal(classify(signal, stderr, as), want, stderr);
});
