/** /metrics text of kubecfg httpd. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpdMetrics } from './httpd-metrics.js';

test('requests by path and status; unknown paths are "other"', () => {
  const m = new HttpdMetrics(new Set(['/sync']));
  m.observe('/sync', 200, 0.003);
  m.observe('/sync', 200, 0.2);
  m.observe('/sync', 500, 0.01);
  m.observe('/random-1', 404, 0);
  m.observe('/random-2', 404, 0);
  const text = m.render();
  assert.match(text, /^kubecfg_httpd_requests_total\{path="\/sync",status="200"\} 2$/m);
  assert.match(text, /^kubecfg_httpd_requests_total\{path="\/sync",status="500"\} 1$/m);
  assert.match(text, /^kubecfg_httpd_requests_total\{path="other",status="404"\} 2$/m);
  assert.match(text, /^kubecfg_httpd_request_duration_seconds_bucket\{path="\/sync",le="0.005"\} 1$/m);
  assert.match(text, /^kubecfg_httpd_request_duration_seconds_count\{path="\/sync"\} 3$/m);
  assert.doesNotMatch(text, /random/);
  assert.equal(m.count('/sync', 200), 2);
});
