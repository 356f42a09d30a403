import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_EXPORT_FILENAME_FORMAT,
  exportFileName,
  exportTemplateData,
  exportTemplateText,
} from './export-names.js';

test('the spec example: default format', () => {
  // What the Go template makes of the spec's Deployment with the default format:
  const rendered = 'extensions/v1beta1.Deployment-default.busybox';
  assert.equal(exportTemplateText(DEFAULT_EXPORT_FILENAME_FORMAT), DEFAULT_EXPORT_FILENAME_FORMAT);
  assert.equal(exportFileName(rendered, 'yaml'), 'extensions-v1beta1.Deployment-default.busybox.yaml');
});

test('a / in the format text makes a directory; a / from the data does not', () => {
  const text = exportTemplateText('{{.metadata.namespace}}/{{.apiVersion}}/{{.kind}}');
  assert.equal(text, '{{.metadata.namespace}}\u0007{{.apiVersion}}\u0007{{.kind}}');
  const rendered = 'prod\u0007apps/v1\u0007Deployment'; // as the template would print it
  assert.equal(exportFileName(rendered, 'json'), 'prod/apps-v1/Deployment.json');
});

test('unbalanced braces follow kubecfg', () => {
  assert.equal(exportTemplateText('a/{{b/c'), 'a\u0007{{b\u0007c');
  assert.equal(exportTemplateText('{{x/y'), '{{x\u0007y');
  assert.equal(exportTemplateText('a}}/b'), 'a}}\u0007b');
});

test('template data carries the index', () => {
  assert.deepEqual(exportTemplateData({ kind: 'X' }, 3), { kind: 'X', ___idx___: 3 });
});
