/**
 * The render child's network guard (hazard 24): remote (https/oci) imports of
 * a remote render may reach only the tenant's allow-listed hosts. Every
 * outgoing connection (`net.Socket#connect`, which http, https, tls and
 * undici all end in) and every DNS lookup is checked against the list by host
 * name; anything else fails with EACCES before a packet leaves. An empty list
 * means no network at all. Redirects open new connections, so each hop is
 * checked again; the import path's own checks of the resolved address
 * (private, loopback, link-local) still apply on top.
 */
import { createRequire } from 'node:module';

type AnyFn = (...args: unknown[]) => unknown;

function refused(host: string): NodeJS.ErrnoException {
  return Object.assign(
    new Error(`network access to ${JSON.stringify(host)} is not allowed for this tenant's remote renders`),
    {
      code: 'EACCES',
    },
  );
}

export function installNetGuard(allowedHosts: readonly string[]): void {
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  const ok = (host: unknown): boolean => typeof host === 'string' && allowed.has(host.toLowerCase().replace(/\.$/, ''));
  const require = createRequire(import.meta.url);
  const net = require('node:net') as { Socket: { prototype: Record<string, unknown> } };
  const realConnect = net.Socket.prototype.connect as AnyFn;
  net.Socket.prototype.connect = function (this: { destroy(e: Error): void }, ...args: unknown[]): unknown {
    const first = args[0];
    const opts = (Array.isArray(first) ? first[0] : first) as unknown;
    let host: unknown;
    if (typeof opts === 'object' && opts !== null) {
      const o = opts as { host?: unknown; path?: unknown };
      host = o.path !== undefined ? `unix:${String(o.path)}` : (o.host ?? 'localhost');
    } else if (typeof opts === 'number' || (typeof opts === 'string' && /^\d+$/.test(opts))) {
      host = typeof args[1] === 'string' ? args[1] : 'localhost';
    } else host = `unix:${String(opts)}`;
    if (!ok(host)) {
      const err = refused(String(host));
      process.nextTick(() => this.destroy(err));
      return this;
    }
    return realConnect.apply(this, args);
  };
  const dns = require('node:dns') as Record<string, unknown> & { promises: Record<string, unknown> };
  for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny']) {
    const real = dns[name] as AnyFn | undefined;
    if (real)
      dns[name] = function (this: unknown, ...args: unknown[]): unknown {
        if (ok(args[0])) return real.apply(this, args);
        const cb = args[args.length - 1];
        if (typeof cb === 'function') process.nextTick(() => (cb as AnyFn)(refused(String(args[0]))));
        return undefined;
      };
    const realP = dns.promises[name] as AnyFn | undefined;
    if (realP)
      dns.promises[name] = function (this: unknown, ...args: unknown[]): unknown {
        return ok(args[0]) ? realP.apply(this, args) : Promise.reject(refused(String(args[0])));
      };
  }
}
