/**
 * Sprig's key and certificate functions (genPrivateKey, genCA, genCAWithKey,
 * genSelfSignedCert[WithKey], genSignedCert[WithKey], buildCustomCert) with
 * the certificates Go's x509.CreateCertificate makes from Sprig's template:
 * v3, a random 128-bit serial, subject CN only, validity now .. now+days
 * (the render's injected clock), key usage digitalSignature+keyEncipherment
 * (+certSign for a CA, critical), extended usage serverAuth+clientAuth,
 * basic constraints (critical, CA:TRUE for a CA), a SHA-1 subject key id on
 * CAs, the CA's key id as authority key id when issuer and subject differ,
 * then IP and DNS alternative names (critical when the subject is empty).
 * Signatures: SHA256-RSA (PKCS#1 v1.5) and Ed25519 are deterministic; ECDSA
 * uses RFC 6979's deterministic nonce. Randomness comes only from the
 * injected source (keygen.ts), so a render is a function of its inputs.
 */

import { createHash, createHmac, createPublicKey, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { type FuncContext, type FuncDef, def } from '../function.js';
import { GoObject } from '../value.js';
import * as der from './der.js';
import {
  type DsaKey,
  generateDsa,
  generateEcdsa,
  generateEd25519,
  generateRsa,
  keyPem,
  P256_ORDER,
  p256Multiply,
  parsePrivateKeyPem,
  pem,
  decodePem,
  randomBytes,
  modInverse,
} from './keygen.js';

/** Sprig's `certificate` struct: templates read .Cert and .Key. */
class SprigCertificate extends GoObject {
  constructor(
    readonly cert: string,
    readonly key: string,
  ) {
    super();
  }
  goType(): string {
    return 'sprig.certificate';
  }
  field(name: string): unknown {
    if (name === 'Cert') return this.cert;
    if (name === 'Key') return this.key;
    return undefined;
  }
  format(): string {
    return `{${this.cert} ${this.key}}`;
  }
  toJSONValue(): unknown {
    return { Cert: this.cert, Key: this.key };
  }
}

type PrivateKey = KeyObject | DsaKey;

const OID = {
  cn: '2.5.4.3',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  basicConstraints: '2.5.29.19',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ed25519: '1.3.101.112',
};

const DIGITAL_SIGNATURE = 1 << 0;
const KEY_ENCIPHERMENT = 1 << 2;
const CERT_SIGN = 1 << 5;

function isDsa(k: PrivateKey): k is DsaKey {
  return !('asymmetricKeyType' in k);
}

function rsa2048(ctx: FuncContext): KeyObject {
  return generateRsa(() => ctx.random(), 2048);
}

/** Go's marshalKeyUsage: bit i of the usage is bit i of the BIT STRING, trailing zeros dropped. */
function keyUsage(usage: number): der.Der {
  let byte = 0;
  for (let i = 0; i < 8; i++) if (usage & (1 << i)) byte |= 0x80 >> i;
  let bits = 8;
  while (bits > 0 && !(byte & (0x80 >> (bits - 1)))) bits--;
  return der.bitString(Uint8Array.of(byte), 8 - bits);
}

function extension(id: string, critical: boolean, value: der.Der): der.Der {
  return critical ? der.seq(der.oid(id), der.bool(true), der.octets(value)) : der.seq(der.oid(id), der.octets(value));
}

function name(cn: string): der.Der {
  if (cn === '') return der.seq();
  return der.seq(der.set(der.seq(der.oid(OID.cn), der.goString(cn))));
}

/** Go's net.ParseIP, as 4 bytes for IPv4 (how x509 writes it); undefined when invalid. */
function parseIp(s: string): Uint8Array | undefined {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((p, i) => p > 255 || (v4[i + 1]!.length > 1 && v4[i + 1]![0] === '0'))) return undefined;
    return Uint8Array.from(parts);
  }
  if (!s.includes(':') || s.includes('%')) return undefined;
  try {
    const host = new URL(`http://[${s}]/`).hostname.slice(1, -1);
    const [head, tail] = host.includes('::') ? host.split('::') : [host, undefined];
    const words = (x: string | undefined): number[] => (x ? x.split(':').map((w) => parseInt(w, 16)) : []);
    const a = words(head);
    const b = words(tail);
    const all = tail === undefined ? a : [...a, ...new Array<number>(8 - a.length - b.length).fill(0), ...b];
    if (all.length !== 8) return undefined;
    const out = new Uint8Array(16);
    all.forEach((w, i) => {
      out[2 * i] = w >> 8;
      out[2 * i + 1] = w & 0xff;
    });
    // An IPv4-mapped address is IPv4 to Go (To4 succeeds).
    if (out.subarray(0, 10).every((x) => x === 0) && out[10] === 0xff && out[11] === 0xff) return out.slice(12);
    return out;
  } catch {
    return undefined;
  }
}

