/**
 * Sprig's random functions, driven only by the injected random source
 * (FuncContext.random), so a fixed seed gives fixed output: randAlphaNum,
 * randAlpha, randNumeric, randAscii, randBytes, shuffle, uuidv4.
 */

import { FuncError } from '../errors.js';
import { type FuncContext, type FuncDef, def } from '../function.js';

const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const NUM = '0123456789';

function pick(ctx: FuncContext, n: number, chars: string): string {
  if (n < 0) throw new Error('count must be non-negative');
  if (n > ctx.maxOutputBytes)
    throw new FuncError(`count ${n} exceeds the output limit of ${ctx.maxOutputBytes} bytes`, 'TPL_LIMIT');
  let out = '';
  for (let i = 0; i < n; i++) out += chars[Math.floor(ctx.random() * chars.length)];
  return out;
}

/** n bytes from a random source in [0, 1) (keys, salts and IVs draw through this too). */
export function randomBytes(random: () => number, n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(random() * 256);
  return b;
}

const bytes = (ctx: FuncContext, n: number): Uint8Array => randomBytes(() => ctx.random(), n);

let ascii = '';
for (let c = 32; c <= 126; c++) ascii += String.fromCharCode(c);

function uuidv4(ctx: FuncContext): string {
  const b = bytes(ctx, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const randomFuncs: Record<string, FuncDef> = {
  randAlphaNum: def(['int'], (ctx, n: number) => pick(ctx, n, ALPHA + NUM)),
  randAlpha: def(['int'], (ctx, n: number) => pick(ctx, n, ALPHA)),
  randNumeric: def(['int'], (ctx, n: number) => pick(ctx, n, NUM)),
  randAscii: def(['int'], (ctx, n: number) => pick(ctx, n, ascii)),
  randBytes: def(['int'], (ctx, n: number) => {
    if (n < 0) throw new Error('count must be non-negative');
    if (n > ctx.maxOutputBytes)
      throw new FuncError(`count ${n} exceeds the output limit of ${ctx.maxOutputBytes} bytes`, 'TPL_LIMIT');
    return Buffer.from(bytes(ctx, n)).toString('base64');
  }),
  shuffle: def(['string'], (ctx, s: string) => {
    const rs = Array.from(s);
    for (let i = rs.length - 1; i > 0; i--) {
      const j = Math.floor(ctx.random() * (i + 1));
      [rs[i], rs[j]] = [rs[j]!, rs[i]!];
    }
    return rs.join('');
  }),
  uuidv4: def([], (ctx) => uuidv4(ctx)),
};
