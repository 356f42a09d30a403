/**
 * Bad input never crashes: random token soup and mutated programs through
 * check and export must produce diagnostics, never an internal error.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { check, exportProgram } from './program.js';
import { memoryLoader, ROOT } from '../../test/support/cleat-kit.js';

const TOKENS = [
  'let',
  'x',
  'y',
  '=',
  '1',
  '9223372036854775807',
  '1.5',
  '"s"',
  '"\\(x)"',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  ',',
  ':',
  '.',
  '...',
  '..',
  'if',
  'then',
  'else',
  'match',
  '=>',
  '_',
  'for',
  'in',
  'fn',
  'f',
  '->',
  'Int',
  'Str',
  'type',
  'T',
  '|',
  'where',
  'self',
  'with',
  '-',
  '+',
  '*',
  '/',
  '%',
  '==',
  '<',
  '&&',
  '??',
  'export',
  'input',
  '\n',
  ' ',
  'null',
  'true',
  '?',
  '+:',
  'import',
  'from',
  '"./a.cleat"',
  'error',
  '"""\n a\n """',
];

const program = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((ts) => ts.join(' '));

test('property: check and export never fail with an internal error', () => {
  const loader = memoryLoader({ 'a.cleat': 'let q = 1\nfn g(x: Int) -> Int = x\n' });
  fc.assert(
    fc.property(program, (text) => {
      const c = check({ path: `${ROOT}/main.cleat`, text }, loader);
      for (const d of c.diagnostics) assert.ok(!d.message.startsWith('internal error'), `${d.message}\n${text}`);
      const e = exportProgram({ path: `${ROOT}/main.cleat`, text }, loader, { sets: ['x=1'] });
      if (!e.ok)
        for (const d of e.diagnostics) assert.ok(!d.message.startsWith('internal error'), `${d.message}\n${text}`);
    }),
    { numRuns: 400 },
  );
});

test('property: well-formed arithmetic never escapes as a JS exception', () => {
  const expr = fc.letrec((tie) => ({
    e: fc.oneof(
      { depthSize: 'small' },
      fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }).map((n) => (n < 0n ? `(${n})` : String(n))),
      fc.constantFrom('1.5', '0', '0.0', '1e308', 'x'),
      fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '%'), tie('e')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    ),
  })).e;
  fc.assert(
    fc.property(expr, (e) => {
      const text = `input x: Int\nexport { v: ${e} }\n`;
      const r = exportProgram({ path: `${ROOT}/main.cleat`, text }, memoryLoader({}), { sets: ['x=0'] });
      if (!r.ok)
        for (const d of r.diagnostics)
          assert.ok(
            /^CLEAT_(OVERFLOW|DIV_ZERO|NON_FINITE|TYPE_MISMATCH)$/.test(d.code),
            `${d.code} ${d.message}\n${text}`,
          );
    }),
    { numRuns: 300 },
  );
});
