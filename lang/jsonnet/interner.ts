/**
 * Interns identifier and operator text straight from the source: the scanner
 * hashes the characters while it reads them, and an occurrence of a name
 * already seen returns the same string instead of slicing a new one. Each
 * slot also carries a small payload (the token kind: keywords are seeded as
 * such, so keyword recognition costs no Set lookup). One interner per scan:
 * its strings may be slices of that file's text, so a shared table would keep
 * old sources alive.
 *
 * Why: identifiers are the most frequent token with text (a third of the
 * tokens of the bench's generated API library); slicing each occurrence
 * allocated a string that the AST then kept, where one per name suffices, and
 * the evaluator compares the names it looks up. Not measured on its own: it
 * came with the typed-array scanner (see scanner.ts for that figure).
 */

/** The hash the scanner computes incrementally: h = h * 31 + code, 32-bit. */
export function hashStep(h: number, code: number): number {
  return (Math.imul(h, 31) + code) | 0;
}

export function hashString(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = hashStep(h, s.charCodeAt(i));
  return h;
}

export class Interner {
  private keys: (string | undefined)[];
  private hashes: Int32Array;
  private payloads: Int32Array;
  private mask: number;
  private size = 0;
  /** Set by `intern`: the payload of the slot found or created. */
  payload = 0;

  constructor(capacity = 512) {
    this.keys = new Array<string | undefined>(capacity).fill(undefined);
    this.hashes = new Int32Array(capacity);
    this.payloads = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /** Adds `s` with `payload` (used to seed keywords). */
  seed(s: string, payload: number): void {
    this.intern(s, 0, s.length, hashString(s), payload);
  }

  /**
   * The canonical string for src[start, end) whose hash is `hash`; sets
   * `this.payload` to its slot's payload (`fresh` for a new entry).
   */
  intern(src: string, start: number, end: number, hash: number, fresh: number): string {
    const len = end - start;
    let slot = hash & this.mask;
    for (;;) {
      const key = this.keys[slot];
      if (key === undefined) break;
      if (this.hashes[slot] === hash && key.length === len && sameText(key, src, start)) {
        this.payload = this.payloads[slot]!;
        return key;
      }
      slot = (slot + 1) & this.mask;
    }
    const s = src.slice(start, end);
    this.keys[slot] = s;
    this.hashes[slot] = hash;
    this.payloads[slot] = fresh;
    this.payload = fresh;
    if (++this.size * 2 > this.keys.length) this.grow();
    return s;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldHashes = this.hashes;
    const oldPayloads = this.payloads;
    const capacity = oldKeys.length * 2;
    this.keys = new Array<string | undefined>(capacity).fill(undefined);
    this.hashes = new Int32Array(capacity);
    this.payloads = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      const key = oldKeys[i];
      if (key === undefined) continue;
      let slot = oldHashes[i]! & this.mask;
      while (this.keys[slot] !== undefined) slot = (slot + 1) & this.mask;
      this.keys[slot] = key;
      this.hashes[slot] = oldHashes[i]!;
      this.payloads[slot] = oldPayloads[i]!;
    }
  }
}

function sameText(key: string, src: string, start: number): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== src.charCodeAt(start + i)) return false;
  return true;
}
