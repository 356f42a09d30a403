/**
 * Per-run setup of remote inputs and --root, called by run.ts around a
 * command: builds the RemoteSession from the request's flags (rc defaults
 * included), checks the paths the flags and arguments name against --root
 * before anything is read, and folds the session's needs, deps and warnings
 * into the outcome.
 *
 * Invariant: a flag error (bad -U URL, bad --oci-tag-ttl, a path outside the
 * root) is a normal exit-1 outcome naming the flag or path, never a throw.
 */
import { join, resolve } from 'node:path';
import { parseGoDuration } from '../../lang/go/time.js';
import type { DependencyRecorder } from '../../cache/index.js';
import { activeProxySettings } from '../../net/proxy.js';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import type { Gates } from '../../render/features/gates.js';
import { isRemoteLocation } from './remote-location.js';
import type { CommandName } from '../worker/messages.js';
import type { CommandOutcome } from '../commands/outcome.js';
import { confine, OutsideRootError, realRoot } from './root-confine.js';
import { RemoteSession } from './remote-session.js';
import type { RemoteSnapshot } from './remote-types.js';

/** Commands that evaluate inputs: --root, -U and remote imports apply to them. */
const RENDER_COMMANDS = new Set<CommandName>(['show', 'eval', 'jsonnet', 'diff', 'update', 'delete', 'validate']);

class RemoteFlagError extends Error {}

const DEFAULT_TAG_TTL_MS = 5 * 60 * 1000;
const FILE_FLAGS = ['ext-str-file', 'ext-code-file', 'tla-str-file', 'tla-code-file'];

function list(v: FlagValue | undefined): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' && v !== '' ? [v] : [];
}

function str(v: FlagValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

/** Comma-separated and repeated values, as --insecure-registry and --allow-import-host take them. */
function items(v: FlagValue | undefined): string[] {
  return list(v)
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

function dockerConfigPath(env: Readonly<Record<string, string>>): string | undefined {
  const dir = env.DOCKER_CONFIG ?? process.env.DOCKER_CONFIG;
  if (dir !== undefined && dir !== '') return join(dir, 'config.json');
  const home = env.HOME ?? process.env.HOME;
  return home !== undefined && home !== '' ? join(home, '.docker', 'config.json') : undefined;
}

/** The -U URLs as search bases: http(s) only, each ending in '/' as kubecfg makes them. */
function searchUrls(values: string[]): string[] {
  return values.map((value) => {
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      throw new RemoteFlagError(`--jurl ${value}: not a URL`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new RemoteFlagError(`--jurl ${value}: only http:// and https:// search URLs are supported`);
    if (!u.pathname.endsWith('/')) u.pathname += '/';
    return u.href;
  });
}

/** Refuses, before any read, a path named by an argument or a flag that lies outside the root. */
function checkPathsInsideRoot(root: string, params: CommandParams, recorder?: DependencyRecorder): void {
  const check = (p: string, shown: string): void => {
    if (p === '' || p === '-' || p === '/dev/stdin' || isRemoteLocation(p)) return;
    // Recorded: an argument that is a link, or a link on its way, retargeted must re-render.
    confine(root, resolve(params.cwd, p), shown, recorder);
  };
  for (const arg of params.args) check(arg, arg);
  for (const dir of list(params.flags['jpath'])) check(dir, `-J ${dir}`);
  const overlay = str(params.flags['overlay-code-file']);
  if (overlay !== '') {
    // `name=path` adds the file under a field; the whole value may also be a path containing '='.
    const eq = overlay.indexOf('=');
    check(eq > 0 ? overlay.slice(eq + 1) : overlay, `--overlay-code-file ${overlay}`);
  }
  for (const flag of FILE_FLAGS)
    for (const entry of list(params.flags[flag])) {
      const eq = entry.indexOf('=');
      if (eq > 0) check(entry.slice(eq + 1), `--${flag} ${entry}`);
    }
}

/**
 * The session for one run of `command`, or why the flags are unusable.
 * `flags` are the request's flags with rc defaults applied; `gates` give the
 * enabled features (a bundle declaring others is refused).
 */
export function openRemoteSession(
  command: CommandName,
  params: CommandParams,
  snapshot: RemoteSnapshot | undefined,
  gates: () => Gates | undefined,
  /** Where the links on the way to the root and to the arguments are recorded as dependencies. */
  recorder?: DependencyRecorder,
): RemoteSession {
  const flags = params.flags;
  const ttlText = str(flags['oci-tag-ttl']);
  let ttlMs = DEFAULT_TAG_TTL_MS;
  if (ttlText !== '') {
    const ns = parseGoDuration(ttlText);
    if (ns === undefined || ns < 0n)
      throw new RemoteFlagError(`--oci-tag-ttl ${ttlText}: not a duration (examples: 5m, 30s, 1h)`);
    ttlMs = Number(ns / 1_000_000n);
  }
  const dockerConfig = dockerConfigPath(params.env);
  const proxy = activeProxySettings(params.env);
  const session = new RemoteSession(snapshot ?? {}, {
    allowHosts: items(flags['allow-import-host']),
    insecureRegistries: items(flags['insecure-registry']),
    ociTagTtlMs: ttlMs,
    ...(dockerConfig !== undefined ? { dockerConfig } : {}),
    ...(proxy !== undefined ? { proxy: { ...proxy } } : {}),
  });
  if (!RENDER_COMMANDS.has(command)) return session;
  session.jurl = searchUrls(list(flags['jurl']));
  let enabled: string[] = [];
  try {
    enabled = gates()?.enabledNames() ?? [];
  } catch {
    // The command reports bad --features itself.
  }
  session.enabledFeatures = enabled;
  const rootFlag = str(flags['root']);
  if (rootFlag !== '') {
    session.root = realRoot(rootFlag, params.cwd, recorder);
    checkPathsInsideRoot(session.root, params, recorder);
  }
  return session;
}

/** Adds what the session learned to the outcome: needs and deps for the fetcher, warnings first on stderr. */
export function withRemoteReport(
  outcome: CommandOutcome,
  session: RemoteSession,
  formatWarning: (message: string) => string,
): CommandOutcome {
  const needs = session.pendingNeeds();
  const deps = session.usedDeps();
  if (needs.length === 0 && deps.length === 0 && session.warnings.length === 0) return outcome;
  const warnings = session.warnings.map(formatWarning).join('');
  return {
    ...outcome,
    stderr: warnings + outcome.stderr,
    remote: { needs, deps, policy: session.policy },
  };
}

export function isRemoteFlagError(err: unknown): err is RemoteFlagError | OutsideRootError {
  return err instanceof RemoteFlagError || err instanceof OutsideRootError;
}
