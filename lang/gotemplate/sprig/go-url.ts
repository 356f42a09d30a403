/**
 * A URL split the way Go's net/url.Parse splits it, with the same
 * rejections (so Sprig's urlParse fails where Go's fails): a leading ':'
 * (missing scheme), control characters, a colon in the first segment of a
 * relative path, a bad port, a '[' host without ']' or that is not an IPv6
 * address, characters a host may not hold, and bad percent-escapes in host, userinfo, path or fragment.
 * Errors carry Go's text: `parse "URL": why`.
 */

import { quote as goQuote } from '../../go/strconv.js';

export interface GoURL {
  scheme: string;
  opaque: string;
  /** Userinfo as url.Userinfo.String() writes it, '' when absent. */
  userinfo: string;
  host: string;
  path: string;
  rawQuery: string;
  fragment: string;
}

class GoURLError extends Error {}

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'fragment';

const utf8 = new TextDecoder();

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9A-Fa-f]$/.test(c);
}

/** RFC 3986 reserved/unreserved sets as net/url applies them per URL part. */
function shouldEscape(ch: string, mode: Mode): boolean {
  const c = ch.charCodeAt(0);
  if (isAlnum(c)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    if (mode === 'path') return ch === '?';
    if (mode === 'userPassword') return '@/?:'.includes(ch);
    if (mode === 'fragment') return false;
  }
  if (mode === 'fragment' && '!()*'.includes(ch)) return false;
  return true;
}

function unescape(s: string, mode: Mode): string {
  const bytes: number[] = [];
  const raw = Buffer.from(s, 'utf8');
  for (let i = 0; i < raw.length;) {
    const ch = String.fromCharCode(raw[i]!);
    if (ch === '%') {
      const hex = String.fromCharCode(...raw.subarray(i + 1, i + 3));
      if (i + 2 >= raw.length || !isHex(hex[0]) || !isHex(hex[1]))
        throw new GoURLError(`invalid URL escape ${goQuote(utf8.decode(raw.subarray(i, i + 3)))}`);
      const v = parseInt(hex, 16);
      // A host may %-encode only non-ASCII bytes; a zone also a space (RFC 6874).
      if (mode === 'host' && v < 0x80 && hex !== '25') throw new GoURLError(`invalid URL escape ${goQuote('%' + hex)}`);
      if (mode === 'zone' && hex !== '25' && v !== 0x20 && v < 0x80 && shouldEscape(String.fromCharCode(v), 'host'))
        throw new GoURLError(`invalid URL escape ${goQuote('%' + hex)}`);
      bytes.push(v);
      i += 3;
      continue;
    }
    if ((mode === 'host' || mode === 'zone') && raw[i]! < 0x80 && shouldEscape(ch, mode))
      throw new GoURLError(`invalid character ${goQuote(ch)} in host name`);
    bytes.push(raw[i]!);
    i++;
  }
  return utf8.decode(Uint8Array.from(bytes));
}

function escape(s: string, mode: Mode): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(b);
    out += b < 0x80 && !shouldEscape(ch, mode) ? ch : '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

/** What netip.ParseAddr accepts, as 'v4', 'v6' or undefined (zone allowed on IPv6 only). */
function ipKind(text: string): 'v4' | 'v6' | undefined {
  const v4 = (t: string): boolean =>
    /^(0|[1-9][0-9]{0,2})(\.(0|[1-9][0-9]{0,2})){3}$/.test(t) && t.split('.').every((o) => Number(o) <= 255);
  if (v4(text)) return 'v4';
  const percent = text.indexOf('%');
  if (percent === 0 || percent === text.length - 1) return undefined;
  const addr = percent >= 0 ? text.slice(0, percent) : text;
  const halves = addr.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string, last: boolean): number | undefined => {
    if (part === '') return 0;
    const fields = part.split(':');
    let n = 0;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      if (last && i === fields.length - 1 && f.includes('.')) {
        if (!v4(f)) return undefined;
        n += 2;
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(f)) n++;
      else return undefined;
    }
    return n;
  };
  if (halves.length === 1) return groups(addr, true) === 8 ? 'v6' : undefined;
  const head = groups(halves[0]!, false);
  const tail = groups(halves[1]!, true);
  return head !== undefined && tail !== undefined && head + tail < 8 ? 'v6' : undefined;
}

