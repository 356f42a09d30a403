/**
 * The thin `kubecfg` CLI: parse argv, handle the commands that need no daemon
 * (help, version, completion, daemon management), and send render commands to
 * the daemon (or to a one-shot child with --no-daemon). Imports only
 * protocol/ and node built-ins, so the bundle starts fast.
 */
import { COMMANDS, logLine, logStyle, REMOTE_METHODS, type CommandParams, type FlagValue } from '../protocol/index.js';
import { checkArgCount, parseArgs, replaceDeprecated, resolveShadowed, UsageError, type ParsedArgs } from './args.js';
import { ConnectError, StreamBrokenError } from './connection.js';
import { applyEnvFlags, resolveVarsFromEnv } from './env-flags.js';
import { daemonTarget, DaemonTargetError } from './daemon-target.js';
import { daemonPaths, InsecureDirError } from './paths.js';
import { buildCommandParams, ttyInfo } from './request.js';
import { runRemote } from './run-remote.js';
import { exitOnOutputError } from './stdout-pipe.js';

// Only what a warm render command needs is imported above. The rest (help, completion, daemon
// management, the launcher, --remote, the in-process engine) is imported where it is used: the
// CommonJS bundle then neither runs those modules nor loads the builtins they need (node:child_process,
// node:https, node:url...) on the daemon path (docs/performance.md, "The CLI's own start-up").
const helpModule = () => import('./help.js');
const runOneshot = async (method: string, params: CommandParams): Promise<number> =>
  (await import('./run-oneshot.js')).runOneshot(method, params);

/** --color as typed, for a usage error met before the flags were parsed. */
function colorFlagOf(argv: readonly string[]): Record<string, FlagValue> {
  const i = argv.findIndex((a) => a === '--color' || a.startsWith('--color='));
  const value = i < 0 ? undefined : argv[i]!.startsWith('--color=') ? argv[i]!.slice(8) : argv[i + 1];
  return value === undefined ? {} : { color: value };
}

