import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKindTable } from './kind-table-generator.js';

const OPENAPI = '/work/shared/data/kubernetes-openapi-v2.json';
/** The repository root (tests also run from dist/, where data files are not copied). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) throw new Error('repository root not found');
    dir = dirname(dir);
  }
  return dir;
}
const TABLE = join(repoRoot(), 'render/order/builtin-kinds.ts');

test('the committed kind table is what the generator makes from the OpenAPI document', (t) => {
  if (!existsSync(OPENAPI)) {
    t.skip(`no ${OPENAPI}`);
    return;
  }
  const generated = generateKindTable(
    JSON.parse(readFileSync(OPENAPI, 'utf8')),
    'the Kubernetes 1.36 OpenAPI v2 document',
  );
  if (process.env.UPDATE_KIND_TABLE === '1') writeFileSync(TABLE, generated);
  assert.equal(readFileSync(TABLE, 'utf8'), generated);
});
