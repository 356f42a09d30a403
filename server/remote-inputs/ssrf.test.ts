// Hazard 24's address rule as a table: every blocked range (v4, v6, and v6 forms embedding a
// blocked v4 address), public addresses passing, and the allow-list matching host or address.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockedAddressReason, hostAllowed } from './ssrf.js';

const blocked: Array<[string, RegExp]> = [
  ['127.0.0.1', /loopback/],
  ['127.255.0.9', /loopback/],
  ['0.0.0.0', /unspecified/],
  ['10.1.2.3', /private/],
  ['172.16.0.1', /private/],
  ['172.31.255.255', /private/],
  ['192.168.1.1', /private/],
  ['100.100.100.200', /CGNAT/],
  ['169.254.169.254', /link-local.*metadata/],
  ['224.0.0.1', /multicast/],
  ['255.255.255.255', /reserved/],
  ['::1', /loopback/],
  ['::', /unspecified/],
  ['fe80::1', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['fd00:ec2::254', /unique local/],
  ['fc00::1', /unique local/],
  ['ff02::1', /multicast/],
  ['::ffff:127.0.0.1', /loopback/],
  ['::ffff:7f00:1', /loopback/],
  ['::ffff:169.254.169.254', /link-local/],
  ['64:ff9b::a9fe:a9fe', /link-local/],
  ['2002:a00:1::', /private/],
];
for (const [address, why] of blocked)
  test(`refused: ${address}`, () => assert.match(blockedAddressReason(address) ?? 'allowed', why));

for (const address of ['8.8.8.8', '172.32.0.1', '192.169.0.1', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
  test(`public: ${address}`, () => assert.equal(blockedAddressReason(address), undefined));

test('a host name is not an address', () => assert.equal(blockedAddressReason('localhost'), 'not an IP address'));

test('allow-list matches the host or the resolved address, case-insensitively, brackets ignored', () => {
  assert.ok(hostAllowed(['127.0.0.1'], '127.0.0.1', '127.0.0.1'));
  assert.ok(hostAllowed(['Registry.Local'], 'registry.local', '10.0.0.5'));
  assert.ok(hostAllowed(['10.0.0.5'], 'registry.local', '10.0.0.5'));
  assert.ok(hostAllowed(['[::1]'], '[::1]', '::1'));
  assert.ok(!hostAllowed(['127.0.0.1'], 'localhost', '::1'));
  assert.ok(!hostAllowed([], '127.0.0.1', '127.0.0.1'));
  assert.ok(!hostAllowed([''], '127.0.0.1'));
  assert.ok(!hostAllowed(['evil.example'], 'example', '10.0.0.1'));
});
