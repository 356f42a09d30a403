/**
 * Sprig URL functions (https://masterminds.github.io/sprig/url.html):
 * urlParse splits a URL into Go net/url's fields (path and fragment
 * unescaped, query kept raw; go-url.ts); urlJoin rebuilds one as url.URL.String does.
 */

import { type FuncDef, pure } from '../function.js';
import { goHostname, parseGoURL } from './go-url.js';

function parse(v: string): Record<string, unknown> {
  let u;
  try {
    u = parseGoURL(v);
  } catch (e) {
    throw new Error(`unable to parse url: ${(e as Error).message}`);
  }
  return {
    scheme: u.scheme,
    host: u.host,
    hostname: goHostname(u.host),
    path: u.path,
    query: u.rawQuery,
    opaque: u.opaque,
    fragment: u.fragment,
    userinfo: u.userinfo,
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
