/**
 * kubecfg's value paths (`$`, `.field`, `["Go-quoted field"]`, `[index]`,
 * as render/path.ts writes them in provenance annotations) to path steps and
 * back. Parsing accepts exactly what formatting produces plus plain
 * `["..."]` with any Go string escape; anything else is a TracebackError
 * naming the offset. Invariant: formatValuePath(parseValuePath(p)) === p for
 * paths kubecfg wrote.
 */
import type { PathStep } from '../../lang/jsonnet/trace.js';
import { fieldAccessor, indexAccessor, ROOT_PATH } from '../path.js';
import { TracebackError } from './errors.js';

export function formatValuePath(steps: readonly PathStep[]): string {
  return ROOT_PATH + steps.map((s) => (typeof s === 'number' ? indexAccessor(s) : fieldAccessor(s))).join('');
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/** Reads a Go double-quoted string starting at `at` (the opening quote); returns the value and the end offset. */
function readGoString(path: string, at: number): [string, number] {
  let out = '';
  let i = at + 1;
  const bad = (why: string): never => {
    throw new TracebackError(`bad value path ${JSON.stringify(path)} at offset ${i}: ${why}`);
  };
  while (i < path.length) {
    const c = path[i]!;
    if (c === '"') return [out, i + 1];
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = path[i + 1];
    if (e === undefined) bad('unfinished escape');
    if (SIMPLE_ESCAPES[e!] !== undefined) {
      out += SIMPLE_ESCAPES[e!];
      i += 2;
      continue;
    }
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (width === 0) bad(`unknown escape \\${e}`);
    const hex = path.slice(i + 2, i + 2 + width);
    if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) bad('bad hex escape');
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) bad('escape beyond Unicode');
    out += String.fromCodePoint(code);
    i += 2 + width;
  }
  return bad('unterminated string');
}

export function parseValuePath(path: string): PathStep[] {
  if (!path.startsWith(ROOT_PATH))
    throw new TracebackError(`bad value path ${JSON.stringify(path)}: it must start with ${ROOT_PATH}`);
  const steps: PathStep[] = [];
  let i = ROOT_PATH.length;
  while (i < path.length) {
    const rest = path.slice(i);
    const field = /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    if (field) {
      steps.push(field[1]!);
      i += field[0].length;
      continue;
    }
    const index = /^\[(\d+)\]/.exec(rest);
    if (index) {
      steps.push(Number(index[1]));
      i += index[0].length;
      continue;
    }
    if (rest.startsWith('["')) {
      const [name, end] = readGoString(path, i + 1);
      if (path[end] !== ']')
        throw new TracebackError(`bad value path ${JSON.stringify(path)} at offset ${end}: expected ]`);
      steps.push(name);
      i = end + 1;
      continue;
    }
    throw new TracebackError(
      `bad value path ${JSON.stringify(path)} at offset ${i}: expected .field, ["field"] or [index]`,
    );
  }
  return steps;
}