async function run(argv: string[]): Promise<number> {
  // Hidden: what the completion scripts ask at TAB time (complete-dynamic.ts).
  if (argv[0] === '__complete') return (await import('./complete-dynamic.js')).runDynamicComplete(argv.slice(1));
  let parsed: ParsedArgs;
  let flags: Record<string, FlagValue>;
  try {
    parsed = parseArgs(argv);
    if (!parsed.command && parsed.args.length > 0) {
      if (parsed.help) {
        // cobra's help command: the topic is not a command; the root usage follows, exit 0.
        process.stdout.write(`Unknown help topic [${parsed.args.map((a) => `\`${a}\``).join(' ')}]\n`);
        process.stdout.write((await helpModule()).usageText());
        return 0;
      }
      const { suggestionText } = await import('./suggest.js');
      throw new UsageError(
        `unknown command "${parsed.args[0]}" for "kubecfg"${suggestionText(parsed.args[0]!, COMMANDS)}`,
      );
    }
    if (parsed.help || !parsed.command) {
      process.stdout.write((await helpModule()).helpText(parsed.commandPath, parsed.command));
      return 0;
    }
    checkArgCount(parsed);
    for (const warning of replaceDeprecated(parsed)) process.stderr.write(warning);
    resolveShadowed(parsed);
    flags = applyEnvFlags(parsed.flags, process.env, parsed.command.flags);
    resolveVarsFromEnv(flags, process.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // kubecfg's root command silences cobra's `Error:` and usage hint; main.go logs the error.
    process.stderr.write(logLine(logStyle(ttyInfo(colorFlagOf(argv), process.env)), 'ERROR', err.message));
    return 1;
  }

  const [top, sub] = parsed.commandPath;
  const paths = daemonPaths();
  switch (top) {
    case 'version': {
      const { versionInfo, versionText } = await import('./version.js');
      process.stdout.write(versionText(versionInfo(), String(flags.output ?? 'text')));
      return 0;
    }
    case 'completion': {
      const { completionScript, completionShell } = await import('./completion.js');
      const shell = completionShell(parsed.args, flags.shell, process.env.SHELL);
      if (typeof shell !== 'string') {
        process.stderr.write(logLine(logStyle(ttyInfo(flags, process.env)), 'ERROR', shell.error));
        return 1;
      }
      const script = completionScript(shell);
      if (script === undefined) {
        process.stderr.write(
          logLine(
            logStyle(ttyInfo(flags, process.env)),
            'ERROR',
            `Unknown shell ${JSON.stringify(shell)}, try --shell`,
          ),
        );
        return 1;
      }
      process.stdout.write(script);
      return 0;
    }
    case 'daemon':
      return (await import('./daemon-commands.js')).runDaemonCommand(sub, paths, flags);
  }

  // The deepest command named on the line carries the method (`cleat export` → render/cleat-export);
  // a bare group such as `kubecfg cleat` prints its help.
  const method = parsed.command.method;
  if (!method) {
    process.stdout.write((await helpModule()).helpText(parsed.commandPath, parsed.command));
    return parsed.command.subcommands?.length ? 0 : 1;
  }
  const params = buildCommandParams(parsed.args, flags, process.env);
  // --remote / KUBECFG_REMOTE (applyEnvFlags turned the variable into the flag): render on the
  // shared service (client-cli/remote/, docs/remote.md).
  if (REMOTE_METHODS.includes(method) && typeof flags.remote === 'string' && flags.remote !== '') {
    const { remoteEndpoint, RemoteSetupError, runRemoteCommand } = await import('./remote/run-remote-command.js');
    let endpoint;
    try {
      endpoint = remoteEndpoint(flags, process.env);
    } catch (err) {
      if (!(err instanceof RemoteSetupError)) throw err;
      process.stderr.write(`kubecfg: remote: ${err.message}\n`);
      return 1;
    }
    if (endpoint) return runRemoteCommand(endpoint, method, params);
  }
  if (flags['no-daemon'] === true) return runOneshot(method, params);
  let tcp;
  try {
    tcp = daemonTarget(flags, process.env);
  } catch (err) {
    if (!(err instanceof DaemonTargetError)) throw err;
    process.stderr.write(`kubecfg: ${err.message}\n`);
    return 1;
  }
  if (tcp !== undefined) return runRemote(paths, method, params, { tcp });
  // One round trip: the command itself carries the version handshake (run-remote.ts).
  // Without a daemon the command runs here, then one is started for the next call (docs/daemon.md,
  // "First call"); not for the long-running commands, which the daemon serves, nor under the
  // daemon tests' hooks, whose inputs exercise the daemon's workers.
  const longRunning = parsed.command.mainStage === 'httpd' || flags.watch === true;
  const firstCallHere = !longRunning && process.env.KUBECFG_DAEMON_TEST_HOOKS !== '1';
  return runRemote(paths, method, params, firstCallHere ? { inProcess: () => runOneshot(method, params) } : {});
}

async function reportFatal(err: unknown): Promise<number> {
  const { DaemonStartError } = await import('./launcher.js');
  if (
    err instanceof InsecureDirError ||
    err instanceof DaemonStartError ||
    err instanceof ConnectError ||
    err instanceof StreamBrokenError
  ) {
    process.stderr.write(`kubecfg: ${err.message}\n`);
  } else {
    process.stderr.write(
      `kubecfg: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  }
  return 1;
}

/**
 * Runs the command line of this process. The CLI bundle calls it as it loads; the startup snapshot's
 * copy of the bundle (scripts/build.mjs, docs/performance.md "Startup snapshot") is built with
 * __KUBECFG_SNAPSHOT_BUILD__ so that loading it only defines it, and the snapshot calls it when a
 * process starts from the snapshot (the streams and argv are then that process's, not the build's).
 */
export function startCli(): void {
  // `kubecfg show | head -1`: the reader went away; stop quietly instead of crashing on EPIPE.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => exitOnOutputError(err.code));
  }

  run(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    async (err: unknown) => {
      process.exitCode = await reportFatal(err);
    },
  );
}

if (typeof __KUBECFG_SNAPSHOT_BUILD__ === 'undefined' || !__KUBECFG_SNAPSHOT_BUILD__) startCli();
