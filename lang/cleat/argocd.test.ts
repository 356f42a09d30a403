/**
 * Argo CD parameter announcements with defaults: a default is announced as
 * the text Argo CD would pass back only when that text reads back as the same
 * value under the --set rule (inputs.ts); ARGOCD_APP_PARAMETERS items and map
 * values follow the rule against their element and field types.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argocdParameterAnnouncements } from './argocd.js';
import { exportText, memoryLoader, ROOT } from '../../test/support/cleat-kit.js';

const announce = (src: string) => {
  const r = argocdParameterAnnouncements({ path: `${ROOT}/main.cleat`, text: src }, memoryLoader({}));
  assert.ok(r.ok, JSON.stringify(r));
  return r.parameters.map(({ name, string, array, map }) => ({ name, string, array, map }));
};

const cases: Array<{ decl: string; want: { string?: string; array?: string[]; map?: Record<string, string> } }> = [
  { decl: 'input x: Str = "3"', want: { string: '3' } },
  { decl: 'input x: Int = 2', want: { string: '2' } },
  { decl: 'input x: Float = 1.5', want: { string: '1.5' } },
  { decl: 'input x: Bool = true', want: { string: 'true' } },
  { decl: 'input x: "dev" | "prod" = "dev"', want: { string: 'dev' } },
  // "2" would read back as the string "2": not announced.
  { decl: 'input x: Str | Int = 2', want: {} },
  { decl: 'input x: Int where self >= 1 = 2 * 3', want: { string: '6' } },
  { decl: 'input x: Str', want: {} },
  { decl: 'input x: [Int] = [80, 443]', want: { array: ['80', '443'] } },
  { decl: 'input x: [Str] = ["a", "1"]', want: { array: ['a', '1'] } },
  { decl: 'input x: (Int, Str) = (1, "b")', want: { array: ['1', 'b'] } },
  { decl: 'input x: { [Str]: Int } = { a: 1 }', want: { map: { a: '1' } } },
  { decl: 'input x: { host: Str, port: Int = 80 } = { host: "h" }', want: { map: { host: 'h', port: '80' } } },
  // A nested object as a map value is JSON text, which reads back as the object.
  { decl: 'input x: { [Str]: { a: Int } } = { k: { a: 1 } }', want: { map: { k: '{"a":1}' } } },
];
for (const c of cases) {
  test(`announced default of ${c.decl}`, () => {
    const [p] = announce(`${c.decl}\nexport { v: x }\n`);
    assert.deepEqual(
      Object.fromEntries(Object.entries(p!).filter(([k, v]) => k !== 'name' && v !== undefined)),
      c.want,
    );
  });
}

test('array items and map values follow the --set rule against their types', () => {
  const src = 'input t: (Int, Str)\ninput m: { n: Int, s: Str, .. }\nexport { t: t, m: m }\n';
  const argo = JSON.stringify([
    { name: 't', array: ['1', '1'] },
    { name: 'm', map: { n: '2', s: '2', extra: '3' } },
  ]);
  assert.equal(
    exportText(src, {}, { argocdParameters: argo }, { format: 'json' }),
    '{\n  "t": [\n    1,\n    "1"\n  ],\n  "m": {\n    "n": 2,\n    "s": "2",\n    "extra": "3"\n  }\n}\n',
  );
});
