import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../../common/source.js';
import { scanTokens } from '../scanner.js';
import type { FodderElement } from './fodder.js';
import { tokenFodders } from './fodder-lexer.js';

const el = (kind: FodderElement['kind'], blanks: number, indent: number, comment: string[]): FodderElement => ({
  kind,
  blanks,
  indent,
  comment,
});

/** Fodder before the last real token (the one before end of file), and the final fodder. */
function foddersOf(text: string): FodderElement[][] {
  return tokenFodders(scanTokens(new SourceFile('t', text)));
}

const cases: { name: string; text: string; token: number; want: FodderElement[] }[] = [
  { name: 'no fodder', text: '1 + 2', token: 2, want: [] },
  { name: 'newline with indent', text: '1 +\n    2', token: 2, want: [el('lineEnd', 0, 4, [])] },
  { name: 'blank lines', text: '1 +\n\n\n2', token: 2, want: [el('lineEnd', 2, 0, [])] },
  { name: 'line-end comment', text: '1 + // c\n  2', token: 2, want: [el('lineEnd', 0, 2, ['// c'])] },
  { name: 'trailing blanks trimmed', text: '1 + # c   \n2', token: 2, want: [el('lineEnd', 0, 0, ['# c'])] },
  {
    name: 'comment on its own line is a paragraph',
    text: '1 +\n  // c\n\n2',
    token: 2,
    want: [el('lineEnd', 0, 2, []), el('paragraph', 1, 0, ['// c'])],
  },
  { name: 'interstitial', text: '1 + /* c */ 2', token: 2, want: [el('interstitial', 0, 0, ['/* c */'])] },
  {
    name: 'multi-line comment lines lose the margin',
    text: '1 +\n  /* a\n     b\n  */\n2',
    token: 2,
    want: [el('lineEnd', 0, 2, []), el('paragraph', 0, 0, ['/* a', '   b', '*/'])],
  },
  { name: 'tabs count as 8', text: '1 +\n\t2', token: 2, want: [el('lineEnd', 0, 8, [])] },
  { name: 'whitespace before end of file dropped', text: '1\n\n\n', token: 1, want: [] },
  {
    name: 'comment before end of file kept',
    text: '1\n// end\n',
    token: 1,
    want: [el('lineEnd', 0, 0, []), el('paragraph', 0, 0, ['// end'])],
  },
];

for (const c of cases) {
  test(`tokenFodders: ${c.name}`, () => {
    assert.deepEqual(foddersOf(c.text)[c.token], c.want);
  });
}
