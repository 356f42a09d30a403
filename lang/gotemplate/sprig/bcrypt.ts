/**
 * bcrypt ($2a$, as golang.org/x/crypto/bcrypt generates it) for Sprig's
 * `bcrypt` and `htpasswd`: EksBlowfish with the key's trailing NUL, 64
 * encryptions of "OrpheanBeholderScryDoubt", bcrypt's base64 alphabet. The
 * Blowfish initial state is the hex expansion of pi, computed once here
 * (Machin's formula in BigInt) instead of a constant table. The salt comes
 * from the caller (Sprig: the injected random source).
 */

const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

let piWords: Uint32Array | undefined;

/** The first n 32-bit words of pi's fractional hex digits (P-array then S-boxes). */
function piFraction(n: number): Uint32Array {
  if (piWords && piWords.length >= n) return piWords;
  const bits = BigInt(32 * n + 64);
  const one = 1n << bits;
  const arctanInv = (x: bigint): bigint => {
    let sum = 0n;
    let term = one / x;
    const x2 = x * x;
    for (let k = 0n; term !== 0n; k++) {
      sum += (k % 2n === 0n ? 1n : -1n) * (term / (2n * k + 1n));
      term /= x2;
    }
    return sum;
  };
  const pi = 16n * arctanInv(5n) - 4n * arctanInv(239n);
  const frac = pi - 3n * one;
  const words = new Uint32Array(n);
  for (let i = 0; i < n; i++) words[i] = Number((frac >> (bits - BigInt(32 * (i + 1)))) & 0xffffffffn);
  piWords = words;
  return words;
}

class Blowfish {
  readonly p: Uint32Array;
  readonly s: Uint32Array;
  constructor() {
    const init = piFraction(18 + 1024);
    this.p = init.slice(0, 18);
    this.s = init.slice(18, 18 + 1024);
  }

  private f(x: number): number {
    const s = this.s;
    return (
      (((s[x >>> 24]! + s[256 + ((x >>> 16) & 0xff)]!) ^ s[512 + ((x >>> 8) & 0xff)]!) + s[768 + (x & 0xff)]!) >>> 0
    );
  }

  encrypt(l: number, r: number): [number, number] {
    const p = this.p;
    for (let i = 0; i < 16; i += 2) {
      l = (l ^ p[i]!) >>> 0;
      r = (r ^ this.f(l)) >>> 0;
      r = (r ^ p[i + 1]!) >>> 0;
      l = (l ^ this.f(r)) >>> 0;
    }
    l = (l ^ p[16]!) >>> 0;
    r = (r ^ p[17]!) >>> 0;
    return [r, l];
  }

  /** ExpandKey(state, salt, key); an empty salt means the unsalted variant. */
  expand(key: Uint8Array, salt: Uint8Array | undefined): void {
    let kp = 0;
    const keyWord = (): number => {
      let w = 0;
      for (let i = 0; i < 4; i++) {
        w = ((w << 8) | key[kp]!) >>> 0;
        kp = (kp + 1) % key.length;
      }
      return w;
    };
    for (let i = 0; i < 18; i++) this.p[i] = (this.p[i]! ^ keyWord()) >>> 0;
    let sp = 0;
    const saltWord = (): number => {
      if (!salt) return 0;
      let w = 0;
      for (let i = 0; i < 4; i++) {
        w = ((w << 8) | salt[sp]!) >>> 0;
        sp = (sp + 1) % salt.length;
      }
      return w;
    };
    let l = 0;
    let r = 0;
    for (let i = 0; i < 18; i += 2) {
      l = (l ^ saltWord()) >>> 0;
      r = (r ^ saltWord()) >>> 0;
      [l, r] = this.encrypt(l, r);
      this.p[i] = l;
      this.p[i + 1] = r;
    }
    for (let i = 0; i < 1024; i += 2) {
      l = (l ^ saltWord()) >>> 0;
      r = (r ^ saltWord()) >>> 0;
      [l, r] = this.encrypt(l, r);
      this.s[i] = l;
      this.s[i + 1] = r;
    }
  }
}

/** bcrypt's base64 (no padding). */
function bcryptBase64(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const c1 = b[i]!;
    const c2 = b[i + 1];
    const c3 = b[i + 2];
    out += BCRYPT_ALPHABET[c1 >> 2];
    out += BCRYPT_ALPHABET[((c1 & 3) << 4) | ((c2 ?? 0) >> 4)];
    if (c2 === undefined) break;
    out += BCRYPT_ALPHABET[((c2 & 0x0f) << 2) | ((c3 ?? 0) >> 6)];
    if (c3 === undefined) break;
    out += BCRYPT_ALPHABET[c3 & 0x3f];
  }
  return out;
}

/** Decodes bcrypt's base64 (used for salts in tests and hashes). */
export function bcryptUnbase64(s: string, n: number): Uint8Array {
  const vals = Array.from(s, (c) => BCRYPT_ALPHABET.indexOf(c));
  const out: number[] = [];
  for (let i = 0; i < vals.length && out.length < n; i += 4) {
    const [a = 0, b = 0, c = 0, d = 0] = vals.slice(i, i + 4);
    out.push(((a << 2) | (b >> 4)) & 0xff);
    if (out.length < n) out.push(((b << 4) | (c >> 2)) & 0xff);
    if (out.length < n) out.push(((c << 6) | d) & 0xff);
  }
  return new Uint8Array(out);
}

/** The full "$2a$cost$salthash" string for a password, cost (4-31) and 16-byte salt. */
export function bcryptHash(password: Uint8Array, cost: number, salt: Uint8Array): string {
  if (password.length > 72) throw new Error('bcrypt: password length exceeds 72 bytes');
  const key = new Uint8Array(password.length + 1);
  key.set(password);
  const bf = new Blowfish();
  bf.expand(key, salt);
  const rounds = 2 ** cost;
  for (let i = 0; i < rounds; i++) {
    bf.expand(key, undefined);
    bf.expand(salt, undefined);
  }
  const magic = new TextEncoder().encode('OrpheanBeholderScryDoubt');
  const words: number[] = [];
  for (let i = 0; i < 24; i += 4)
    words.push(((magic[i]! << 24) | (magic[i + 1]! << 16) | (magic[i + 2]! << 8) | magic[i + 3]!) >>> 0);
  for (let k = 0; k < 64; k++) {
    for (let j = 0; j < 6; j += 2) [words[j], words[j + 1]] = bf.encrypt(words[j]!, words[j + 1]!);
  }
  const out = new Uint8Array(24);
  words.forEach((w, i) => new DataView(out.buffer).setUint32(4 * i, w));
  return `$2a$${String(cost).padStart(2, '0')}$${bcryptBase64(salt)}${bcryptBase64(out.subarray(0, 23))}`;
}
