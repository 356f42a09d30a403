/**
 * Sprig path functions (https://masterminds.github.io/sprig/paths.html):
 * Go's path package (base, dir, clean, ext, isAbs) and the os* variants,
 * which on the Linux hosts Helm runs on behave the same. Purely lexical.
 */

import { type FuncDef, pure } from '../function.js';

/** path.Clean. */
function clean(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const s = (rooted ? '/' : '') + out.join('/');
  return s === '' ? '.' : s;
}

/** path.Base. */
function base(p: string): string {
  if (p === '') return '.';
  const t = p.replace(/\/+$/, '');
  if (t === '') return '/';
  return t.slice(t.lastIndexOf('/') + 1);
}

/** path.Dir. */
function dir(p: string): string {
  return clean(p.slice(0, p.lastIndexOf('/') + 1));
}

/** path.Ext. */
function ext(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

const isAbs = (p: string) => p.startsWith('/');

export const pathFuncs: Record<string, FuncDef> = {
  base: pure(['string'], base),
  dir: pure(['string'], dir),
  clean: pure(['string'], clean),
  ext: pure(['string'], ext),
  isAbs: pure(['string'], isAbs),
  osBase: pure(['string'], base),
  osDir: pure(['string'], dir),
  osClean: pure(['string'], clean),
  osExt: pure(['string'], ext),
  osIsAbs: pure(['string'], isAbs),
};
