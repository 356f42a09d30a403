import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReference, parseOciImportUrl, parseReference } from './reference.js';
import { isOciError } from './errors.js';

const D = 'sha256:' + 'a'.repeat(64);

test('references normalize like docker and the distribution spec', () => {
  const table: [string, string][] = [
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.25', 'docker.io/library/nginx:1.25'],
    ['bitnami/nginx', 'docker.io/bitnami/nginx:latest'],
    ['index.docker.io/nginx', 'docker.io/library/nginx:latest'],
    ['docker.io/library/nginx@' + D, 'docker.io/library/nginx@' + D],
    ['localhost/app', 'localhost/app:latest'],
    ['localhost:5000/a/b/c:v1', 'localhost:5000/a/b/c:v1'],
    ['127.0.0.1:5000/app:v1@' + D, '127.0.0.1:5000/app:v1@' + D],
    ['[::1]:5000/app:v2', '[::1]:5000/app:v2'],
    ['ghcr.io/org/my_lib.x-y:1.0.0-rc.1', 'ghcr.io/org/my_lib.x-y:1.0.0-rc.1'],
    ['registry.example.com:443/a__b/c', 'registry.example.com:443/a__b/c:latest'],
  ];
  for (const [input, want] of table) assert.equal(formatReference(parseReference(input)), want, input);
});

test('malformed references are refused with the reason', () => {
  const table: [string, RegExp][] = [
    ['', /empty/],
    ['Nginx', /lower-case/],
    ['host.com/App:v1', /lower-case/],
    ['host.com/app:-bad', /tag/],
    ['host.com/app@sha256:abc', /digest/],
    ['host.com/app@md5:' + 'a'.repeat(32), /digest/],
    ['host.com//app', /component ""/],
    ['https://host.com/app', /scheme/],
    ['host.com/a b', /whitespace/],
    ['host.com:99999/app', /registry host/],
    ['host.com/' + 'a'.repeat(300), /longer than 255/],
  ];
  for (const [input, re] of table) {
    assert.throws(
      () => parseReference(input),
      (e) => isOciError(e, 'OCI_REFERENCE') && re.test(e.message),
      input,
    );
  }
});

test('oci:// import URLs split into reference and in-bundle path', () => {
  const table: [string, string, string][] = [
    ['oci://localhost:5000/libs/k8s:v1.2/main.libsonnet', 'localhost:5000/libs/k8s:v1.2', 'main.libsonnet'],
    [
      'oci://registry.example.com/libs/k8s:v1.2/a/b/c.libsonnet',
      'registry.example.com/libs/k8s:v1.2',
      'a/b/c.libsonnet',
    ],
    ['oci://registry.example.com/libs/k8s:v1.2', 'registry.example.com/libs/k8s:v1.2', ''],
    ['oci://registry.example.com/libs/k8s:v1.2/', 'registry.example.com/libs/k8s:v1.2', ''],
    [`oci://r.example.com/app@${D}/x.jsonnet`, `r.example.com/app@${D}`, 'x.jsonnet'],
    [`oci://r.example.com/app:v1@${D}/x.yakl`, `r.example.com/app:v1@${D}`, 'x.yakl'],
  ];
  for (const [url, ref, path] of table) {
    const got = parseOciImportUrl(url);
    assert.equal(formatReference(got.reference), ref, url);
    assert.equal(got.path, path, url);
  }
});

test('bad oci:// URLs are refused', () => {
  const table: [string, RegExp][] = [
    ['https://x.com/a:v1/b', /starts with oci:\/\//],
    ['oci://x.com/a/b.libsonnet', /needs a tag/],
    ['oci://x.com/a:v1/../etc/passwd', /'\.\.'/],
    ['oci://x.com/a:v1/a//b', /empty/],
    ['oci://x.com/a:v1/a\\b', /backslash/],
    ['oci://app:v1/x', /registry host explicitly|missing repository|invalid/],
  ];
  for (const [url, re] of table) {
    assert.throws(
      () => parseOciImportUrl(url),
      (e) => isOciError(e, 'OCI_REFERENCE') && re.test(e.message),
      url,
    );
  }
});
