/**
 * Every JSON-RPC method as a typed descriptor shared by both ends: the name
 * literal, whether the response streams, and the params validator the server
 * runs before a handler sees anything. Result types are declared beside them.
 *
 * Plain methods answer with one JSON-RPC response. Streaming methods (the
 * commands) answer with an NDJSON body: zero or more `stream/output`
 * notifications, then exactly one JSON-RPC response as the last line.
 */
import {
  daemonCommandNames,
  FLAG_VALUE_LIMIT,
  findCommand,
  flagsOf,
  type CommandSpec,
  type DaemonCommandName,
} from './commands.js';
import {
  arrayOf,
  bool,
  int,
  isPlainObject,
  nonEmptyStr,
  nullable,
  objectOf,
  oneOf,
  optional,
  ParamsError,
  recordOf,
  required,
  str,
  type Validator,
} from './validate.js';

export interface MethodDescriptor<P, R> {
  readonly method: string;
  readonly streaming: boolean;
  readonly validate: (params: unknown) => P;
  /** Phantom: only carries the result type for callers. */
  readonly _result?: R;
}

function method<P, R>(name: string, streaming: boolean, validator: Validator<P>): MethodDescriptor<P, R> {
  return { method: name, streaming, validate: (params) => validator(params, 'params') };
}

// ---- daemon/hello --------------------------------------------------------

export interface HelloParams {
  protocolVersion: number;
  buildId: string;
}
export interface HelloResult {
  protocolVersion: number;
  buildId: string;
  pid: number;
  /** ISO-8601 time the daemon started. */
  startedAt: string;
  /** True when both protocol version and build id match the caller's. */
  compatible: boolean;
}

// ---- daemon/status -------------------------------------------------------

export interface CacheStatus {
  /**
   * `results` (daemon: whole command outputs), and summed over the render workers: `parsed-modules`
   * (Jsonnet ASTs), `module-reuse` (evaluated imports kept for the next request; bytes estimated as
   * the worker heap retained after a collection beyond its empty-worker baseline and the ASTs),
   * `files` (file bytes kept so an unchanged file is only stat'ed).
   */
  name: string;
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}
export interface WorkerStatus {
  index: number;
  threadId: number;
  /** The render host process running this worker (a new pid once the worker is replaced). */
  pid?: number;
  busy: boolean;
  queued: number;
  rendersServed: number;
  /** Its last render's time, from the job sent to the outcome back in the daemon (ms; absent before one). */
  lastRenderMs?: number;
  heapLimitMb: number;
  /** Resident memory of this worker's render host process (0 when unknown). */
  rssBytes: number;
  /** Its proportional set size (see DaemonStatus.totalPssBytes; 0 when unknown). */
  pssBytes: number;
}
export interface DaemonStatus {
  pid: number;
  protocolVersion: number;
  buildId: string;
  version: string;
  startedAt: string;
  uptimeSeconds: number;
  socketPath: string;
  tcpListen: string | null;
  requestsServed: number;
  requestsInFlight: number;
  /** Resident memory of the daemon's main process. */
  rssBytes: number;
  /**
   * What the daemon costs the machine: proportional set size (PSS) of the main process plus its
   * render host processes (RSS where PSS cannot be read), so pages they share count once.
   */
  totalPssBytes: number;
  heapUsedBytes: number;
  caches: CacheStatus[];
  watchedFiles: number;
  watchDegraded: string | null;
  workers: WorkerStatus[];
  workersReplaced: number;
  idleTimeoutSeconds: number;
  logFile: string;
}

// ---- daemon/shutdown -----------------------------------------------------

export interface ShutdownParams {
  reason?: string;
}
export interface ShutdownResult {
  stopping: true;
}

// ---- commands (render/show, render/eval, render/jsonnet) -----------------

export type FlagValue = string | boolean | number | string[];

export interface TtyInfo {
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  columns: number | null;
  /** --color; `auto` means: color when stderr is a TTY, unless NO_COLOR is set or FORCE_COLOR says otherwise. */
  color: 'auto' | 'always' | 'never';
  noColor: boolean;
  forceColor: string | null;
}

