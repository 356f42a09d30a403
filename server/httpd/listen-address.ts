/**
 * `--listen-addr` as Go's net.Listen("tcp", addr) reads it: HOST:PORT where
 * an empty host (`:8080`) means every interface, `[v6]:PORT` for IPv6, and
 * the port is required (`missing port in address`) and numeric here (Go
 * would also look up service names such as `http`; we refuse them). Port 0
 * asks the kernel for a free port.
 */
export class ListenAddressError extends Error {}

export interface ListenAddress {
  /** What to pass to the listener; '::' (dual stack, as Go) for every interface. */
  host: string;
  port: number;
}

export function parseListenAddress(text: string): ListenAddress {
  const bad = (why: string): never => {
    throw new ListenAddressError(`invalid listen address ${JSON.stringify(text)}: ${why}`);
  };
  let host: string;
  let portText: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) bad("missing ']' in address");
    host = text.slice(1, close);
    if (text[close + 1] !== ':') bad('missing port in address');
    portText = text.slice(close + 2);
  } else {
    const colon = text.lastIndexOf(':');
    if (colon < 0) bad('missing port in address');
    host = text.slice(0, colon);
    if (host.includes(':')) bad('too many colons in address (write IPv6 hosts as [::1]:8080)');
    portText = text.slice(colon + 1);
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) bad(`unknown port ${JSON.stringify(portText)}`);
  return { host: host === '' ? '::' : host, port: Number(portText) };
}
