// Table from Go's net/url.Parse rules (url_test.go's parse cases and its documented rejections).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goHostname, parseGoURL } from './go-url.js';

const ok: [string, Partial<ReturnType<typeof parseGoURL>> & { hostname?: string }][] = [
  ['http://www.google.com', { scheme: 'http', host: 'www.google.com', path: '' }],
  ['http://www.google.com/?', { host: 'www.google.com', path: '/', rawQuery: '' }],
  ['http://www.google.com/file%20one%26two', { path: '/file one&two' }],
  ['HTTP://x/', { scheme: 'http', host: 'x' }],
  ['mailto:user@example.com', { scheme: 'mailto', opaque: 'user@example.com', path: '' }],
  ['ftp://john%20doe@www.google.com/', { userinfo: 'john%20doe', host: 'www.google.com' }],
  ['http://j@ne:password@google.com/p', { userinfo: 'j%40ne:password', host: 'google.com' }],
  ['http://[fe80::1%25en0]:8080/', { host: '[fe80::1%en0]:8080', hostname: 'fe80::1%en0' }],
  ['http://[::1]/', { host: '[::1]', hostname: '::1' }],
  ['http://[::ffff:1.2.3.4]:80/', { host: '[::ffff:1.2.3.4]:80', hostname: '::ffff:1.2.3.4' }],
  ['http://[1:2:3:4:5:6:7:8]/', { hostname: '1:2:3:4:5:6:7:8' }],
  ['http://host:/', { host: 'host:', hostname: 'host' }],
  ['http://x/p?q=a%zz#f%20g', { rawQuery: 'q=a%zz', fragment: 'f g' }],
  ['/relative/path', { scheme: '', path: '/relative/path' }],
  ['a/b:c', { path: 'a/b:c' }],
  ['*', { path: '*' }],
  ['file:///etc/hosts', { scheme: 'file', host: '', path: '/etc/hosts' }],
  ['//host/p', { host: 'host', path: '/p' }],
  ['http://%C3%A9.example/', { host: 'é.example' }],
  ['http://x/#frag\x01', { fragment: 'frag\x01' }],
];

test('parseGoURL: the parts Go gives', () => {
  for (const [raw, want] of ok) {
    const got = { ...parseGoURL(raw), hostname: goHostname(parseGoURL(raw).host) };
    for (const [k, v] of Object.entries(want)) assert.equal(got[k as keyof typeof got], v, `${raw} ${k}`);
  }
});

const bad: [string, string][] = [
  ['http://[fd00::zz-x', `parse "http://[fd00::zz-x": missing ']' in host`],
  [':no-scheme', `parse ":no-scheme": missing protocol scheme`],
  ['http://a host.example/', `parse "http://a host.example/": invalid character " " in host name`],
  ['http://host:port/', `parse "http://host:port/": invalid port ":port" after host`],
  ['http://[::1]x/', `parse "http://[::1]x/": invalid port "x" after host`],
  ['http://[::1]:8a/', `parse "http://[::1]:8a/": invalid port ":8a" after host`],
  ['http://x/\x7f', `parse "http://x/\\x7f": net/url: invalid control character in URL`],
  ['http://x/a\nb', `parse "http://x/a\\nb": net/url: invalid control character in URL`],
  ['http://x/%zz', `parse "http://x/%zz": invalid URL escape "%zz"`],
  ['http://x/%4', `parse "http://x/%4": invalid URL escape "%4"`],
  ['http://x/#%g1', `parse "http://x/#%g1": invalid URL escape "%g1"`],
  ['http://%41.example/', `parse "http://%41.example/": invalid URL escape "%41"`],
  ['http://a<b>@h/', `parse "http://a<b>@h/": net/url: invalid userinfo`],
  ['http://x{y}/', `parse "http://x{y}/": invalid character "{" in host name`],
  ['a:b/c:d'.replace('a:', 'x y:'), `parse "x y:b/c:d": first path segment in URL cannot contain colon`],
  ['http://[1.2.3.4]/', `parse "http://[1.2.3.4]/": invalid IP-literal`],
  ['http://a[::1]/', `parse "http://a[::1]/": invalid IP-literal`],
  ['http://[fd00::zz]/', `parse "http://[fd00::zz]/": invalid host: ParseAddr("fd00::zz"): not an IP address`],
  ['http://[1::2::3]/', `parse "http://[1::2::3]/": invalid host: ParseAddr("1::2::3"): not an IP address`],
  ['1:2', `parse "1:2": first path segment in URL cannot contain colon`],
  ['%zz', `parse "%zz": invalid URL escape "%zz"`],
];

test('parseGoURL: what Go rejects, with its message', () => {
  for (const [raw, msg] of bad) assert.throws(() => parseGoURL(raw), { message: msg }, raw);
});
