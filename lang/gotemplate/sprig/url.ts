/**
 * Sprig URL functions (https://masterminds.github.io/sprig/url.html):
 * urlParse splits a URL into Go net/url's fields (path unescaped, query and
 * fragment kept raw); urlJoin rebuilds one as url.URL.String does.
 */

import { type FuncDef, pure } from '../function.js';

function unescape(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new Error(`invalid URL escape ${JSON.stringify(s)}`);
  }
}

function parse(v: string): Record<string, unknown> {
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s.exec(v);
  if (!m) throw new Error(`unable to parse url: ${v}`);
  const scheme = (m[1] ?? '').toLowerCase();
  const authority = m[2];
  let path = m[3] ?? '';
  let opaque = '';
  if (scheme && authority === undefined && !path.startsWith('/')) {
    opaque = path;
    path = '';
  }
  let userinfo = '';
  let host = authority ?? '';
  const at = host.lastIndexOf('@');
  if (at >= 0) {
    userinfo = host.slice(0, at);
    host = host.slice(at + 1);
  }
  let hostname = host;
  if (hostname.startsWith('['))
    hostname = hostname.slice(1, hostname.indexOf(']') >= 0 ? hostname.indexOf(']') : undefined);
  else if (hostname.includes(':')) hostname = hostname.slice(0, hostname.lastIndexOf(':'));
  return {
    scheme,
    host,
    hostname,
    path: unescape(path),
    query: m[4] ?? '',
    opaque,
    fragment: m[5] !== undefined ? unescape(m[5]) : '',
    userinfo,
  };
}

function get(d: Record<string, unknown>, k: string): string {
  const v = Object.prototype.hasOwnProperty.call(d, k) ? d[k] : undefined;
  return typeof v === 'string' ? v : '';
}

function escapePath(p: string): string {
  return p.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu, (c) => encodeURIComponent(c));
}

function join(d: Record<string, unknown>): string {
  const scheme = get(d, 'scheme');
  const opaque = get(d, 'opaque');
  const host = get(d, 'host');
  const userinfo = get(d, 'userinfo');
  let path = get(d, 'path');
  let out = '';
  if (scheme) out += scheme + ':';
  if (opaque) out += opaque;
  else {
    if (scheme || host || userinfo) {
      if (host || path || userinfo) out += '//';
      if (userinfo) out += userinfo + '@';
      out += host;
    }
    if (path && !path.startsWith('/') && host) path = '/' + path;
    out += escapePath(path);
  }
  const query = get(d, 'query');
  if (query) out += '?' + query;
  const fragment = get(d, 'fragment');
  if (fragment) out += '#' + escapePath(fragment);
  return out;
}

export const urlFuncs: Record<string, FuncDef> = {
  urlParse: pure(['string'], parse),
  urlJoin: pure(['map'], (d: Record<string, unknown> | null) => join(d ?? {})),
};
