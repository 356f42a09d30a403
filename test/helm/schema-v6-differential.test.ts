// Differential test of Helm 3.18's values.schema.json errors against santhosh-tekuri/jsonschema v6
// itself: random schemas and values, each checked by our ValidatorV6 and by `helm-schema-v6`, a small
// Go program around the library that prints what Helm's ValidateAgainstSingleSchema returns
// (/work/tools/README of the build machine tells how to build it). It runs when HELM_SCHEMA_V6
// names that program and is skipped otherwise. The library ranges over Go maps (an object's
// properties), so its sibling order is random: lines are compared as sorted sets, and a list of
// additional properties as a set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonValue } from '../../lang/common/json.js';
import { compileSchema, ValidatorV6, v6ErrorLines } from '../../lang/jsonschema/index.js';

const ORACLE = process.env.HELM_SCHEMA_V6;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generator(seed: number): { schema: () => JsonValue; value: () => JsonValue } {
  const r = random(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const keys = ['a', 'b', 'c', 'd/x', 'e~y'];
  const scalars: JsonValue[] = [0, 1, -5, 70000, 1.5, 'a', 'hello', '', true, null, 123456789, 1e22, 0.00001, 'Always'];
  const value = (d = 0): JsonValue => {
    const x = r();
    if (d > 2 || x < 0.3) return pick(scalars);
    if (x < 0.6) return Object.fromEntries(keys.filter(() => r() < 0.5).map((k) => [k, value(d + 1)]));
    return Array.from({ length: Math.floor(r() * 4) }, () => value(d + 1));
  };
  const schema = (d = 0): JsonValue => {
    const s: Record<string, JsonValue> = {};
    const maybe = (p: number, key: string, make: () => JsonValue): void => {
      if (r() < p) s[key] = make();
    };
    maybe(0.35, 'type', () => pick(['string', 'integer', 'number', 'object', 'array', ['string', 'null']]));
    maybe(0.1, 'enum', () => pick([['Always', 'Never'], [1, 2], ['x']]));
    maybe(0.05, 'const', () => pick(['a', 1, { a: 1 }]));
    maybe(0.2, 'minimum', () => pick([0, 1, 1000]));
    maybe(0.2, 'maximum', () => pick([10, 65535, 1.5]));
    maybe(0.1, 'multipleOf', () => pick([2, 0.5]));
    maybe(0.15, 'minLength', () => pick([1, 3]));
    maybe(0.1, 'pattern', () => '^[a-z]+$');
    maybe(0.15, 'required', () => pick([['a'], ['a', 'b'], ['c']]));
    maybe(0.1, 'minItems', () => 2);
    maybe(0.1, 'uniqueItems', () => true);
    maybe(0.1, 'minProperties', () => 2);
    maybe(0.05, 'dependentRequired', () => ({ a: ['b', 'c'] }));
    maybe(0.05, 'propertyNames', () => ({ maxLength: 1 }));
    if (d < 3) {
      maybe(0.5, 'properties', () => Object.fromEntries(keys.filter(() => r() < 0.4).map((k) => [k, schema(d + 1)])));
      maybe(0.15, 'additionalProperties', () => (r() < 0.5 ? false : schema(d + 1)));
      maybe(0.15, 'patternProperties', () => ({ '^e': schema(d + 1) }));
      maybe(0.3, 'items', () => schema(d + 1));
      maybe(0.1, 'prefixItems', () => [schema(d + 1), schema(d + 1)]);
    }
    if (d < 2) {
      for (const k of ['allOf', 'anyOf', 'oneOf']) maybe(0.1, k, () => [schema(d + 1), schema(d + 1)]);
      maybe(0.05, 'not', () => schema(d + 1));
      maybe(0.08, 'contains', () => schema(d + 1));
      if (r() < 0.08) Object.assign(s, { if: schema(d + 1), then: schema(d + 1), else: schema(d + 1) });
    }
    return r() < 0.1 && d === 0 ? { $defs: { d: s }, $ref: '#/$defs/d' } : s;
  };
  return { schema, value };
}

/** Order-free form: sorted lines, and the names of an additional-properties line sorted. */
function normalized(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line.replace(
        /additional properties (.*) not allowed$/,
        (_, names: string) => `additional properties ${names.split(', ').sort().join(', ')} not allowed`,
      ),
    )
    .sort()
    .join('\n');
}

test(
  'Helm 3.18 schema errors: ours against santhosh-tekuri/jsonschema v6',
  { skip: !ORACLE && 'HELM_SCHEMA_V6 is not set' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'kcfg-v6-'));
    try {
      const gen = generator(20261203);
      let compared = 0;
      for (let i = 0; i < 300; i++) {
        const schema = gen.schema();
        const value = gen.value();
        writeFileSync(join(dir, 's.json'), JSON.stringify(schema));
        writeFileSync(join(dir, 'v.json'), JSON.stringify(value));
        const want = execFileSync(ORACLE!, [join(dir, 's.json'), join(dir, 'v.json')], { encoding: 'utf8' });
        if (want.startsWith('ERR:')) continue;
        const causes = new ValidatorV6(compileSchema(schema, { unknownSchemaDraft: 2020 })).validateRoot(value);
        const got = causes ? `${v6ErrorLines(causes)}\n` : '';
        assert.equal(normalized(got), normalized(want), JSON.stringify({ schema, value }));
        compared++;
      }
      assert.ok(compared > 250, `only ${compared} cases compared`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
