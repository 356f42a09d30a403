/**
 * Go's time package as far as templates, KuboCD and remote flags use it:
 * reference-layout Format and Parse ("2006-01-02T15:04:05Z07:00"),
 * ParseDuration and Duration.String. Times are milliseconds since the epoch
 * plus a fixed zone (name and offset). "Local" is UTC here so output never
 * depends on the host; named IANA zones use the runtime's Intl data.
 */

export interface Zone {
  name: string;
  offset: number; // seconds east of UTC
}

export const UTC: Zone = { name: 'UTC', offset: 0 };

/** A time.Time: an instant and the zone it is shown in. */
export interface Time {
  /** Milliseconds since the Unix epoch. */
  readonly ms: number;
  readonly zone: Zone;
  /** Nanoseconds within the millisecond (0-999999), kept for %v fidelity. */
  readonly extraNs: number;
}

/** The zone for a name: UTC/Local/"" are UTC; others via Intl; undefined when unknown. */
export function loadZone(name: string, atMs: number): Zone | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return UTC;
  try {
    const fmt = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'shortOffset' });
    const off = fmt.formatToParts(new Date(atMs)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
    const m = /GMT([+-])(\d+)(?::(\d+))?/.exec(off);
    const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60) : 0;
    const short = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'short' })
      .formatToParts(new Date(atMs))
      .find((p) => p.type === 'timeZoneName')?.value;
    const abbr = short && !/^GMT/.test(short) ? short : offsetName(offset);
    return { name: abbr, offset };
  } catch {
    return undefined;
  }
}

function offsetName(offset: number): string {
  if (offset === 0) return 'UTC';
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  const h = Math.floor(a / 3600);
  const m = Math.floor((a % 3600) / 60);
  return sign + String(h).padStart(2, '0') + (m ? String(m).padStart(2, '0') : '');
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  min: number;
  sec: number;
  ns: number;
  weekday: number;
  yday: number;
}

export function parts(t: Time): Parts {
  const d = new Date(t.ms + t.zone.offset * 1000);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  const msInSec = ((t.ms % 1000) + 1000) % 1000;
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    min: d.getUTCMinutes(),
    sec: d.getUTCSeconds(),
    ns: msInSec * 1e6 + t.extraNs,
    weekday: d.getUTCDay(),
    yday: Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - start) / 86400000) + 1,
  };
}

const longMonths = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const longDays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Chunk = { std: string; frac?: number; fracNines?: boolean; sep?: string } | { lit: string };

