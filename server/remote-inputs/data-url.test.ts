// data: URLs as import locations (RFC 2397): plain and percent-encoded text, base64 (standard and
// URL-safe alphabets, whitespace ignored), and the malformed shapes refused with their reason.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeDataUrl, DataUrlError, isDataUrl } from './data-url.js';

const text = (u: string): string => new TextDecoder().decode(decodeDataUrl(u));

const good: Array<[string, string]> = [
  ['data:,{a:1}', '{a:1}'],
  ['data:text/plain,hello%20world', 'hello world'],
  ['data:application/jsonnet;charset=utf-8,%7B%7D', '{}'],
  ['data:;base64,eyBhOiAxIH0=', '{ a: 1 }'],
  ['DATA:text/plain;base64,aGk=', 'hi'],
  ['data:;base64,a GVs bG8=', 'hello'],
  ['data:;base64,-_8=', '\ufffd\ufffd'],
  ['data:,', ''],
];
for (const [url, want] of good) test(`decodes ${url}`, () => assert.equal(text(url), want));

const bad: Array<[string, RegExp]> = [
  ['data:text/plain', /needs a ','/],
  ['data:,%zz', /percent-encoding/],
  ['data:;base64,@@@', /bad base64/],
];
for (const [url, why] of bad)
  test(`refuses ${url}`, () =>
    assert.throws(
      () => decodeDataUrl(url),
      (e: unknown) => e instanceof DataUrlError && why.test(e.message),
    ));

test('isDataUrl', () => {
  assert.ok(isDataUrl('data:,x'));
  assert.ok(!isDataUrl('./data:x'));
  assert.ok(!isDataUrl('metadata:,x'));
});
