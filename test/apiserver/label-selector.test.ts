import assert from 'node:assert/strict';
import { test } from 'node:test';
import { labelsMatch, parseLabelSelector } from './label-selector.js';

const labels = { app: 'web', tier: 'front', 'example.com/team': 'a' };

test('label selectors match as Kubernetes does', () => {
  const table: Array<[string, boolean]> = [
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app=api', false],
    ['app!=api', true],
    ['app!=web', false],
    ['missing!=x', true],
    ['app in (api, web)', true],
    ['app in (api)', false],
    ['app notin (api)', true],
    ['missing notin (api)', true],
    ['tier', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['example.com/team=a,app=web', true],
    ['app=web,tier=back', false],
    ['app in (web),!missing,tier', true],
  ];
  for (const [selector, want] of table) {
    const parsed = parseLabelSelector(selector);
    assert.ok(parsed.ok, selector);
    assert.equal(labelsMatch(parsed.requirements, labels), want, selector);
  }
});

test('malformed selectors are errors, not exceptions', () => {
  for (const bad of ['app=(x', '=x', 'a b', 'app in x', 'app=we b']) {
    const parsed = parseLabelSelector(bad);
    assert.equal(parsed.ok, false, bad);
  }
});
