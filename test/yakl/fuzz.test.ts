/**
 * Bad input never crashes the compiler: deterministic mutations (deleted,
 * inserted and duplicated characters) of every fixture either compile to
 * Jsonnet that parses, or throw a located YaklError; nothing else escapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from './fixtures-dir.js';
import { SourceFile } from '../../lang/common/source.js';
import { parseAst } from '../../lang/jsonnet/index.js';
import { YaklError, compileYakl } from '../../lang/yakl/index.js';

const dir = fixturesDir;
const ALPHABET = [
  '$',
  '{',
  '}',
  '\\',
  ':',
  "'",
  '"',
  '\n',
  ' ',
  '-',
  '#',
  '&',
  '*',
  '|',
  '>',
  '[',
  ']',
  ',',
  '^',
  '+',
  '<',
  '!',
  '%',
  '\t',
  '\u2028',
  'x',
];
const PER_FILE = 80;

/** A small deterministic PRNG (mulberry32), so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(text: string, rand: () => number): string {
  let t = text;
  const edits = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(rand() * (t.length + 1));
    const op = rand();
    if (op < 0.4) t = t.slice(0, at) + t.slice(at + 1);
    else if (op < 0.8) t = t.slice(0, at) + ALPHABET[Math.floor(rand() * ALPHABET.length)]! + t.slice(at);
    else {
      const len = Math.floor(rand() * 12);
      t = t.slice(0, at) + t.slice(at, at + len) + t.slice(at);
    }
  }
  return t;
}

test('mutated fixtures: no crash, only located YaklErrors', () => {
  let compiled = 0;
  let rejected = 0;
  for (const name of readdirSync(dir).sort()) {
    const input = readFileSync(join(dir, name, 'input.yakl'), 'utf8');
    const rand = rng(name.length * 7919 + input.length);
    for (let i = 0; i < PER_FILE; i++) {
      const text = mutate(input, rand);
      try {
        const { jsonnet } = compileYakl('fuzz.yakl', text);
        parseAst(new SourceFile('fuzz.yakl', jsonnet));
        compiled++;
      } catch (e) {
        if (!(e instanceof YaklError) || e.code === 'YAKL_INTERNAL') {
          assert.fail(`${name} mutation ${i} threw ${String(e)}\n--- input ---\n${text}`);
        }
        assert.ok(e.line >= 1 && e.column >= 1);
        rejected++;
      }
    }
  }
  assert.ok(compiled > 0 && rejected > 0);
});