interface Template {
  serial: bigint;
  subject: der.Der;
  notBefore: number;
  notAfter: number;
  usage: number;
  isCA: boolean;
  ips: Uint8Array[];
  dns: string[];
}

function goValueText(v: unknown): string {
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
}

function baseTemplate(
  ctx: FuncContext,
  cn: string,
  ips: unknown[] | null,
  dns: unknown[] | null,
  days: number,
): Template {
  const ipBytes = (ips ?? []).map((ip) => {
    if (typeof ip !== 'string') throw new Error(`error parsing ip: ${goValueText(ip)} is not a string`);
    const b = parseIp(ip);
    if (!b) throw new Error(`error parsing ip: ${ip}`);
    return b;
  });
  const names = (dns ?? []).map((d) => {
    if (typeof d !== 'string')
      throw new Error(`error processing alternate dns name: ${goValueText(d)} is not a string`);
    return d;
  });
  const serial = der.bytesToBig(randomBytes(() => ctx.random(), 16));
  const now = ctx.now();
  return {
    serial,
    subject: name(cn),
    notBefore: now,
    notAfter: now + days * 24 * 3600 * 1000,
    usage: DIGITAL_SIGNATURE | KEY_ENCIPHERMENT,
    isCA: false,
    ips: ipBytes,
    dns: names,
  };
}

function publicKeyInfo(key: PrivateKey): der.Der {
  if (isDsa(key)) throw new Error('x509: unsupported public key type: *dsa.PublicKey');
  return new Uint8Array(createPublicKey(key).export({ type: 'spki', format: 'der' }));
}

/** The BIT STRING contents of a SubjectPublicKeyInfo (what Go hashes for the key id). */
function publicKeyBits(spki: Uint8Array): Uint8Array {
  const [, bits] = der.children(spki, der.readNode(spki, 0));
  return spki.subarray(bits!.body + 1, bits!.end);
}

function signatureAlgorithm(key: KeyObject): der.Der {
  if (key.asymmetricKeyType === 'rsa') return der.seq(der.oid(OID.sha256WithRSA), der.NULL);
  if (key.asymmetricKeyType === 'ec') return der.seq(der.oid(OID.ecdsaWithSHA256));
  if (key.asymmetricKeyType === 'ed25519') return der.seq(der.oid(OID.ed25519));
  throw new Error(`x509: only RSA, ECDSA and Ed25519 keys supported`);
}

/** RFC 6979 nonce for P-256 with SHA-256. */
function rfc6979(d: bigint, digest: Uint8Array): bigint {
  const x = der.bigBytes(d, 32);
  const h = der.bigBytes(der.bytesToBig(digest) % P256_ORDER, 32);
  let v: Uint8Array = new Uint8Array(32).fill(1);
  let k: Uint8Array = new Uint8Array(32);
  const mac = (key: Uint8Array, ...parts: Uint8Array[]): Uint8Array =>
    new Uint8Array(createHmac('sha256', key).update(der.concat(parts)).digest());
  k = mac(k, v, Uint8Array.of(0), x, h);
  v = mac(k, v);
  k = mac(k, v, Uint8Array.of(1), x, h);
  v = mac(k, v);
  for (;;) {
    v = mac(k, v);
    const candidate = der.bytesToBig(v);
    if (candidate > 0n && candidate < P256_ORDER) return candidate;
    k = mac(k, v, Uint8Array.of(0));
    v = mac(k, v);
  }
}

function ecdsaSign(key: KeyObject, data: Uint8Array): Uint8Array {
  const jwk = key.export({ format: 'jwk' });
  const d = der.bytesToBig(Buffer.from(jwk.d!, 'base64url'));
  const digest = createHash('sha256').update(data).digest();
  const e = der.bytesToBig(digest);
  const k = rfc6979(d, digest);
  const r = p256Multiply(k).x % P256_ORDER;
  const s = (modInverse(k, P256_ORDER) * (e + r * d)) % P256_ORDER;
  return der.seq(der.int(r), der.int(s));
}

