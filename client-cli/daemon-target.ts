/**
 * `--daemon-url tcp://HOST:PORT` (or KUBECFG_DAEMON_URL): use a daemon that
 * someone started with `--listen` (a container, another user's service)
 * instead of the local socket. The token comes from KUBECFG_DAEMON_TOKEN, else
 * from --daemon-token-file, which no one else may read (it is a bearer
 * credential). The CLI never starts or replaces such a daemon.
 */
import { readFileSync, statSync } from 'node:fs';
import type { FlagValue } from '../protocol/index.js';
import type { TcpTarget } from './socket-http.js';

const DAEMON_TOKEN_ENV = 'KUBECFG_DAEMON_TOKEN';

export class DaemonTargetError extends Error {}

export function daemonTarget(
  flags: Record<string, FlagValue>,
  env: Record<string, string | undefined>,
): TcpTarget | undefined {
  const where = typeof flags['daemon-url'] === 'string' ? flags['daemon-url'] : '';
  if (where === '') return undefined;
  let url: URL;
  try {
    url = new URL(where);
  } catch {
    throw new DaemonTargetError(`--daemon-url ${JSON.stringify(where)} is not a URL: use tcp://HOST:PORT`);
  }
  if (url.protocol !== 'tcp:')
    throw new DaemonTargetError(`--daemon-url ${JSON.stringify(where)}: only tcp://HOST:PORT is supported`);
  if (url.username || url.password)
    throw new DaemonTargetError(
      `--daemon-url must not carry credentials; use ${DAEMON_TOKEN_ENV} or --daemon-token-file`,
    );
  const port = Number(url.port);
  if (url.hostname === '' || url.port === '' || !Number.isInteger(port) || port < 1 || port > 65535)
    throw new DaemonTargetError(`--daemon-url ${JSON.stringify(where)} needs a host and a port: tcp://HOST:PORT`);
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '')
    throw new DaemonTargetError(`--daemon-url ${JSON.stringify(where)} must not have a path or query`);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port, token: readToken(flags, env) };
}

function readToken(flags: Record<string, FlagValue>, env: Record<string, string | undefined>): string {
  const fromEnv = (env[DAEMON_TOKEN_ENV] ?? '').trim();
  if (fromEnv !== '') return fromEnv;
  const file = typeof flags['daemon-token-file'] === 'string' ? flags['daemon-token-file'] : '';
  if (file === '')
    throw new DaemonTargetError(`--daemon-url needs a token: set ${DAEMON_TOKEN_ENV} or --daemon-token-file FILE`);
  let mode: number;
  let token: string;
  try {
    mode = statSync(file).mode;
    token = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new DaemonTargetError(
      `cannot read --daemon-token-file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  if ((mode & 0o077) !== 0)
    throw new DaemonTargetError(
      `--daemon-token-file ${file} is readable by others (mode ${(mode & 0o777).toString(8)}): chmod 600 it`,
    );
  if (token === '') throw new DaemonTargetError(`--daemon-token-file ${file} is empty`);
  return token;
}