/** Splits a Go layout into literal text and std chunks (Go's nextStdChunk). */
function chunks(layout: string): Chunk[] {
  const out: Chunk[] = [];
  let lit = '';
  const flush = () => {
    if (lit) out.push({ lit });
    lit = '';
  };
  const stds = [
    'January',
    'Jan',
    'Monday',
    'Mon',
    'MST',
    '2006',
    '-07:00:00',
    '-070000',
    '-07:00',
    '-0700',
    '-07',
    'Z07:00:00',
    'Z070000',
    'Z07:00',
    'Z0700',
    'Z07',
    '002',
    '__2',
    '_2',
    '01',
    '02',
    '03',
    '04',
    '05',
    '06',
    '15',
    'PM',
    'pm',
    '1',
    '2',
    '3',
    '4',
    '5',
  ];
  let i = 0;
  while (i < layout.length) {
    const c = layout[i]!;
    if ((c === '.' || c === ',') && (layout[i + 1] === '0' || layout[i + 1] === '9')) {
      const d = layout[i + 1]!;
      let j = i + 1;
      while (layout[j] === d) j++;
      if (!/[0-9]/.test(layout[j] ?? '')) {
        // Only a fraction after seconds in Go's rules; we accept it anywhere, as Go does for layouts like ".000".
        flush();
        out.push({ std: 'frac', frac: j - i - 1, fracNines: d === '9', sep: c });
        i = j;
        continue;
      }
    }
    const std = stds.find((s) => layout.startsWith(s, i));
    if (std) {
      // "Jan" must not be followed by a lower-case letter (e.g. "January" handled first; "Janet" is literal).
      if ((std === 'Jan' || std === 'Mon') && /[a-z]/.test(layout[i + 3] ?? '')) {
        lit += c;
        i++;
        continue;
      }
      if (std === '1' && layout[i + 1] === '5') {
        flush();
        out.push({ std: '15' });
        i += 2;
        continue;
      }
      flush();
      out.push({ std });
      i += std.length;
      continue;
    }
    lit += c;
    i++;
  }
  flush();
  return out;
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

function zoneOffset(offset: number, std: string): string {
  if (std.startsWith('Z') && offset === 0) return 'Z';
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  const h = pad(Math.floor(a / 3600), 2);
  const m = pad(Math.floor((a % 3600) / 60), 2);
  const s = pad(a % 60, 2);
  const base = std.replace(/^Z/, '-');
  switch (base) {
    case '-07':
      return sign + h;
    case '-0700':
      return sign + h + m;
    case '-07:00':
      return `${sign}${h}:${m}`;
    case '-070000':
      return sign + h + m + s;
    default:
      return `${sign}${h}:${m}:${s}`;
  }
}

/** time.Time.Format. */
export function formatTime(t: Time, layout: string): string {
  const p = parts(t);
  let out = '';
  for (const c of chunks(layout)) {
    if ('lit' in c) {
      out += c.lit;
      continue;
    }
    switch (c.std) {
      case 'January':
        out += longMonths[p.month - 1];
        break;
      case 'Jan':
        out += longMonths[p.month - 1]!.slice(0, 3);
        break;
      case 'Monday':
        out += longDays[p.weekday];
        break;
      case 'Mon':
        out += longDays[p.weekday]!.slice(0, 3);
        break;
      case 'MST':
        out += t.zone.name;
        break;
      case '2006':
        out += pad(p.year, 4);
        break;
      case '06':
        out += pad(p.year % 100, 2);
        break;
      case '01':
        out += pad(p.month, 2);
        break;
      case '1':
        out += p.month;
        break;
      case '02':
        out += pad(p.day, 2);
        break;
      case '2':
        out += p.day;
        break;
      case '_2':
        out += String(p.day).padStart(2, ' ');
        break;
      case '002':
        out += pad(p.yday, 3);
        break;
      case '__2':
        out += String(p.yday).padStart(3, ' ');
        break;
      case '15':
        out += pad(p.hour, 2);
        break;
      case '03':
        out += pad(p.hour % 12 === 0 ? 12 : p.hour % 12, 2);
        break;
      case '3':
        out += p.hour % 12 === 0 ? 12 : p.hour % 12;
        break;
      case '04':
        out += pad(p.min, 2);
        break;
      case '4':
        out += p.min;
        break;
      case '05':
        out += pad(p.sec, 2);
        break;
      case '5':
        out += p.sec;
        break;
      case 'PM':
        out += p.hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += p.hour >= 12 ? 'pm' : 'am';
        break;
      case 'frac': {
        let digits = pad(p.ns, 9).slice(0, c.frac);
        if (c.fracNines) {
          digits = digits.replace(/0+$/, '');
          if (digits) out += '.' + digits;
        } else out += c.sep + digits;
        break;
      }
      default:
        out += zoneOffset(t.zone.offset, c.std);
    }
  }
  return out;
}

/** time.ParseInLocation with a fixed default zone. Throws Go-style messages. */
export function parseTime(layout: string, value: string, loc: Zone = UTC): Time {
  let v = value;
  let year = 1;
  let month = 1;
  let day = 1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let ns = 0;
  let pm: boolean | undefined;
  let offset: number | undefined;
  const bad = (elem: string): never => {
    throw new Error(
      `parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(v)} as ${JSON.stringify(elem)}`,
    );
  };
  const num = (min: number, max: number, elem: string): number => {
    const m = new RegExp(`^\\d{${min},${max}}`).exec(v);
    if (!m) bad(elem);
    v = v.slice(m![0].length);
    return Number(m![0]);
  };
  for (const c of chunks(layout)) {
    if ('lit' in c) {
      if (!v.startsWith(c.lit)) bad(c.lit);
      v = v.slice(c.lit.length);
      continue;
    }
    switch (c.std) {
      case '2006':
        year = num(4, 4, c.std);
        break;
      case '06':
        year = num(2, 2, c.std);
        year += year >= 69 ? 1900 : 2000;
        break;
      case 'January':
      case 'Jan': {
        const names = c.std === 'January' ? longMonths : longMonths.map((m) => m.slice(0, 3));
        const i = names.findIndex((n) => v.toLowerCase().startsWith(n.toLowerCase()));
        if (i < 0) bad(c.std);
        month = i + 1;
        v = v.slice(names[i]!.length);
        break;
      }
      case 'Monday':
      case 'Mon': {
        const names = c.std === 'Monday' ? longDays : longDays.map((m) => m.slice(0, 3));
        const i = names.findIndex((n) => v.toLowerCase().startsWith(n.toLowerCase()));
        if (i < 0) bad(c.std);
        v = v.slice(names[i]!.length);
        break;
      }
      case '01':
        month = num(2, 2, c.std);
        break;
      case '1':
        month = num(1, 2, c.std);
        break;
      case '02':
        day = num(2, 2, c.std);
        break;
      case '_2':
        if (v.startsWith(' ')) v = v.slice(1);
        day = num(1, 2, c.std);
        break;
      case '2':
        day = num(1, 2, c.std);
        break;
      case '002':
      case '__2':
        num(1, 3, c.std);
        break;
      case '15':
        hour = num(1, 2, c.std);
        break;
      case '03':
      case '3':
        hour = num(c.std === '03' ? 2 : 1, 2, c.std);
        break;
      case '04':
      case '4':
        min = num(c.std === '04' ? 2 : 1, 2, c.std);
        break;
      case '05':
      case '5': {
        sec = num(c.std === '05' ? 2 : 1, 2, c.std);
        const f = /^[.,](\d+)/.exec(v);
        if (f) {
          ns = Number(f[1]!.slice(0, 9).padEnd(9, '0'));
          v = v.slice(f[0].length);
        }
        break;
      }
      case 'PM':
      case 'pm': {
        const s = v.slice(0, 2).toUpperCase();
        if (s !== 'AM' && s !== 'PM') bad(c.std);
        pm = s === 'PM';
        v = v.slice(2);
        break;
      }
      case 'frac': {
        const f = /^[.,](\d+)/.exec(v);
        if (f) {
          ns = Number(f[1]!.slice(0, 9).padEnd(9, '0'));
          v = v.slice(f[0].length);
        } else if (!c.fracNines) bad(c.std);
        break;
      }
      case 'MST': {
        const m = /^[A-Z]{3,5}|^[+-]\d{2,4}/.exec(v);
        if (!m) bad(c.std);
        if (m![0] === 'UTC' || m![0] === 'GMT') offset = offset ?? 0;
        v = v.slice(m![0].length);
        break;
      }
      default: {
        if (c.std.startsWith('Z') && v.startsWith('Z')) {
          offset = 0;
          v = v.slice(1);
          break;
        }
        const m = /^([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?/.exec(v);
        if (!m) bad(c.std);
        offset = (m![1] === '-' ? -1 : 1) * (Number(m![2]) * 3600 + Number(m![3] ?? 0) * 60 + Number(m![4] ?? 0));
        v = v.slice(m![0].length);
      }
    }
  }
  if (v !== '') throw new Error(`parsing time ${JSON.stringify(value)}: extra text: ${JSON.stringify(v)}`);
  if (pm !== undefined) {
    if (pm && hour < 12) hour += 12;
    if (!pm && hour === 12) hour = 0;
  }
  if (month < 1 || month > 12) throw new Error(`parsing time ${JSON.stringify(value)}: month out of range`);
  if (day < 1 || day > 31 || hour > 23 || min > 59 || sec > 59)
    throw new Error(`parsing time ${JSON.stringify(value)}: day out of range`);
  const zone = offset === undefined ? loc : offset === 0 ? UTC : { name: '', offset };
  const ms = Date.UTC(year, month - 1, day, hour, min, sec) - zone.offset * 1000 + Math.floor(ns / 1e6);
  return {
    ms,
    zone: zone.name === '' ? { name: offsetName(zone.offset), offset: zone.offset } : zone,
    extraNs: ns % 1e6,
  };
}

// ---- durations (nanoseconds as bigint) ----

const units: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  µs: 1000n,
  μs: 1000n,
  ms: 1000000n,
  s: 1000000000n,
  m: 60000000000n,
  h: 3600000000000n,
};

const MAX_INT64 = (1n << 63n) - 1n;

/**
 * time.ParseDuration's grammar with exact integer arithmetic (as Go does it):
 * nanoseconds, or undefined when the text is not a duration or overflows int64.
 */
export function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  const re = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/u;
  while (s !== '') {
    const m = re.exec(s);
    if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) return undefined;
    const unit = units[m[3]!]!;
    let ns = BigInt(m[1] || '0') * unit;
    if (m[2]) ns += (BigInt(m[2]) * unit) / 10n ** BigInt(m[2].length);
    total += ns;
    if (total > MAX_INT64 + (neg ? 1n : 0n)) return undefined;
    s = s.slice(m[0].length);
  }
  return neg ? -total : total;
}