function parseHost(host: string): string {
  const open = host.lastIndexOf('[');
  if (open > 0) throw new GoURLError('invalid IP-literal');
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new GoURLError("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new GoURLError(`invalid port ${goQuote(colonPort)} after host`);
    const inner = host.slice(1, close);
    const zone = inner.indexOf('%25');
    const name =
      zone >= 0
        ? unescape(inner.slice(0, zone), 'host') + unescape(inner.slice(zone), 'zone')
        : unescape(inner, 'host');
    // Only an IPv6 address may stand in brackets (Go since the CVE-2025-47912 fix).
    const kind = ipKind(name);
    if (kind === undefined) throw new GoURLError(`invalid host: ParseAddr(${goQuote(name)}): not an IP address`);
    if (kind === 'v4') throw new GoURLError('invalid IP-literal');
    return `[${name}]${unescape(colonPort, 'host')}`;
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !validOptionalPort(host.slice(colon)))
    throw new GoURLError(`invalid port ${goQuote(host.slice(colon))} after host`);
  return unescape(host, 'host');
}

const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function parseAuthority(authority: string): { host: string; userinfo: string } {
  const at = authority.lastIndexOf('@');
  const host = parseHost(authority.slice(at + 1));
  if (at < 0) return { host, userinfo: '' };
  const info = authority.slice(0, at);
  if (!USERINFO.test(info)) throw new GoURLError('net/url: invalid userinfo');
  const colon = info.indexOf(':');
  if (colon < 0) return { host, userinfo: escape(unescape(info, 'userPassword'), 'userPassword') };
  const user = escape(unescape(info.slice(0, colon), 'userPassword'), 'userPassword');
  const password = escape(unescape(info.slice(colon + 1), 'userPassword'), 'userPassword');
  return { host, userinfo: `${user}:${password}` };
}

/** The scheme and the rest, or an error for a URL starting with ':'. */
function splitScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new GoURLError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function parseNoFragment(raw: string): GoURL {
  const url: GoURL = { scheme: '', opaque: '', userinfo: '', host: '', path: '', rawQuery: '', fragment: '' };
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new GoURLError('net/url: invalid control character in URL');
  if (raw === '*') return { ...url, path: '*' };
  const [scheme, afterScheme] = splitScheme(raw);
  url.scheme = scheme.toLowerCase();
  let rest = afterScheme;
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return { ...url, opaque: rest };
    // "a:b/c" would read as a scheme: Go refuses it.
    if (rest.split('/')[0]!.includes(':')) throw new GoURLError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const { host, userinfo } = parseAuthority(authority);
    url.host = host;
    url.userinfo = userinfo;
  }
  url.path = unescape(rest, 'path');
  return url;
}

/** Go's url.Parse; throws GoURLError with Go's message. */
export function parseGoURL(raw: string): GoURL {
  const hash = raw.indexOf('#');
  const u = hash >= 0 ? raw.slice(0, hash) : raw;
  let url: GoURL;
  try {
    url = parseNoFragment(u);
  } catch (e) {
    throw new GoURLError(`parse ${goQuote(u)}: ${(e as Error).message}`);
  }
  if (hash < 0) return url;
  try {
    return { ...url, fragment: unescape(raw.slice(hash + 1), 'fragment') };
  } catch (e) {
    throw new GoURLError(`parse ${goQuote(raw)}: ${(e as Error).message}`);
  }
}

/** url.URL.Hostname(): the host without port and IPv6 brackets. */
export function goHostname(host: string): string {
  let h = host;
  const colon = h.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(h.slice(colon))) h = h.slice(0, colon);
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h;
}
