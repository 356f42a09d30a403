/**
 * The printer's output: UTF-16 code units appended to a growing typed array
 * and turned into one string at the end. Formatting a large file writes
 * hundreds of thousands of short pieces; collecting them as strings cost an
 * array slot per piece and a join that was a tenth of formatting time, and
 * `+=` ropes cost an object per piece. Code units are copied as they are, so
 * any string (even one with a lone surrogate) comes back unchanged.
 */

/** Code units per String.fromCharCode call when building the result. */
const CHUNK = 8192;

export class OutputBuffer {
  private units = new Uint16Array(1 << 16);
  private length = 0;

  private reserve(extra: number): void {
    const need = this.length + extra;
    if (need <= this.units.length) return;
    let size = this.units.length * 2;
    while (size < need) size *= 2;
    const bigger = new Uint16Array(size);
    bigger.set(this.units.subarray(0, this.length));
    this.units = bigger;
  }

  write(s: string): void {
    const n = s.length;
    this.reserve(n);
    const units = this.units;
    let p = this.length;
    for (let i = 0; i < n; i++) units[p++] = s.charCodeAt(i);
    this.length = p;
  }

  /** Writes one character given by its code unit. */
  writeCode(code: number): void {
    this.reserve(1);
    this.units[this.length++] = code;
  }

  /** Writes `count` copies of the code unit (spaces of an indent, newlines). */
  repeat(code: number, count: number): void {
    if (count <= 0) return;
    this.reserve(count);
    this.units.fill(code, this.length, this.length + count);
    this.length += count;
  }

  /** Code unit before the end, or -1 when nothing was written. */
  lastCode(): number {
    return this.length > 0 ? this.units[this.length - 1]! : -1;
  }

  /** Drops the last code unit (no-op when empty). */
  dropLast(): void {
    if (this.length > 0) this.length--;
  }

  text(): string {
    const units = this.units.subarray(0, this.length);
    // UTF-16 decoding is exact when no surrogate is present (it would replace
    // a lone one): nearly always, and it makes no garbage. A Uint16Array is in
    // the platform's byte order, so this needs a little-endian platform.
    if (!LITTLE_ENDIAN) return chunkedText(units);
    for (let i = 0; i < units.length; i++) {
      if ((units[i]! & 0xf800) === 0xd800) return chunkedText(units);
    }
    return utf16.decode(units);
  }
}

const utf16 = new TextDecoder('utf-16le');
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function chunkedText(units: Uint16Array): string {
  const parts: string[] = [];
  for (let i = 0; i < units.length; i += CHUNK) {
    const end = Math.min(units.length, i + CHUNK);
    parts.push(String.fromCharCode.apply(null, units.subarray(i, end) as unknown as number[]));
  }
  return parts.join('');
}
