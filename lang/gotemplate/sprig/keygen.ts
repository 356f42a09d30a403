/**
 * Private keys for Sprig's genPrivateKey and certificate functions, drawn
 * only from the render's random source (FuncContext.random, a generator
 * seeded from the render key), so a render is a function of its inputs:
 * RSA primes and DSA parameters are random candidates kept when OpenSSL's
 * primality test (node:crypto checkPrimeSync, error below 2^-128) passes;
 * ECDSA P-256 and Ed25519 private keys are random bytes. Key files are
 * written in Sprig's PEM shapes: "RSA PRIVATE KEY" (PKCS#1), "EC PRIVATE KEY"
 * (SEC 1), "DSA PRIVATE KEY" (OpenSSL's sequence of version, p, q, g, y, x)
 * and "PRIVATE KEY" (PKCS#8) for Ed25519.
 */

import { checkPrimeSync, createECDH, createPrivateKey, type KeyObject } from 'node:crypto';
import { randomBytes } from './random.js';
import { bigBytes, bytesToBig, children, int, readNode, seq } from './der.js';

export type Random = () => number;

export { randomBytes };

function modPow(base: bigint, exp: bigint, m: bigint): bigint {
  let result = 1n;
  let b = base % m;
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result;
}

export function modInverse(a: bigint, m: bigint): bigint {
  let [r0, r1] = [((a % m) + m) % m, m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new Error('not invertible');
  return ((s0 % m) + m) % m;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

// Built on the first key generated, not at load: ~10 ms of BigInt work that every
// one-shot render would otherwise pay for (docs/performance.md, start-up).
let smallPrimes: { primes: bigint[]; product: bigint } | undefined;
function smallPrimeTable(): { primes: bigint[]; product: bigint } {
  if (smallPrimes) return smallPrimes;
  const primes: bigint[] = [];
  for (let n = 3; n < 2000; n += 2) if (primes.every((p) => BigInt(n) % p !== 0n)) primes.push(BigInt(n));
  smallPrimes = { primes, product: primes.reduce((a, b) => a * b, 1n) };
  return smallPrimes;
}

/**
 * Trial division first (one big remainder, then small ones): it rules out
 * most candidates for a fraction of OpenSSL's test. Only skips work; which
 * candidate is kept does not change.
 */
function isPrime(n: bigint): boolean {
  const { primes, product } = smallPrimeTable();
  const r = n % product;
  for (const p of primes) if (r % p === 0n && n !== p) return false;
  return checkPrimeSync(n);
}

/** A prime of exactly `bits` bits with its two top bits set (so p·q has 2·bits bits). */
function rsaPrime(random: Random, bits: number, e: bigint): bigint {
  const bytes = bits / 8;
  for (;;) {
    const b = randomBytes(random, bytes);
    b[0]! |= 0xc0;
    b[bytes - 1]! |= 1;
    const p = bytesToBig(b);
    if ((p - 1n) % e !== 0n && isPrime(p)) return p;
  }
}

const b64url = (n: bigint): string => Buffer.from(bigBytes(n)).toString('base64url');

export function generateRsa(random: Random, bits: number): KeyObject {
  const e = 65537n;
  for (;;) {
    const p = rsaPrime(random, bits / 2, e);
    const q = rsaPrime(random, bits / 2, e);
    if (p === q) continue;
    const lambda = ((p - 1n) * (q - 1n)) / gcd(p - 1n, q - 1n);
    const d = modInverse(e, lambda);
    const jwk = {
      kty: 'RSA',
      n: b64url(p * q),
      e: b64url(e),
      d: b64url(d),
      p: b64url(p),
      q: b64url(q),
      dp: b64url(d % (p - 1n)),
      dq: b64url(d % (q - 1n)),
      qi: b64url(modInverse(q, p)),
    };
    return createPrivateKey({ key: jwk, format: 'jwk' });
  }
}

export const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/** x of k·G on P-256 (k in [1, n)), via OpenSSL's point multiplication. */
export function p256Multiply(k: bigint): { x: bigint; y: bigint } {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(bigBytes(k, 32)));
  const pub = ecdh.getPublicKey();
  return { x: bytesToBig(pub.subarray(1, 33)), y: bytesToBig(pub.subarray(33, 65)) };
}

/** A scalar in [1, n) from random bytes, as Go draws one (retry when out of range). */
function p256Scalar(random: Random): bigint {
  for (;;) {
    const d = bytesToBig(randomBytes(random, 32));
    if (d > 0n && d < P256_ORDER) return d;
  }
}

export function generateEcdsa(random: Random): KeyObject {
  const d = p256Scalar(random);
  const { x, y } = p256Multiply(d);
  const part = (n: bigint): string => Buffer.from(bigBytes(n, 32)).toString('base64url');
  return createPrivateKey({ key: { kty: 'EC', crv: 'P-256', d: part(d), x: part(x), y: part(y) }, format: 'jwk' });
}

const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function generateEd25519(random: Random): KeyObject {
  const seed = randomBytes(random, 32);
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export interface DsaKey {
  p: bigint;
  q: bigint;
  g: bigint;
  y: bigint;
  x: bigint;
}

/** FIPS 186-3 style L=2048, N=256 parameters and a key, in the order Go's crypto/dsa draws them. */
export function generateDsa(random: Random): DsaKey {
  const L = 2048;
  for (;;) {
    const qb = randomBytes(random, 32);
    qb[31]! |= 1;
    qb[0]! |= 0x80;
    const q = bytesToBig(qb);
    if (!isPrime(q)) continue;
    for (let i = 0; i < 4 * L; i++) {
      const pb = randomBytes(random, L / 8);
      pb[L / 8 - 1]! |= 1;
      pb[0]! |= 0x80;
      let p = bytesToBig(pb);
      p -= (p % q) - 1n;
      if (p.toString(2).length < L || !isPrime(p)) continue;
      const e = (p - 1n) / q;
      let g = 1n;
      for (let h = 2n; g === 1n; h++) g = modPow(h, e, p);
      let x = 0n;
      while (x === 0n || x >= q) x = bytesToBig(randomBytes(random, 32));
      return { p, q, g, y: modPow(g, x, p), x };
    }
  }
}

function dsaKeyDer(k: DsaKey): Uint8Array {
  return seq(int(0), int(k.p), int(k.q), int(k.g), int(k.y), int(k.x));
}

/** PEM as Go's pem.Encode writes it: 64-column base64 lines. */
export function pem(type: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  let body = '';
  for (let i = 0; i < b64.length; i += 64) body += b64.slice(i, i + 64) + '\n';
  return `-----BEGIN ${type}-----\n${body}-----END ${type}-----\n`;
}

/** A private key in the PEM block Sprig's pemBlockForKey writes for its type. */
export function keyPem(key: KeyObject | DsaKey): string {
  if (!('asymmetricKeyType' in key)) return pem('DSA PRIVATE KEY', dsaKeyDer(key as DsaKey));
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return pem('RSA PRIVATE KEY', key.export({ type: 'pkcs1', format: 'der' }));
    case 'ec':
      return pem('EC PRIVATE KEY', key.export({ type: 'sec1', format: 'der' }));
    default:
      return pem('PRIVATE KEY', key.export({ type: 'pkcs8', format: 'der' }));
  }
}

export interface PemBlock {
  type: string;
  der: Uint8Array;
}

/** The first PEM block of `text`, as Go's pem.Decode finds it; undefined when there is none. */
export function decodePem(text: string): PemBlock | undefined {
  const m = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/.exec(text);
  if (!m) return undefined;
  const body = m[2]!.replace(/^[A-Za-z-]+:.*\r?\n/gm, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) return undefined;
  return { type: m[1]!, der: new Uint8Array(Buffer.from(body, 'base64')) };
}

/** Sprig's parsePrivateKeyPEM: block type decides the format; its error texts. */
export function parsePrivateKeyPem(text: string): KeyObject | DsaKey {
  const block = decodePem(text);
  if (!block) throw new Error('no PEM data in input');
  const der = Buffer.from(block.der);
  const load = (type: 'pkcs1' | 'sec1' | 'pkcs8', what: string): KeyObject => {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch (e) {
      throw new Error(`${what}: ${(e as Error).message}`);
    }
  };
  if (block.type === 'PRIVATE KEY') return load('pkcs8', 'decoding PEM as PKCS#8');
  if (!block.type.endsWith(' PRIVATE KEY')) throw new Error(`no private key data in PEM block of type ${block.type}`);
  switch (block.type.slice(0, -12)) {
    case 'RSA':
      return load('pkcs1', 'parsing RSA private key from PEM');
    case 'EC':
      return load('sec1', 'parsing EC private key from PEM');
    case 'DSA':
      return parseDsa(block.der);
    default:
      throw new Error(`invalid private key type ${block.type}`);
  }
}

function parseDsa(der: Uint8Array): DsaKey {
  try {
    const root = readNode(der, 0);
    const kids = children(der, root);
    if (root.tag !== 0x30 || kids.length !== 6 || kids.some((k) => k.tag !== 0x02))
      throw new Error('structure error: not a DSA private key');
    const [, p, q, g, y, x] = kids.map((k) => bytesToBig(der.subarray(k.body, k.end)));
    return { p: p!, q: q!, g: g!, y: y!, x: x! };
  } catch (e) {
    throw new Error(`parsing DSA private key from PEM: asn1: ${(e as Error).message}`);
  }
}
