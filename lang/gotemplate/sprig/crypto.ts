/**
 * Sprig hash functions (https://masterminds.github.io/sprig/crypto.html):
 * sha1sum, sha256sum, sha512sum (hex of the UTF-8 bytes) and adler32sum
 * (decimal); encryptAES/decryptAES as Sprig (AES-256-CBC, key = password bytes
 * zero-padded/truncated to 32, PKCS#7 padding, random IV prepended, base64),
 * with the IV drawn from the injected random source; derivePassword as the
 * Master Password algorithm Sprig uses (scrypt N=32768 r=8 p=2, HMAC-SHA256
 * seed, character templates); bcrypt/htpasswd at Go's default cost 10 with a
 * salt from the injected random source. Key and certificate generators:
 * certs.ts.
 */

import { createCipheriv, createDecipheriv, createHash, createHmac, scryptSync } from 'node:crypto';
import { type FuncContext, type FuncDef, def, pure } from '../function.js';
import { utf8Bytes } from '../value.js';
import { bcryptHash } from './bcrypt.js';
import { randomBytes } from './random.js';

function hash(alg: string): (s: string) => string {
  return (s) => createHash(alg).update(utf8Bytes(s)).digest('hex');
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const x of bytes) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function aesKey(password: string): Uint8Array {
  const key = new Uint8Array(32);
  key.set(utf8Bytes(password).subarray(0, 32));
  return key;
}

function encryptAES(ctx: FuncContext, password: string, plaintext: string): string {
  if (plaintext === '') return '';
  const content = utf8Bytes(plaintext);
  const pad = 16 - (content.length % 16);
  const padded = new Uint8Array(content.length + pad);
  padded.set(content);
  padded.fill(pad, content.length);
  const iv = randomBytes(() => ctx.random(), 16);
  const c = createCipheriv('aes-256-cbc', aesKey(password), iv).setAutoPadding(false);
  const body = Buffer.concat([c.update(padded), c.final()]);
  return Buffer.concat([iv, body]).toString('base64');
}

function decryptAES(password: string, crypt64: string): string {
  if (crypt64 === '') return '';
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(crypt64) || crypt64.length % 4 !== 0)
    throw new Error('illegal base64 data at input byte 0');
  const crypt = Buffer.from(crypt64, 'base64');
  if (crypt.length < 16) throw new Error('runtime error: slice bounds out of range');
  const body = crypt.subarray(16);
  if (body.length % 16 !== 0) throw new Error('crypto/cipher: input not full blocks');
  if (body.length === 0) throw new Error('runtime error: index out of range [-1]');
  const d = createDecipheriv('aes-256-cbc', aesKey(password), crypt.subarray(0, 16)).setAutoPadding(false);
  const out = Buffer.concat([d.update(body), d.final()]);
  const pad = out[out.length - 1]!;
  if (pad > out.length) throw new Error(`runtime error: slice bounds out of range [:${out.length - pad}]`);
  return new TextDecoder().decode(out.subarray(0, out.length - pad));
}

const MASTER_PASSWORD_SEED = 'com.lyndir.masterpassword';

const passwordTemplates: Record<string, string[]> = {
  maximum: ['anoxxxxxxxxxxxxxxxxx', 'axxxxxxxxxxxxxxxxxno'],
  long: [
    'CvcvnoCvcvCvcv',
    'CvcvCvcvnoCvcv',
    'CvcvCvcvCvcvno',
    'CvccnoCvcvCvcv',
    'CvccCvcvnoCvcv',
    'CvccCvcvCvcvno',
    'CvcvnoCvccCvcv',
    'CvcvCvccnoCvcv',
    'CvcvCvccCvcvno',
    'CvcvnoCvcvCvcc',
    'CvcvCvcvnoCvcc',
    'CvcvCvcvCvccno',
    'CvccnoCvccCvcv',
    'CvccCvccnoCvcv',
    'CvccCvccCvcvno',
    'CvcvnoCvccCvcc',
    'CvcvCvccnoCvcc',
    'CvcvCvccCvccno',
    'CvccnoCvcvCvcc',
    'CvccCvcvnoCvcc',
    'CvccCvcvCvccno',
  ],
  medium: ['CvcnoCvc', 'CvcCvcno'],
  short: ['Cvcn'],
  basic: ['aaanaaan', 'aannaaan', 'aaannaaa'],
  pin: ['nnnn'],
};

const templateCharacters: Record<string, string> = {
  V: 'AEIOU',
  C: 'BCDFGHJKLMNPQRSTVWXYZ',
  v: 'aeiou',
  c: 'bcdfghjklmnpqrstvwxyz',
  A: 'AEIOUBCDFGHJKLMNPQRSTVWXYZ',
  a: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz',
  n: '0123456789',
  o: "@&%?,=[]_:-+*$#!'^~;()/.",
  x: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()',
};

function uint32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n >>> 0);
  return b;
}

function derivePassword(counter: number, passwordType: string, password: string, user: string, site: string): string {
  const templates = Object.prototype.hasOwnProperty.call(passwordTemplates, passwordType)
    ? passwordTemplates[passwordType]!
    : undefined;
  if (!templates) return `cannot find password template ${passwordType}`;
  const seed = utf8Bytes(MASTER_PASSWORD_SEED);
  const userBytes = utf8Bytes(user);
  const siteBytes = utf8Bytes(site);
  const salt = Buffer.concat([seed, uint32(userBytes.length), userBytes]);
  const key = scryptSync(utf8Bytes(password), salt, 64, { N: 32768, r: 8, p: 2, maxmem: 64 * 1024 * 1024 });
  const mac = createHmac('sha256', key)
    .update(Buffer.concat([seed, uint32(siteBytes.length), siteBytes, uint32(counter)]))
    .digest();
  const template = templates[mac[0]! % templates.length]!;
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const chars = templateCharacters[template[i]!]!;
    out += chars[mac[i + 1]! % chars.length];
  }
  return out;
}

function bcrypt(ctx: FuncContext, input: string): string {
  const salt = randomBytes(() => ctx.random(), 16);
  try {
    return bcryptHash(utf8Bytes(input), 10, salt);
  } catch (e) {
    return `failed to encrypt string with bcrypt: ${(e as Error).message}`;
  }
}

export const cryptoFuncs: Record<string, FuncDef> = {
  bcrypt: def(['string'], bcrypt),
  htpasswd: def(['string', 'string'], (ctx, user: string, password: string) =>
    user.includes(':') ? `invalid username: ${user}` : `${user}:${bcrypt(ctx, password)}`,
  ),
  derivePassword: pure(['int', 'string', 'string', 'string', 'string'], derivePassword),
  encryptAES: def(['string', 'string'], encryptAES),
  decryptAES: pure(['string', 'string'], decryptAES),
  sha1sum: pure(['string'], hash('sha1')),
  sha256sum: pure(['string'], hash('sha256')),
  sha512sum: pure(['string'], hash('sha512')),
  adler32sum: pure(['string'], (s: string) => String(adler32(utf8Bytes(s)))),
};
