/**
 * resolveImage in noop mode: canonical names as kubecfg prints them
 * (expected values checked against go-containerregistry's name package as
 * kubecfg calls it), parse failures with kubecfg's text, and the native
 * through the Jsonnet engine.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, parseModule } from '../../lang/jsonnet/index.js';
import { SourceFile } from '../../lang/common/source.js';
import { RenderError } from '../errors.js';
import { kubecfgNatives } from './index.js';
import { makeResolveImageNative } from './resolve-image.js';

const native = makeResolveImageNative('noop');
const digest = 'sha256:' + '0123456789abcdef'.repeat(4);

const resolved: [string, string][] = [
  ['nginx', 'docker.io/library/nginx:latest'],
  ['nginx:1.27', 'docker.io/library/nginx:1.27'],
  ['docker.io/nginx', 'docker.io/library/nginx:latest'],
  ['index.docker.io/nginx:1', 'docker.io/library/nginx:1'],
  ['docker.io/bitnami/nginx:1.2', 'docker.io/bitnami/nginx:1.2'],
  ['gcr.io/proj/app:v1.0.0', 'gcr.io/proj/app:v1.0.0'],
  ['localhost/app', 'localhost/app:latest'],
  ['localhost:5000/app', 'localhost:5000/app:latest'],
  ['myhost:5000/a/b/c:x', 'myhost:5000/a/b/c:x'],
  ['[::1]:5000/app', '[::1]:5000/app:latest'],
  ['registry.example.com:/app', 'registry.example.com:/app:latest'],
  ['über.io/app', 'über.io/app:latest'],
  ['a//b', 'docker.io/a//b:latest'],
  [`nginx@${digest}`, `docker.io/library/nginx@${digest}`],
  [`nginx:1.27@${digest}`, `docker.io/library/nginx@${digest}`],
  [`gcr.io/x/y:t@${digest}`, `gcr.io/x/y@${digest}`],
];

for (const [image, want] of resolved) {
  test(`resolveImage ${image}`, () => assert.equal(native.fn([image]), want));
}

const rejected = [
  'Nginx',
  'nginx:',
  'nginx:bad tag',
  ':tag',
  '',
  'nginx:a:b',
  '[::1/app',
  'host:abc/app',
  'ho st.io/app',
  'ho%20st.io/app',
  'a.b@c/app',
  'nginx@sha256:short',
  `nginx@${digest}@x`,
  'nginx:' + 'x'.repeat(129),
];

for (const image of rejected) {
  test(`resolveImage rejects ${JSON.stringify(image)}`, () => {
    assert.throws(
      () => native.fn([image]),
      (e: unknown) =>
        e instanceof RenderError &&
        e.message === `parsing reference ${JSON.stringify(image)}: could not parse reference: ${image}`,
    );
  });
}

test('resolveImage wants a string', () => {
  assert.throws(() => native.fn([3]), /resolveImage: parameter image must be a string, got float64/);
});

test('resolveImage is registered as noop and reachable from Jsonnet', () => {
  const module = parseModule(new SourceFile('/t/img.jsonnet', `std.native('resolveImage')('nginx:1.27')`));
  assert.equal(evaluate(module, { natives: kubecfgNatives }), 'docker.io/library/nginx:1.27');
});

describe('registry mode', () => {
  const pinned = 'sha256:' + 'ab'.repeat(32);
  const registry = (onError: 'ignore' | 'warn' | 'error', answer: { digest: string } | { error: string }) => {
    const asked: string[] = [];
    const warned: string[] = [];
    const n = makeResolveImageNative('registry', {
      onError,
      lookup: (canonical) => (asked.push(canonical), answer),
      warn: (m) => void warned.push(m),
    });
    return { n, asked, warned };
  };

  test('a tag becomes the digest the registry gives, asked in canonical form', () => {
    const { n, asked } = registry('error', { digest: pinned });
    assert.equal(n.fn(['nginx:1.27']), `docker.io/library/nginx@${pinned}`);
    assert.deepEqual(asked, ['docker.io/library/nginx:1.27']);
  });

  test('an image already pinned by digest asks nothing', () => {
    const { n, asked } = registry('error', { error: 'unreachable' });
    assert.equal(n.fn([`gcr.io/p/app:v1@${digest}`]), `gcr.io/p/app@${digest}`);
    assert.deepEqual(asked, []);
  });

  const failures: Array<['ignore' | 'warn' | 'error', number]> = [
    ['ignore', 0],
    ['warn', 1],
  ];
  for (const [mode, warnings] of failures) {
    test(`--resolve-images-error=${mode} keeps the tag`, () => {
      const { n, warned } = registry(mode, { error: 'manifest unknown' });
      assert.equal(n.fn(['nginx']), 'docker.io/library/nginx:latest');
      assert.equal(warned.length, warnings);
      if (warnings) assert.equal(warned[0], 'unable to get digest from the registry: manifest unknown');
    });
  }

  test('--resolve-images-error=error fails with kubecfg words', () => {
    const { n } = registry('error', { error: 'manifest unknown' });
    assert.throws(
      () => n.fn(['nginx']),
      (e: unknown) =>
        e instanceof RenderError && e.message === 'unable to get digest from the registry: manifest unknown',
    );
  });
});
