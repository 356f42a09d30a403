// Proxy selection as Go's http.ProxyFromEnvironment makes it for kubecfg (golang.org/x/net/http/httpproxy).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { activeProxySettings, proxyFor, proxySettings } from './proxy.js';

test('which variables are read: upper case first, as Go reads them', () => {
  assert.deepEqual(proxySettings({ HTTP_PROXY: 'http://up', http_proxy: 'http://low', no_proxy: 'x' }), {
    httpProxy: 'http://up',
    httpsProxy: '',
    noProxy: 'x',
  });
  assert.deepEqual(proxySettings({ https_proxy: 'http://low', HTTPS_PROXY: '' }).httpsProxy, 'http://low');
  assert.equal(activeProxySettings({ NO_PROXY: '*' }), undefined);
});

test('proxyFor: scheme, loopback and NO_PROXY rules', () => {
  const P = 'http://proxy.corp:3128/';
  const cases: [string, Record<string, string>, string | undefined][] = [
    ['http://example.com/a', { HTTP_PROXY: P }, P],
    ['https://example.com/a', { HTTPS_PROXY: P }, P],
    ['https://example.com/a', { HTTP_PROXY: P }, undefined],
    ['http://example.com/a', { HTTPS_PROXY: P }, undefined],
    ['http://example.com/', { HTTP_PROXY: 'proxy.corp:3128' }, P],
    ['http://localhost:8080/', { HTTP_PROXY: P }, undefined],
    ['http://127.0.0.2/', { HTTP_PROXY: P }, undefined],
    ['http://[::1]:5000/', { HTTP_PROXY: P }, undefined],
    ['http://app.localhost/', { HTTP_PROXY: P }, P],
    ['http://example.com/', { HTTP_PROXY: P, NO_PROXY: '*' }, undefined],
    ['http://example.com/', { HTTP_PROXY: P, NO_PROXY: 'example.com' }, undefined],
    ['http://a.example.com/', { HTTP_PROXY: P, NO_PROXY: 'example.com' }, undefined],
    ['http://example.com/', { HTTP_PROXY: P, NO_PROXY: '.example.com' }, P],
    ['http://a.example.com/', { HTTP_PROXY: P, NO_PROXY: '*.example.com' }, undefined],
    ['http://notexample.com/', { HTTP_PROXY: P, NO_PROXY: 'example.com' }, P],
    ['http://example.com:8080/', { HTTP_PROXY: P, NO_PROXY: 'example.com:9090' }, P],
    ['http://example.com:8080/', { HTTP_PROXY: P, NO_PROXY: 'example.com:8080' }, undefined],
    ['http://example.com/', { HTTP_PROXY: P, NO_PROXY: 'example.com:80' }, undefined],
    ['http://10.1.2.3/', { HTTP_PROXY: P, NO_PROXY: '10.0.0.0/8' }, undefined],
    ['http://11.1.2.3/', { HTTP_PROXY: P, NO_PROXY: '10.0.0.0/8' }, P],
    ['http://[fd00::5]/', { HTTP_PROXY: P, NO_PROXY: 'fd00::/8' }, undefined],
    ['http://192.168.1.1/', { HTTP_PROXY: P, NO_PROXY: '192.168.1.1' }, undefined],
    ['http://EXAMPLE.com/', { HTTP_PROXY: P, NO_PROXY: ' Example.COM , other' }, undefined],
  ];
  for (const [url, env, want] of cases)
    assert.equal(proxyFor(new URL(url), proxySettings(env))?.href, want, `${url} ${JSON.stringify(env)}`);
});

test('a proxy scheme we cannot speak is an error naming the variable', () => {
  assert.throws(
    () => proxyFor(new URL('https://example.com/'), proxySettings({ HTTPS_PROXY: 'socks5://127.0.0.1:1080' })),
    /^Error: HTTPS_PROXY: proxy scheme socks5 is not supported \(use http:\/\/ or https:\/\/\)$/,
  );
});
