/**
 * Go's time.ParseDuration and Duration.String, for the `timeout` field of a
 * module (rendered text → metav1.Duration → canonical form such as "2m0s").
 * Nanoseconds are kept as a bigint so no precision is lost.
 */

const UNITS: Record<string, bigint> = {
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

/** Nanoseconds of a Go duration text, or undefined when it is not one. */
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
    const unit = UNITS[m[3]!]!;
    let ns = BigInt(m[1] || '0') * unit;
    if (m[2]) ns += (BigInt(m[2]) * unit) / 10n ** BigInt(m[2].length);
    total += ns;
    if (total > MAX_INT64 + (neg ? 1n : 0n)) return undefined;
    s = s.slice(m[0].length);
  }
  return neg ? -total : total;
}

function fraction(v: bigint, digits: number): string {
  let s = v.toString().padStart(digits, '0');
  s = s.replace(/0+$/, '');
  return s ? '.' + s : '';
}

/** Go's Duration.String. */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  const u = neg ? -ns : ns;
  let out: string;
  if (u < 1000000000n) {
    if (u < 1000n) out = `${u}ns`;
    else if (u < 1000000n) out = `${u / 1000n}${fraction(u % 1000n, 3)}µs`;
    else out = `${u / 1000000n}${fraction(u % 1000000n, 6)}ms`;
  } else {
    const secs = u / 1000000000n;
    const frac = fraction(u % 1000000000n, 9);
    const h = secs / 3600n;
    const m = (secs % 3600n) / 60n;
    const s = secs % 60n;
    out = h > 0n ? `${h}h${m}m${s}${frac}s` : m > 0n ? `${m}m${s}${frac}s` : `${s}${frac}s`;
  }
  return neg ? '-' + out : out;
}