function signWith(key: KeyObject, data: Uint8Array): Uint8Array {
  if (key.asymmetricKeyType === 'rsa') return new Uint8Array(sign('sha256', data, key));
  if (key.asymmetricKeyType === 'ec') return ecdsaSign(key, data);
  return new Uint8Array(sign(null, data, key));
}

interface Issuer {
  subject: der.Der;
  keyId?: Uint8Array;
  key: PrivateKey;
}

function certAndKey(t: Template, signee: PrivateKey, issuer: Issuer | undefined): SprigCertificate {
  try {
    return createCertificate(t, signee, issuer);
  } catch (e) {
    throw new Error(`error creating certificate: ${(e as Error).message}`);
  }
}

function createCertificate(t: Template, signee: PrivateKey, issuer: Issuer | undefined): SprigCertificate {
  const spki = publicKeyInfo(signee);
  const signer = issuer?.key ?? signee;
  if (isDsa(signer)) throw new Error('x509: certificate private key does not implement crypto.Signer');
  const issuerName = issuer?.subject ?? t.subject;
  const exts: der.Der[] = [extension(OID.keyUsage, true, keyUsage(t.usage))];
  exts.push(extension(OID.extKeyUsage, false, der.seq(der.oid(OID.serverAuth), der.oid(OID.clientAuth))));
  exts.push(extension(OID.basicConstraints, true, t.isCA ? der.seq(der.bool(true)) : der.seq()));
  if (t.isCA) {
    const id = createHash('sha1').update(publicKeyBits(spki)).digest();
    exts.push(extension(OID.subjectKeyId, false, der.octets(id)));
  }
  const sameName = Buffer.from(issuerName).equals(Buffer.from(t.subject));
  if (!sameName && issuer?.keyId?.length)
    exts.push(extension(OID.authorityKeyId, false, der.seq(der.tlv(0x80, issuer.keyId))));
  if (t.dns.length > 0 || t.ips.length > 0) {
    const sans = [
      ...t.dns.map((d) => der.tlv(0x82, new TextEncoder().encode(d))),
      ...t.ips.map((ip) => der.tlv(0x87, ip)),
    ];
    exts.push(extension(OID.subjectAltName, t.subject.length === 2, der.seq(...sans)));
  }
  const alg = signatureAlgorithm(signer);
  const tbs = der.seq(
    der.explicit(0, der.int(2)),
    der.int(t.serial),
    alg,
    issuerName,
    der.seq(der.time(t.notBefore), der.time(t.notAfter)),
    t.subject,
    spki,
    der.explicit(3, der.seq(...exts)),
  );
  const cert = der.seq(tbs, alg, der.bitString(signWith(signer, tbs)));
  return new SprigCertificate(pem('CERTIFICATE', cert), keyPem(signee));
}

/** The parts of a CA certificate a signed certificate needs: its subject and key id. */
function readIssuer(certPem: string): { subject: der.Der; keyId?: Uint8Array } {
  const block = decodePem(certPem);
  if (!block) throw new Error('unable to decode certificate');
  const buf = block.der;
  try {
    new X509Certificate(Buffer.from(buf));
    const tbs = der.children(buf, der.readNode(buf, 0))[0]!;
    const fields = der.children(buf, tbs);
    const at = fields[0]!.tag === 0xa0 ? 1 : 0;
    const subject = buf.slice(fields[at + 4]!.start, fields[at + 4]!.end);
    let keyId: Uint8Array | undefined;
    const extsNode = fields.find((f) => f.tag === 0xa3);
    if (extsNode) {
      for (const ext of der.children(buf, der.children(buf, extsNode)[0]!)) {
        const parts = der.children(buf, ext);
        const id = Buffer.from(buf.subarray(parts[0]!.start, parts[0]!.end));
        if (!id.equals(Buffer.from(der.oid(OID.subjectKeyId)))) continue;
        const value = parts[parts.length - 1]!;
        const inner = der.readNode(buf, value.body, value.end);
        keyId = buf.slice(inner.body, inner.end);
      }
    }
    return { subject, keyId };
  } catch (e) {
    throw new Error(`error parsing certificate: decodedSignerCert.Bytes: ${(e as Error).message}`);
  }
}

