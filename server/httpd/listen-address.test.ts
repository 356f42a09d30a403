/** --listen-addr as Go's net.Listen reads HOST:PORT. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ListenAddressError, parseListenAddress } from './listen-address.js';

const good: [string, string, number][] = [
  [':8080', '::', 8080],
  ['127.0.0.1:0', '127.0.0.1', 0],
  ['localhost:9000', 'localhost', 9000],
  ['[::1]:8443', '::1', 8443],
  ['0.0.0.0:65535', '0.0.0.0', 65535],
];
for (const [text, host, port] of good) {
  test(`listen address ${text}`, () => assert.deepEqual(parseListenAddress(text), { host, port }));
}

const bad: [string, RegExp][] = [
  ['8080', /missing port in address/],
  ['localhost', /missing port in address/],
  ['::1:80', /too many colons/],
  ['[::1]', /missing port in address/],
  ['[::1:80', /missing '\]'/],
  [':http', /unknown port "http"/],
  [':70000', /unknown port "70000"/],
  [':', /unknown port ""/],
];
for (const [text, want] of bad) {
  test(`listen address refused: ${text}`, () => {
    assert.throws(
      () => parseListenAddress(text),
      (e: Error) => e instanceof ListenAddressError && want.test(e.message),
    );
  });
}
