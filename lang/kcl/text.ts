/** How values turn into text: `str()`, interpolation, error messages. */
import { KDict, KFloat, KFunc, KModule, SchemaType, UNDEFINED, type Value } from './value.js';

/** KCL's float text: Python's repr (1.0, 0.1, 1e+20). */
export function floatText(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  if (Number.isInteger(v) && Math.abs(v) < 1e16) return v.toFixed(1);
  const s = String(v);
  if (/e/.test(s)) return s.replace(/e([+-])(\d)$/, 'e$10$2');
  return s;
}

function quoteRepr(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** `str(x)`: strings as they are, everything else as KCL prints it in a string. */
export function toStr(v: Value): string {
  return typeof v === 'string' ? v : repr(v);
}

export function repr(v: Value): string {
  if (v === null) return 'None';
  if (v === UNDEFINED) return 'Undefined';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return quoteRepr(v);
  if (v instanceof KFloat) return floatText(v.v);
  if (Array.isArray(v)) return `[${v.map(repr).join(', ')}]`;
  if (v instanceof KDict) {
    const parts: string[] = [];
    for (const [k, x] of v.map) if (x !== UNDEFINED) parts.push(`${quoteRepr(k)}: ${repr(x)}`);
    return `{${parts.join(', ')}}`;
  }
  if (v instanceof SchemaType) return `<schema ${v.name}>`;
  if (v instanceof KFunc) return `<function ${v.name}>`;
  if (v instanceof KModule) return `<module ${v.name}>`;
  return String(v);
}
