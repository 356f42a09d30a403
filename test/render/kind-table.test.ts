import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKindTable } from '../support/kind-table-generator.js';
import { repoRoot } from '../support/repo-root.js';
import { kubernetesOpenApi } from '../support/kubernetes-openapi.js';

const TABLE = join(repoRoot(import.meta.url), 'render/order/builtin-kinds.ts');

test('the committed kind table is what the generator makes from the OpenAPI document', () => {
  const generated = generateKindTable(kubernetesOpenApi(), 'the Kubernetes 1.36 OpenAPI v2 document');
  if (process.env.UPDATE_KIND_TABLE === '1') writeFileSync(TABLE, generated);
  assert.equal(readFileSync(TABLE, 'utf8'), generated);
});