function withKeyPem(privPem: string): PrivateKey {
  try {
    return parsePrivateKeyPem(privPem);
  } catch (e) {
    throw new Error(`parsing private key: ${(e as Error).message}`);
  }
}

function genCA(ctx: FuncContext, cn: string, days: number, key: PrivateKey): SprigCertificate {
  const t = baseTemplate(ctx, cn, null, null, days);
  t.usage = KEY_ENCIPHERMENT | DIGITAL_SIGNATURE | CERT_SIGN;
  t.isCA = true;
  return certAndKey(t, key, undefined);
}

function caArg(v: unknown): SprigCertificate {
  if (v instanceof SprigCertificate) return v;
  const got = v instanceof GoObject ? v.goType() : v === null ? 'interface {}' : typeof v;
  throw new Error(`wrong type for value; expected sprig.certificate; got ${got}`);
}

function signed(
  ctx: FuncContext,
  cn: string,
  ips: unknown[] | null,
  dns: unknown[] | null,
  days: number,
  ca: unknown,
  key: () => PrivateKey,
): SprigCertificate {
  const authority = caArg(ca);
  const issuer = readIssuer(authority.cert);
  let signerKey: PrivateKey;
  try {
    signerKey = parsePrivateKeyPem(authority.key);
  } catch (e) {
    throw new Error(`error parsing private key: ${(e as Error).message}`);
  }
  const t = baseTemplate(ctx, cn, ips, dns, days);
  return certAndKey(t, key(), { ...issuer, key: signerKey });
}

function buildCustomCert(b64cert: string, b64key: string): SprigCertificate {
  const decode = (s: string, what: string): string => {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) throw new Error(`unable to decode base64 ${what}`);
    return Buffer.from(s, 'base64').toString('latin1');
  };
  const cert = decode(b64cert, 'certificate');
  const key = decode(b64key, 'private key');
  const block = decodePem(cert);
  if (!block) throw new Error('unable to decode certificate');
  try {
    new X509Certificate(Buffer.from(block.der));
  } catch (e) {
    throw new Error(`error parsing certificate: decodedCert.Bytes: ${(e as Error).message}`);
  }
  try {
    parsePrivateKeyPem(key);
  } catch (e) {
    throw new Error(`error parsing private key: ${(e as Error).message}`);
  }
  const utf8 = (s: string): string => Buffer.from(s, 'latin1').toString('utf8');
  return new SprigCertificate(utf8(cert), utf8(key));
}

function genPrivateKey(ctx: FuncContext, type: string): string {
  const random = (): number => ctx.random();
  switch (type) {
    case '':
    case 'rsa':
      return keyPem(generateRsa(random, 4096));
    case 'dsa':
      return keyPem(generateDsa(random));
    case 'ecdsa':
      return keyPem(generateEcdsa(random));
    case 'ed25519':
      return keyPem(generateEd25519(random));
    default:
      return `Unknown type ${type}`;
  }
}

export const certFuncs: Record<string, FuncDef> = {
  genPrivateKey: def(['string'], genPrivateKey),
  genCA: def(['string', 'int'], (ctx, cn: string, days: number) => genCA(ctx, cn, days, rsa2048(ctx))),
  genCAWithKey: def(['string', 'int', 'string'], (ctx, cn: string, days: number, key: string) =>
    genCA(ctx, cn, days, withKeyPem(key)),
  ),
  genSelfSignedCert: def(['string', 'slice', 'slice', 'int'], (ctx, cn, ips, dns, days) =>
    certAndKey(baseTemplate(ctx, cn, ips, dns, days), rsa2048(ctx), undefined),
  ),
  genSelfSignedCertWithKey: def(['string', 'slice', 'slice', 'int', 'string'], (ctx, cn, ips, dns, days, key) =>
    certAndKey(baseTemplate(ctx, cn, ips, dns, days), withKeyPem(key), undefined),
  ),
  genSignedCert: def(['string', 'slice', 'slice', 'int', 'any'], (ctx, cn, ips, dns, days, ca) =>
    signed(ctx, cn, ips, dns, days, ca, () => rsa2048(ctx)),
  ),
  genSignedCertWithKey: def(['string', 'slice', 'slice', 'int', 'any', 'string'], (ctx, cn, ips, dns, days, ca, key) =>
    signed(ctx, cn, ips, dns, days, ca, () => withKeyPem(key)),
  ),
  buildCustomCert: def(['string', 'string'], (_ctx, c: string, k: string) => buildCustomCert(c, k)),
};
