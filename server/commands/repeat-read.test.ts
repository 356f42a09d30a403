import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRepeatRead } from './repeat-read.js';

// kubecfg utils/acquire.go (ReadTwice): the second evaluation must equal the first, else
// "repeat read of <file URL> returned non-idempotent result", wrapped as "error reading FILE: ...".
test('repeat read: equal values pass, a differing one names the file URL', () => {
  const cm = (v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { v } });
  checkRepeatRead([{ file: 'app.jsonnet', value: cm('1') }], [{ file: 'app.jsonnet', value: cm('1') }], '/w');
  assert.throws(
    () =>
      checkRepeatRead(
        [
          { file: 'ok.jsonnet', value: cm('1') },
          { file: 'app.jsonnet', value: cm('1') },
        ],
        [
          { file: 'ok.jsonnet', value: cm('1') },
          { file: 'app.jsonnet', value: cm('2') },
        ],
        '/w',
      ),
    (e: unknown) =>
      e instanceof Error &&
      e.message === 'error reading app.jsonnet: repeat read of file:///w/app.jsonnet returned non-idempotent result',
  );
  assert.throws(
    () => checkRepeatRead([{ file: 'http://h/a', value: 1 }], [{ file: 'http://h/a', value: 2 }], '/w'),
    /repeat read of http:\/\/h\/a returned non-idempotent result/,
  );
});