/** time.ParseDuration → nanoseconds, throwing Go's error text. */
export function parseDuration(text: string): bigint {
  const ns = parseGoDuration(text);
  if (ns !== undefined) return ns;
  let s = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/u.exec(s);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) break;
    s = s.slice(m[0].length);
  }
  if (s !== '' && /^[\d.]+$/.test(s)) throw new Error(`time: missing unit in duration ${JSON.stringify(text)}`);
  const u = /^[\d.]*([^\d.]*)/.exec(s);
  if (s !== '' && u && u[1] && /^[\d.]/.test(s)) {
    throw new Error(
      `time: unknown unit ${JSON.stringify(u[1].replace(/\d.*$/, ''))} in duration ${JSON.stringify(text)}`,
    );
  }
  throw new Error(`time: invalid duration ${JSON.stringify(text)}`);
}

function fmtFrac(v: bigint, prec: number): [string, bigint] {
  let buf = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    print = print || digit !== 0n;
    if (print) buf = digit.toString() + buf;
    v /= 10n;
  }
  if (print) buf = '.' + buf;
  return [buf, v];
}

/** time.Duration.String. */
export function durationString(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < 1000000000n) {
    let prec: number;
    let unit: string;
    if (u < 1000n) return (neg ? '-' : '') + u.toString() + 'ns';
    if (u < 1000000n) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const [frac, rest] = fmtFrac(u, prec);
    out = rest.toString() + frac + unit;
  } else {
    const [frac, rest] = fmtFrac(u, 9);
    u = rest;
    out = (u % 60n).toString() + frac + 's';
    u /= 60n;
    if (u > 0n) {
      out = (u % 60n).toString() + 'm' + out;
      u /= 60n;
      if (u > 0n) out = u.toString() + 'h' + out;
    }
  }
  return (neg ? '-' : '') + out;
}
