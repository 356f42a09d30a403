/**
 * Sprig date functions (https://masterminds.github.io/sprig/date.html) over
 * the injected clock: now, date, dateInZone, htmlDate, htmlDateInZone,
 * dateModify, toDate, unixEpoch, ago, duration, durationRound (and the
 * snake_case aliases). "Local" is UTC, so output never depends on the host's
 * zone; `now` prints without Go's monotonic-clock suffix (" m=+0.0001").
 */

import { type FuncContext, type FuncDef, def, pure } from '../function.js';
import { kindOf } from '../value.js';
import { GoTime, parseGoTime } from './gotime.js';
import { UTC, durationString, formatTime, loadZone, parseDuration } from '../../go/time.js';

/** Go's zero time, 0001-01-01T00:00:00Z. */
const GO_ZERO_TIME_MS = -62135596800000;

function now(ctx: FuncContext): GoTime {
  return new GoTime(ctx.now(), UTC);
}

/** Sprig's argument rule: time.Time, or int seconds; anything else means now. */
function toTime(ctx: FuncContext, date: unknown): GoTime {
  if (date instanceof GoTime) return date;
  if (kindOf(date) === 'int') return new GoTime(Number(date) * 1000, UTC);
  return now(ctx);
}

function formatDate(ctx: FuncContext, layout: string, date: unknown, zone: string): string {
  const t = toTime(ctx, date);
  const z = loadZone(zone, t.ms) ?? UTC;
  return formatTime(new GoTime(t.ms, z, t.extraNs), layout);
}

function asTime(v: unknown): GoTime {
  if (v instanceof GoTime) return v;
  throw new Error(`wrong type for value; expected time.Time; got ${kindOf(v)}`);
}

function dateModify(fmt: string, date: unknown): GoTime {
  const t = asTime(date);
  const ns = parseDuration(fmt);
  const total = BigInt(t.extraNs) + ns;
  const ms = t.ms + Number(total / 1000000n);
  let extra = Number(total % 1000000n);
  let adj = 0;
  if (extra < 0) {
    extra += 1000000;
    adj = -1;
  }
  return new GoTime(ms + adj, t.zone, extra);
}

function durationOf(ctx: FuncContext, v: unknown): bigint {
  if (typeof v === 'string') {
    try {
      return parseDuration(v);
    } catch {
      return 0n;
    }
  }
  if (kindOf(v) === 'int') return BigInt(v as number);
  if (v instanceof GoTime) return BigInt(ctx.now() - v.ms) * 1000000n;
  return 0n;
}

function durationRound(ctx: FuncContext, v: unknown): string {
  let u = durationOf(ctx, v);
  if (u < 0n) u = -u;
  const second = 1000000000n;
  const minute = 60n * second;
  const hour = 60n * minute;
  const day = 24n * hour;
  const month = 30n * day;
  const year = 365n * day;
  if (u > year) return `${u / year}y`;
  if (u > month) return `${u / month}mo`;
  if (u > day) return `${u / day}d`;
  if (u > hour) return `${u / hour}h`;
  if (u > minute) return `${u / minute}m`;
  if (u > second) return `${u / second}s`;
  return '0s';
}

function ago(ctx: FuncContext, v: unknown): string {
  const t = toTime(ctx, v);
  const ns = BigInt(ctx.now() - t.ms) * 1000000n - BigInt(t.extraNs);
  // Round to the nearest second, halves away from zero (time.Duration.Round).
  const s = 1000000000n;
  const q = ns / s;
  const r = ns % s;
  const rounded = (r >= s / 2n ? q + 1n : r <= -s / 2n ? q - 1n : q) * s;
  return durationString(rounded);
}

function toDate(fmt: string, s: string): GoTime {
  return parseGoTime(fmt, s, UTC);
}

export const dateFuncs: Record<string, FuncDef> = {
  now: def([], now),
  date: def(['string', 'any'], (ctx, f: string, d: unknown) => formatDate(ctx, f, d, 'Local')),
  dateInZone: def(['string', 'any', 'string'], formatDate),
  date_in_zone: def(['string', 'any', 'string'], formatDate),
  htmlDate: def(['any'], (ctx, d: unknown) => formatDate(ctx, '2006-01-02', d, 'Local')),
  htmlDateInZone: def(['any', 'string'], (ctx, d: unknown, z: string) => formatDate(ctx, '2006-01-02', d, z)),
  dateModify: pure(['string', 'any'], (f: string, d: unknown) => {
    try {
      return dateModify(f, d);
    } catch {
      return asTime(d);
    }
  }),
  date_modify: pure(['string', 'any'], (f: string, d: unknown) => {
    try {
      return dateModify(f, d);
    } catch {
      return asTime(d);
    }
  }),
  mustDateModify: pure(['string', 'any'], dateModify),
  must_date_modify: pure(['string', 'any'], dateModify),
  toDate: pure(['string', 'string'], (f: string, s: string) => {
    try {
      return toDate(f, s);
    } catch {
      return new GoTime(GO_ZERO_TIME_MS, UTC);
    }
  }),
  mustToDate: pure(['string', 'string'], toDate),
  unixEpoch: pure(['any'], (d: unknown) => String(asTime(d).unix())),
  ago: def(['any'], ago),
  duration: pure(['any'], (v: unknown) => {
    let n = 0n;
    if (typeof v === 'string') n = /^[+-]?\d+$/.test(v) ? BigInt(v) : 0n;
    else if (kindOf(v) === 'int') n = BigInt(v as number);
    return durationString(n * 1000000000n);
  }),
  durationRound: def(['any'], durationRound),
};
