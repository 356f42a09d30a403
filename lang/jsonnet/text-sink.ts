/**
 * Collects a large output text piece by piece. Pieces are appended with `+=`
 * to a current chunk; a chunk past CHUNK_CHARS is set aside, and the result is
 * made once at the end: `text()` joins the chunks into one string, `bytes()`
 * answers the UTF-8 encoding of the same text. Invariant: the result is the
 * concatenation of every piece in order.
 *
 * Why (bench/jsonnet/kube-lib, 1 MiB of JSON): built with `+=` alone, the output
 * was a rope of 152,000 cons strings (4.9 MiB, all alive until the end, so
 * copied by every scavenge); as one array of parts joined at the end, the
 * parts array itself (1.2 MiB, re-allocated as it grew) raised the peak RSS
 * by 4 MiB. Flattened chunks keep only the chunks' characters alive.
 *
 * A sink made for bytes encodes each chunk as it is set aside into one growing
 * byte array, outside the JavaScript heap, so the chunk strings die young: kept
 * as strings, the chunks of kube-prometheus's output (7.3 MB of text, two bytes
 * a character in every chunk with a character past U+00FF, and a 14.6 MB
 * string once joined) were the largest thing the scavenger copied, twice each,
 * and the joined text was encoded to UTF-8 again by the stream that printed it
 * (docs/performance.md, "Cold one-shot, third round").
 */

const CHUNK_CHARS = 8192;

/** Initial room of a byte sink; it doubles as it fills. */
const INITIAL_BYTES = 64 * 1024;

export class TextSink {
  private chunk = '';
  private readonly chunks: string[] = [];
  private buf: Uint8Array | null;
  private used = 0;
  private readonly encoder: InstanceType<typeof TextEncoder> | null;

  constructor(asBytes = false) {
    this.buf = asBytes ? new Uint8Array(INITIAL_BYTES) : null;
    this.encoder = asBytes ? new TextEncoder() : null;
  }

  write(piece: string): void {
    this.chunk += piece;
    if (this.chunk.length > CHUNK_CHARS) this.setAside();
  }

  private setAside(): void {
    if (this.buf !== null) {
      const last = this.chunk.charCodeAt(this.chunk.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        // A pair's first half waits for its second, which the next piece may begin with.
        this.encode(this.chunk.slice(0, -1));
        this.chunk = this.chunk.slice(-1);
        return;
      }
      this.encode(this.chunk);
    } else {
      // ToNumber reads a string as one flat sequence, so it flattens a cons string in
      // place (the trick of the flatstr package): the chunk's cons nodes die young.
      Number(this.chunk);
      this.chunks.push(this.chunk);
    }
    this.chunk = '';
  }

  /** Appends the UTF-8 of `s` (at most 3 bytes per UTF-16 unit; a pair's 4 bytes are 2 per unit). */
  private encode(s: string): void {
    let buf = this.buf!;
    const need = this.used + 3 * s.length;
    if (need > buf.length) {
      let size = buf.length * 2;
      while (size < need) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(buf.subarray(0, this.used));
      this.buf = buf = grown;
    }
    this.used += this.encoder!.encodeInto(s, buf.subarray(this.used)).written;
  }

  text(): string {
    if (this.buf !== null) throw new Error('internal: text() of a byte sink');
    if (this.chunks.length === 0) return this.chunk;
    this.chunks.push(this.chunk);
    this.chunk = '';
    return this.chunks.join('');
  }

  /**
   * The UTF-8 bytes of the whole text, for a sink made with `asBytes` (an unpaired surrogate
   * becomes U+FFFD, as when a stream encodes the text). The array's buffer is at most an eighth
   * larger than the text (copied to size otherwise), so a receiver may keep or transfer it.
   */
  bytes(): Uint8Array {
    if (this.buf === null || this.encoder === null) throw new Error('internal: bytes() of a text sink');
    if (this.chunk !== '') this.encode(this.chunk);
    this.chunk = '';
    const buf = this.buf;
    const used = this.used;
    // Spent: a second call would answer an empty text rather than the same bytes twice.
    this.buf = new Uint8Array(0);
    this.used = 0;
    return buf.length - used > buf.length / 8 ? buf.slice(0, used) : buf.subarray(0, used);
  }
}
