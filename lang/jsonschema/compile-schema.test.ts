// Draft selection from `$schema`, as santhosh-tekuri/jsonschema (v5 and v6) reads the URI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSchema, SchemaCompileError } from './index.js';

test('$schema: the built-in drafts and the library alias for its latest draft', () => {
  const cases: [string, number][] = [
    ['http://json-schema.org/schema#', 2020],
    ['https://json-schema.org/schema', 2020],
    ['http://json-schema.org/draft-04/schema#', 4],
    ['https://json-schema.org/draft-06/schema', 6],
    ['http://json-schema.org/draft-07/schema#', 7],
    ['https://json-schema.org/draft/2019-09/schema', 2019],
    ['https://json-schema.org/draft/2020-12/schema', 2020],
  ];
  for (const [uri, version] of cases) assert.equal(compileSchema({ $schema: uri }).version, version, uri);
  assert.equal(compileSchema({}).version, 2020);
});

test('$schema: an unknown metaschema fails unless the caller names a fallback draft', () => {
  for (const uri of [
    'https://example.com/meta.json',
    'http://json-schema.org/schema#/x',
    'http://json-schema.org/draft-05/schema#',
  ]) {
    assert.throws(() => compileSchema({ $schema: uri }), SchemaCompileError, uri);
    assert.equal(compileSchema({ $schema: uri }, { unknownSchemaDraft: 2020 }).version, 2020, uri);
  }
});
