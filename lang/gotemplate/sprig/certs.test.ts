// Sprig's key and certificate functions, checked by OpenSSL (the shapes of Sprig's crypto.go:
// PEM block types, v3 extensions, validity from the injected clock) and for determinism.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TemplateSet, profiles, seededRandom } from '../index.js';

const JAN_2026 = Date.UTC(2026, 0, 1, 12, 30, 15, 700);

function render(src: string, seed = 1, data: unknown = {}): string {
  const set = new TemplateSet('t', { functions: profiles.helm, random: seededRandom(seed), clock: () => JAN_2026 });
  set.parse('t', src);
  return set.execute('t', data);
}

function renderError(src: string): string {
  try {
    render(src);
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail(`expected an error from ${src}`);
}

function withFiles<T>(files: Record<string, string>, f: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'sprig-certs-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const openssl = (args: string[]): string => execFileSync('openssl', args, { encoding: 'utf8', stdio: 'pipe' });
// A moment inside every validity window below (2026-01-02).
const AT_TIME = String(Date.UTC(2026, 0, 2) / 1000);

const CHAIN = `{{- $ca := genCA "my-ca" 365 -}}
{{- $c := genSignedCert "svc.example" (list "10.0.0.1" "fd00::1") (list "svc.example" "svc") 30 $ca -}}
{{ $ca.Cert }}@@{{ $ca.Key }}@@{{ $c.Cert }}@@{{ $c.Key }}`;

test('genCA and genSignedCert: a chain OpenSSL verifies, with the fields Sprig sets', () => {
  const out = render(CHAIN);
  const [caCert, caKey, cert, key] = out.split('@@') as [string, string, string, string];
  assert.match(caKey, /^-----BEGIN RSA PRIVATE KEY-----\n/);
  assert.match(key, /^-----BEGIN RSA PRIVATE KEY-----\n/);
  withFiles({ 'ca.pem': caCert, 'ca.key': caKey, 'c.pem': cert, 'c.key': key }, (dir) => {
    const p = (n: string): string => join(dir, n);
    assert.equal(
      openssl(['verify', '-attime', AT_TIME, '-CAfile', p('ca.pem'), p('c.pem')]).trim(),
      `${p('c.pem')}: OK`,
    );
    const ca = openssl(['x509', '-noout', '-text', '-in', p('ca.pem')]);
    assert.match(ca, /Version: 3 \(0x2\)/);
    assert.match(ca, /Signature Algorithm: sha256WithRSAEncryption/);
    assert.match(ca, /Issuer: CN = my-ca\n/);
    assert.match(ca, /Not Before: Jan {2}1 12:30:15 2026 GMT\n\s+Not After : Jan {2}1 12:30:15 2027 GMT/);
    assert.match(ca, /Public-Key: \(2048 bit\)/);
    assert.match(ca, /Key Usage: critical\n\s+Digital Signature, Key Encipherment, Certificate Sign\n/);
    assert.match(ca, /Extended Key Usage: \n\s+TLS Web Server Authentication, TLS Web Client Authentication\n/);
    assert.match(ca, /Basic Constraints: critical\n\s+CA:TRUE\n/);
    const skid = /Subject Key Identifier: \n\s+([0-9A-F:]+)\n/.exec(ca)?.[1];
    assert.ok(skid, ca);
    const leaf = openssl(['x509', '-noout', '-text', '-in', p('c.pem')]);
    assert.match(leaf, /Issuer: CN = my-ca\n[\s\S]*Subject: CN = svc.example\n/);
    assert.match(leaf, /Not After : Jan 31 12:30:15 2026 GMT/);
    assert.match(leaf, /Key Usage: critical\n\s+Digital Signature, Key Encipherment\n/);
    assert.match(leaf, /Basic Constraints: critical\n\s+CA:FALSE\n/);
    assert.match(leaf, new RegExp(`Authority Key Identifier: \\n\\s+(keyid:)?${skid}\\n`));
    assert.doesNotMatch(leaf, /Subject Key Identifier/);
    assert.match(
      leaf,
      /Subject Alternative Name: \n\s+DNS:svc.example, DNS:svc, IP Address:10.0.0.1, IP Address:FD00:0:0:0:0:0:0:1\n/i,
    );
    // The key in .Key is the one the certificate names.
    const mod = (args: string[]): string => openssl(args).trim();
    assert.equal(
      mod(['rsa', '-noout', '-modulus', '-in', p('c.key')]),
      mod(['x509', '-noout', '-modulus', '-in', p('c.pem')]),
    );
    // A 128-bit serial, as rand.Int(2^128).
    const serial = mod(['x509', '-noout', '-serial', '-in', p('c.pem')]).replace('serial=', '');
    assert.ok(serial.length <= 32 && serial.length >= 20, serial);
  });
});

test('certificates are a function of the render seed', () => {
  const a = render(CHAIN, 7);
  assert.equal(render(CHAIN, 7), a);
  const ec = '{{ $k := genPrivateKey "ecdsa" }}{{ $k }}{{ (genCAWithKey "e" 3 $k).Cert }}';
  assert.equal(render(ec, 3), render(ec, 3));
  assert.notEqual(render(ec, 3), render(ec, 4));
});

test('genPrivateKey: each type in the PEM block Sprig writes, a key OpenSSL reads', () => {
  const blocks: [string, string, RegExp][] = [
    ['ecdsa', 'EC PRIVATE KEY', /Private-Key: \(256 bit\)[\s\S]*NIST CURVE: P-256/],
    ['ed25519', 'PRIVATE KEY', /ED25519 Private-Key/],
    ['rsa', 'RSA PRIVATE KEY', /Private-Key: \(4096 bit, 2 primes\)/],
    ['', 'RSA PRIVATE KEY', /Private-Key: \(4096 bit, 2 primes\)/],
    ['dsa', 'DSA PRIVATE KEY', /Private-Key: \(2048 bit\)/],
  ];
  for (const [type, block, text] of blocks) {
    const key = render(`{{ genPrivateKey "${type}" }}`, 5);
    assert.match(
      key,
      new RegExp(
        `^-----BEGIN ${block}-----\\n(?:[A-Za-z0-9+/=]{64}\\n)*[A-Za-z0-9+/=]{1,64}\\n-----END ${block}-----\\n$`,
      ),
    );
    withFiles({ 'k.pem': key }, (dir) => {
      const tool = type === 'dsa' ? ['dsa'] : ['pkey'];
      assert.match(openssl([...tool, '-noout', '-text', '-in', join(dir, 'k.pem')]), text, type);
      if (type === 'rsa') openssl(['rsa', '-check', '-noout', '-in', join(dir, 'k.pem')]);
    });
  }
  assert.equal(render('{{ genPrivateKey "x25519" }}'), 'Unknown type x25519');
});

test('certificates with ECDSA and Ed25519 keys verify; a self-signed cert without subject has a critical SAN', () => {
  const src = `{{- $e := genPrivateKey "ecdsa" -}}{{- $ca := genCAWithKey "ec-ca" 10 $e -}}
{{- $ed := genPrivateKey "ed25519" -}}
{{ $ca.Cert }}@@{{ (genSignedCertWithKey "leaf" nil (list "x.example") 10 $ca $ed).Cert }}@@{{ (genSelfSignedCertWithKey "" (list "127.0.0.1") nil 10 $e).Cert }}`;
  const [ca, leaf, self] = render(src).split('@@') as [string, string, string];
  withFiles({ 'ca.pem': ca, 'leaf.pem': leaf, 'self.pem': self }, (dir) => {
    const p = (n: string): string => join(dir, n);
    assert.match(openssl(['verify', '-attime', AT_TIME, '-CAfile', p('ca.pem'), p('leaf.pem')]), /: OK/);
    assert.match(openssl(['x509', '-noout', '-text', '-in', p('ca.pem')]), /ecdsa-with-SHA256/);
    assert.match(openssl(['x509', '-noout', '-text', '-in', p('leaf.pem')]), /Public Key Algorithm: ED25519/);
    const s = openssl(['x509', '-noout', '-text', '-in', p('self.pem')]);
    assert.match(s, /Subject: \n|Subject:\s*\n/);
    assert.match(s, /Subject Alternative Name: critical\n\s+IP Address:127.0.0.1\n/);
    assert.match(s, /CA:FALSE/);
    assert.match(
      openssl(['verify', '-attime', AT_TIME, '-CAfile', p('self.pem'), '-partial_chain', p('self.pem')]),
      /: OK/,
    );
  });
});

test('buildCustomCert returns the decoded PEM; Sprig error texts', () => {
  const src = `{{ $k := genPrivateKey "ed25519" }}{{ $c := genSelfSignedCertWithKey "c" nil nil 1 $k }}{{ $b := buildCustomCert ($c.Cert | b64enc) ($k | b64enc) }}{{ eq $b.Cert $c.Cert }} {{ eq $b.Key $k }}`;
  assert.equal(render(src), 'true true');
  const errors: [string, RegExp][] = [
    ['{{ buildCustomCert "%%" "" }}', /error calling buildCustomCert: unable to decode base64 certificate/],
    ['{{ buildCustomCert "eA==" "" }}', /error calling buildCustomCert: unable to decode certificate/],
    ['{{ genCAWithKey "x" 1 "nope" }}', /parsing private key: no PEM data in input/],
    [
      '{{ genCAWithKey "x" 1 "-----BEGIN CERTIFICATE-----\\nAA==\\n-----END CERTIFICATE-----\\n" }}',
      /parsing private key: no private key data in PEM block of type CERTIFICATE/,
    ],
    ['{{ genCAWithKey "x" 1 (genPrivateKey "dsa") }}', /error calling genCAWithKey: error creating certificate: /],
    ['{{ genSelfSignedCertWithKey "x" (list "1.2.3") nil 1 (genPrivateKey "ecdsa") }}', /error parsing ip: 1.2.3/],
    [
      '{{ genSelfSignedCertWithKey "x" (list 5) nil 1 (genPrivateKey "ecdsa") }}',
      /error parsing ip: 5 is not a string/,
    ],
    ['{{ genSignedCert "x" nil nil 1 (dict "Cert" "a") }}', /expected sprig.certificate/],
  ];
  for (const [src2, want] of errors) assert.match(renderError(src2), want, src2);
});
