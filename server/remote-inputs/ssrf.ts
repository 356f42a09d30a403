/**
 * Hazard 24: which addresses an http(s) import may reach. Loopback, private
 * (RFC1918, CGNAT, ULA), link-local (169.254/16 with the cloud metadata
 * endpoints, fe80::/10), unspecified, multicast and reserved addresses are
 * refused unless the URL's host (or the address itself) is allow-listed with
 * --allow-import-host. IPv6 forms that embed an IPv4 address (mapped
 * ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that
 * IPv4 address, so they cannot smuggle 127.0.0.1 past the check.
 *
 * The check runs on the addresses DNS returned, inside the connection's own
 * lookup (http-fetch.ts), so the address checked is the address connected to.
 */
import { BlockList, isIP } from 'node:net';

const blockedV4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'an unspecified address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a shared (CGNAT) address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address (cloud metadata lives here)'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a reserved address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];
const blockedV6: Array<[string, number, string]> = [
  ['::', 128, 'an unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['fe80::', 10, 'a link-local address'],
  ['fc00::', 7, 'a unique local (private) address'],
  ['ff00::', 8, 'a multicast address'],
];

function listOf(entries: Array<[string, number, string]>, type: 'ipv4' | 'ipv6'): Array<[BlockList, string]> {
  return entries.map(([net, prefix, why]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, type);
    return [list, why];
  });
}
// Built on the first check, not at load: most renders fetch nothing, and a BlockList (a native
// handle) at module level would keep the engine bundle out of a startup snapshot.
let V4: Array<[BlockList, string]> | undefined;
let V6: Array<[BlockList, string]> | undefined;

/** Expands an IPv6 address into its eight 16-bit groups (dotted IPv4 tails included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const h = parse(head);
  if (tail === undefined) return h;
  const t = parse(tail);
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** The IPv4 address an IPv6 address stands for (mapped, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (g.length !== 8) return undefined;
  const v4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return undefined;
}

/** Why `address` (an IP literal) must not be reached, or undefined when it is a public address. */
export function blockedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return (V4 ??= listOf(blockedV4, 'ipv4')).find(([list]) => list.check(address, 'ipv4'))?.[1];
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined) return blockedAddressReason(inner);
    return (V6 ??= listOf(blockedV6, 'ipv6')).find(([list]) => list.check(address, 'ipv6'))?.[1];
  }
  return 'not an IP address';
}

/** A URL hostname without IPv6 brackets, lower-cased: the form allow-list entries are compared in. */
export function bareHost(hostname: string): string {
  const h = hostname.toLowerCase();
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

/** True when `host` (a URL hostname) or `address` (what it resolved to) is on the allow-list. */
export function hostAllowed(allowHosts: readonly string[], host: string, address?: string): boolean {
  const h = bareHost(host);
  return allowHosts.some((entry) => {
    const e = bareHost(entry.trim());
    return e !== '' && (e === h || (address !== undefined && e === address.toLowerCase()));
  });
}
