import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseChallenges } from './auth.js';

test('WWW-Authenticate challenges parse into scheme and parameters', () => {
  const table: [string, { scheme: string; params: Record<string, string> }[]][] = [
    [
      'Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="repository:a/b:pull,push"',
      [
        {
          scheme: 'bearer',
          params: {
            realm: 'https://auth.example.com/token',
            service: 'registry.example.com',
            scope: 'repository:a/b:pull,push',
          },
        },
      ],
    ],
    ['Basic realm="kubecfg-test"', [{ scheme: 'basic', params: { realm: 'kubecfg-test' } }]],
    [
      'basic realm=plain, Bearer realm="x", error="insufficient_scope"',
      [
        { scheme: 'basic', params: { realm: 'plain' } },
        { scheme: 'bearer', params: { realm: 'x', error: 'insufficient_scope' } },
      ],
    ],
    ['Bearer realm="a\\"b"', [{ scheme: 'bearer', params: { realm: 'a"b' } }]],
    ['', []],
  ];
  for (const [header, want] of table) assert.deepEqual(parseChallenges(header), want, header);
});
