/**
 * Collects a large output text piece by piece. Pieces are appended with `+=`
 * to a current chunk; a chunk past CHUNK_CHARS is flattened and set aside, and
 * `text()` joins the chunks once. Invariant: text() is the concatenation of
 * every piece in order.
 *
 * Why (bench/jsonnet/kube-lib, 1 MiB of JSON): built with `+=` alone, the output
 * was a rope of 152,000 cons strings (4.9 MiB, all alive until the end, so
 * copied by every scavenge); as one array of parts joined at the end, the
 * parts array itself (1.2 MiB, re-allocated as it grew) raised the peak RSS
 * by 4 MiB. Flattened chunks keep only the chunks' characters alive.
 */

const CHUNK_CHARS = 8192;

export class TextSink {
  private chunk = '';
  private readonly chunks: string[] = [];

  write(piece: string): void {
    this.chunk += piece;
    if (this.chunk.length > CHUNK_CHARS) {
      // ToNumber reads a string as one flat sequence, so it flattens a cons string in
      // place (the trick of the flatstr package): the chunk's cons nodes die young.
      Number(this.chunk);
      this.chunks.push(this.chunk);
      this.chunk = '';
    }
  }

  text(): string {
    if (this.chunks.length === 0) return this.chunk;
    this.chunks.push(this.chunk);
    this.chunk = '';
    return this.chunks.join('');
  }
}