export interface CommandParams {
  /** Chosen by the client (unique per daemon while in flight); used by request/cancel. */
  requestId: string;
  /** Positional arguments (input files), exactly as typed. */
  args: string[];
  /** Flag values keyed by long name, after env mapping; absent flags take their defaults. */
  flags: Record<string, FlagValue>;
  /** The client's working directory: relative paths resolve against it. */
  cwd: string;
  /** The env variables the command may read (KUBECFG_*, KUBECONFIG, ext-var sources). */
  env: Record<string, string>;
  tty: TtyInfo;
  /**
   * The client's umask (0-0o777): files and directories the command creates for the user
   * (--export-dir, `jsonnet -m`, `kubocd render --out`, fmt -i's temp file) get the mode the
   * user's own process would give them, not the daemon's. Absent: 0o022.
   */
  umask?: number;
  /**
   * The sending CLI's protocol version and build id: the `daemon/hello` check folded into the
   * command, so a warm command costs one round trip. A daemon of another build answers
   * VersionMismatch before running anything; a daemon older than this field refuses it as an
   * unknown field (-32602, `params.client`). Both make the CLI replace the daemon (hazard 27).
   * Clients that sent `daemon/hello` first may leave it out.
   */
  client?: HelloParams;
}

export interface CommandResult {
  exitCode: number;
  /** True when the output came from the daemon's result cache. */
  cached: boolean;
}

export interface OutputNotificationParams {
  requestId: string;
  stream: 'stdout' | 'stderr';
  data: string;
}

/**
 * `stream/direct`: the daemon wrote `length` bytes of `stream` straight into the client's pipe
 * (STDOUT_PIPE_HEADER), or stopped with `error` (an errno code such as EPIPE: the pipe's reader went away).
 */
export interface DirectNotificationParams {
  requestId: string;
  stream: 'stdout';
  length: number;
  error?: string;
}

/** `stream/bytes`: the next `length` bytes of the response body are output of `stream`. */
export interface BytesNotificationParams {
  requestId: string;
  stream: 'stdout' | 'stderr';
  length: number;
}

// ---- request/cancel ------------------------------------------------------

export interface CancelParams {
  requestId: string;
}
export interface CancelResult {
  /** False when no request with that id was in flight. */
  cancelled: boolean;
}

// ---- validators ----------------------------------------------------------

const helloParams = objectOf<HelloParams>({ protocolVersion: required(int), buildId: required(nonEmptyStr) });
const shutdownParams = objectOf<ShutdownParams>({ reason: optional(str) });
const cancelParams = objectOf<CancelParams>({ requestId: required(nonEmptyStr) });
const emptyParams = objectOf<Record<string, never>>({});

const ttyInfo = objectOf<TtyInfo>({
  stdoutIsTTY: required(bool),
  stderrIsTTY: required(bool),
  columns: required(nullable(int)),
  color: required(oneOf(['auto', 'always', 'never'] as const)),
  noColor: required(bool),
  forceColor: required(nullable(str)),
});

/** Checks each flag against the command's catalog entry: known name, right kind, allowed value. */
function flagsFor(command: CommandSpec): Validator<Record<string, FlagValue>> {
  const specs = new Map(flagsOf(command).map((f) => [f.name, f]));
  return (v, f) => {
    if (!isPlainObject(v)) throw new ParamsError(f, 'expected an object');
    const out: Record<string, FlagValue> = Object.create(null) as Record<string, FlagValue>;
    for (const name of Object.keys(v)) {
      const field = `${f}.${name}`;
      const spec = specs.get(name);
      if (!spec) throw new ParamsError(field, `unknown flag for ${command.name}`);
      const value = v[name];
      switch (spec.kind) {
        case 'bool':
          out[name] = bool(value, field);
          break;
        case 'count':
        case 'int':
          out[name] = int(value, field);
          break;
        case 'float':
          if (typeof value !== 'number' || !Number.isFinite(value))
            throw new ParamsError(field, 'expected a finite number');
          out[name] = value;
          break;
        case 'string': {
          const s = str(value, field);
          if (spec.values && !spec.values.includes(s))
            throw new ParamsError(field, `expected one of ${spec.values.join(', ')}, got "${s}"`);
          out[name] = s;
          break;
        }
        case 'stringArray':
          out[name] = arrayOf(str, FLAG_VALUE_LIMIT)(value, field);
          break;
      }
    }
    return out;
  };
}

const umaskValue: Validator<number> = (v, f) => {
  const n = int(v, f);
  if (n < 0 || n > 0o777) throw new ParamsError(f, `expected a umask between 0 and 0o777, got ${n}`);
  return n;
};

function commandParams(command: CommandSpec): Validator<CommandParams> {
  return objectOf<CommandParams>({
    requestId: required(nonEmptyStr),
    args: required(arrayOf(str, FLAG_VALUE_LIMIT)),
    flags: required(flagsFor(command)),
    cwd: required(nonEmptyStr),
    env: required(recordOf(str)),
    tty: required(ttyInfo),
    umask: optional(umaskValue),
    client: optional(helloParams),
  });
}

function commandSpec(name: string): CommandSpec {
  const spec = findCommand(name);
  if (!spec) throw new Error(`protocol: no command ${name} in the catalog`);
  return spec;
}

// ---- complete/values -----------------------------------------------------

/**
 * Values for tab completion that only the daemon can find: the kubeconfig's contexts, the
 * cluster's namespaces. `command` is what the line typed so far would send (its connection
 * flags and the client's env); the answer is empty when nothing could be found quickly.
 */
export interface CompleteParams {
  what: 'contexts' | 'namespaces';
  command: CommandParams;
}
export interface CompleteResult {
  values: string[];
}

const completeParams = objectOf<CompleteParams>({
  what: required(oneOf(['contexts', 'namespaces'] as const)),
  command: required(commandParams(commandSpec('diff'))),
});

export const Methods = {
  hello: method<HelloParams, HelloResult>('daemon/hello', false, helloParams),
  status: method<Record<string, never>, DaemonStatus>('daemon/status', false, emptyParams),
  shutdown: method<ShutdownParams, ShutdownResult>('daemon/shutdown', false, shutdownParams),
  cancel: method<CancelParams, CancelResult>('request/cancel', false, cancelParams),
  complete: method<CompleteParams, CompleteResult>('complete/values', false, completeParams),
} as const;

/** Notification method names (server → client, inside a streamed response). */
export const Notifications = {
  output: 'stream/output',
  /** Announces `length` raw bytes of output that follow the line (FRAMED_CONTENT_TYPE only). */
  bytes: 'stream/bytes',
  /** Output the daemon wrote into the client's own stdout pipe (STDOUT_PIPE_HEADER requests only). */
  direct: 'stream/direct',
} as const;

export type CommandMethod = MethodDescriptor<CommandParams, CommandResult>;

/** One streaming method per catalog command with a `method` (protocol/commands.ts), keyed by its dashed path. */
export const CommandMethods: { readonly [C in DaemonCommandName]: CommandMethod } = Object.fromEntries(
  daemonCommandNames().map((name) => {
    const spec = commandSpec(name);
    return [name, method<CommandParams, CommandResult>(spec.method ?? name, true, commandParams(spec))];
  }),
) as { readonly [C in DaemonCommandName]: CommandMethod };

export type AnyMethod = (typeof Methods)[keyof typeof Methods] | CommandMethod;

export function findMethod(name: string): AnyMethod | undefined {
  return (
    Object.values(Methods).find((m) => m.method === name) ??
    Object.values<CommandMethod>(CommandMethods).find((m) => m.method === name)
  );
}

/** The command name a streaming method runs (`render/show` → `show`). */
export function commandOfMethod(name: string): DaemonCommandName | undefined {
  return daemonCommandNames().find((c) => CommandMethods[c].method === name);
}
