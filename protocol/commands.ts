/**
 * The command catalog: every `kubecfg` command and flag, spelt as kubecfg
 * spells them. Pure data shared by the CLI (parsing, --help, completion) and
 * the daemon (checking the flags a request carries). Flag values travel on
 * the wire keyed by their long name (`jpath`, `ext-str`, `format`).
 *
 * Environment: every global flag `foo-bar` may also come from `KUBECFG_FOO_BAR`
 * (kubecfg binds its persistent flags to viper with the KUBECFG prefix); a
 * value given on the command line replaces the env value, except `jpath`,
 * where `-J` paths are appended after the `KUBECFG_JPATH` list (as kubecfg's
 * `--jpath` help says).
 */

/** `float` is pflag's Float32: a decimal number (kubecfg's --qps-limit). */
export type FlagKind = 'bool' | 'string' | 'stringArray' | 'count' | 'int' | 'float';

export interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  readonly kind: FlagKind;
  readonly help: string;
  readonly default?: string | boolean | number;
  /** Completion candidates for the value. */
  readonly values?: readonly string[];
  /** The value is a path (completion offers files). */
  readonly filename?: boolean;
  /** How an env value splits into items for stringArray flags (default: one item). */
  readonly envSplit?: 'comma' | 'pathList';
  /**
   * pflag's MarkDeprecated: still accepted, hidden from help, and the CLI warns
   * `Flag --NAME has been deprecated, MESSAGE` and sends the value as `replacedBy`.
   */
  readonly deprecated?: { readonly message: string; readonly replacedBy: string };
}

/** The main-thread stages a command may have (server/main-stages.ts binds each). */
export type MainStageName = 'cluster' | 'pack' | 'httpd';

export type ArgsRule = 'none' | 'any' | 'atLeastOne' | 'exactlyOne' | 'exactlyTwo';

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly args: ArgsRule;
  readonly flags: readonly FlagSpec[];
  /** The JSON-RPC method that runs it in the daemon; absent for commands the CLI runs itself. */
  readonly method?: string;
  /**
   * Where a daemon command runs besides its render (always in a render worker, or in the one-shot
   * process): after it, in the daemon's main thread, `cluster` talks to the cluster and `pack`
   * pushes or writes the artifact; `httpd` serves from the main thread until cancelled, rendering
   * in workers per request. Absent: the render's output is the answer (cacheable). A command
   * with a `watch` flag streams until cancelled when it is set.
   */
  readonly mainStage?: MainStageName;
  /** The remote render service runs it (`--remote`, docs/remote.md); cluster commands talk to the cluster from the client. */
  readonly remote?: boolean;
  readonly subcommands?: readonly CommandSpec[];
}

export const FLAG_VALUE_LIMIT = 10_000;

export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { name: 'alpha', kind: 'bool', help: 'Enable every alpha feature (prefer --features)' },
  {
    name: 'features',
    kind: 'stringArray',
    envSplit: 'comma',
    help: 'Comma-separated features to turn on (name, name=true) or off (name=false). May be repeated.',
  },
  { name: 'verbose', short: 'v', kind: 'count', help: 'Increase verbosity. May be given multiple times.' },
  {
    name: 'jpath',
    short: 'J',
    kind: 'stringArray',
    filename: true,
    envSplit: 'pathList',
    help: 'Additional Jsonnet library search path, appended to the ones in the KUBECFG_JPATH env var. May be repeated.',
  },
  {
    name: 'jurl',
    short: 'U',
    kind: 'stringArray',
    help: 'Additional Jsonnet library search path given as a URL. May be repeated.',
  },
  { name: 'ext-str', short: 'V', kind: 'stringArray', help: 'Values of external variables with string values' },
  {
    name: 'ext-str-file',
    kind: 'stringArray',
    filename: true,
    help: 'Read external variables with string values from files',
  },
  { name: 'ext-code', kind: 'stringArray', help: 'Values of external variables with values supplied as Jsonnet code' },
  {
    name: 'ext-code-file',
    kind: 'stringArray',
    filename: true,
    help: 'Read external variables with values supplied as Jsonnet code from files',
  },
  { name: 'tla-str', short: 'A', kind: 'stringArray', help: 'Values of top level arguments with string values' },
  {
    name: 'tla-str-file',
    kind: 'stringArray',
    filename: true,
    help: 'Read top level arguments with string values from files',
  },
  { name: 'tla-code', kind: 'stringArray', help: 'Values of top level arguments with values supplied as Jsonnet code' },
  {
    name: 'tla-code-file',
    kind: 'stringArray',
    filename: true,
    help: 'Read top level arguments with values supplied as Jsonnet code from files',
  },
  {
    name: 'resolve-images',
    kind: 'string',
    default: 'noop',
    values: ['noop', 'registry'],
    help: 'Change implementation of resolveImage native function. One of: noop, registry',
  },
  {
    name: 'resolve-images-error',
    kind: 'string',
    default: 'warn',
    values: ['ignore', 'warn', 'error'],
    help: 'Action when resolveImage fails. One of ignore,warn,error',
  },
  {
    name: 'kubeconfig',
    kind: 'string',
    filename: true,
    help: 'Path to a kube config. Only required if out-of-cluster',
  },
  { name: 'context', kind: 'string', help: 'The name of the kubeconfig context to use' },
  { name: 'cluster', kind: 'string', help: 'The name of the kubeconfig cluster to use' },
  { name: 'user', kind: 'string', help: 'The name of the kubeconfig user to use' },
  { name: 'namespace', short: 'n', kind: 'string', help: 'If present, the namespace scope for this CLI request' },
  { name: 'server', short: 's', kind: 'string', help: 'The address and port of the Kubernetes API server' },
  { name: 'token', kind: 'string', help: 'Bearer token for authentication to the API server' },
  { name: 'as', kind: 'string', help: 'Username to impersonate for the operation' },
  { name: 'as-group', kind: 'stringArray', help: 'Group to impersonate for the operation. May be repeated.' },
  { name: 'as-uid', kind: 'string', help: 'UID to impersonate for the operation' },
  { name: 'username', kind: 'string', help: 'Username for basic authentication to the API server' },
  { name: 'password', kind: 'string', help: 'Password for basic authentication to the API server' },
  {
    name: 'certificate-authority',
    kind: 'string',
    filename: true,
    help: 'Path to a cert file for the certificate authority',
  },
  { name: 'client-certificate', kind: 'string', filename: true, help: 'Path to a client certificate file for TLS' },
  { name: 'client-key', kind: 'string', filename: true, help: 'Path to a client key file for TLS' },
  {
    name: 'insecure-skip-tls-verify',
    kind: 'bool',
    help: "If true, the server's certificate will not be checked for validity",
  },
  {
    name: 'request-timeout',
    kind: 'string',
    default: '0',
    help: 'The length of time to wait before giving up on a single server request',
  },
  { name: 'tls-server-name', kind: 'string', help: 'Server name to use for server certificate validation' },
  {
    name: 'disable-compression',
    kind: 'bool',
    help: 'If true, opt-out of response compression for all requests to the server',
  },
  {
    name: 'qps-limit',
    kind: 'float',
    help: 'Override k8s REST client-side rate limiting; library default is 5 QPS; a negative value disables.',
  },
  // Ours: remote and confined inputs (docs/imports.md).
  {
    name: 'root',
    kind: 'string',
    filename: true,
    help: 'Directory every file a render reads must lie in, after resolving .. and symbolic links',
  },
  {
    name: 'allow-import-host',
    kind: 'stringArray',
    envSplit: 'comma',
    help: 'Host (or IP address) that http(s) imports may reach although it is loopback, private or link-local. May be repeated.',
  },
  {
    name: 'oci-tag-ttl',
    kind: 'string',
    default: '5m',
    help: 'How long the daemon trusts a tag -> digest answer for oci:// imports and resolveImage',
  },
  {
    name: 'insecure-registry',
    kind: 'stringArray',
    envSplit: 'comma',
    help: 'Registry (host:port) spoken to over plain HTTP for oci:// imports and resolveImage. May be repeated.',
  },
  // Ours: how the CLI talks to the daemon and paints output.
  {
    name: 'color',
    kind: 'string',
    default: 'auto',
    values: ['auto', 'always', 'never'],
    help: 'Colorize diagnostics: auto, always or never',
  },
  {
    name: 'progress',
    kind: 'bool',
    help: 'Print progress of pack pushes and --remote uploads on stderr (default: when stderr is a terminal)',
  },
  {
    name: 'no-daemon',
    kind: 'bool',
    help: 'Run the command in a child process instead of the daemon (also KUBECFG_DAEMON=0)',
  },
  // A daemon started elsewhere with --listen (docs/daemon.md, "TCP mode"); the token comes from
  // KUBECFG_DAEMON_TOKEN or --daemon-token-file.
  {
    name: 'daemon-url',
    kind: 'string',
    help: 'Use the kubecfg daemon listening at tcp://HOST:PORT instead of the local one',
  },
  {
    name: 'daemon-token-file',
    kind: 'string',
    filename: true,
    help: "File (mode 0600) holding the TCP daemon's token when KUBECFG_DAEMON_TOKEN is not set",
  },
  // Remote render service (docs/remote.md); the token comes from KUBECFG_REMOTE_TOKEN or --remote-token-file.
  { name: 'remote', kind: 'string', help: 'Render on the remote render service at this https:// URL' },
  {
    name: 'remote-token-file',
    kind: 'string',
    filename: true,
    help: 'File (mode 0600) holding the remote token when KUBECFG_REMOTE_TOKEN is not set',
  },
  { name: 'remote-ca', kind: 'string', filename: true, help: 'PEM file of a CA to trust for --remote' },
];

const formatFlag: FlagSpec = {
  name: 'format',
  short: 'o',
  kind: 'string',
  default: 'yaml',
  values: ['yaml', 'json'],
  help: 'Output format.  Supported values are: json, yaml',
};

const cleatRootFlag: FlagSpec = {
  name: 'root',
  kind: 'string',
  filename: true,
  help: "Project root that imports and input files must stay inside (default: nearest directory with .git, else the file's directory)",
};

const overlayCodeFlag: FlagSpec = {
  name: 'overlay-code',
  kind: 'string',
  help: 'Inline Jsonnet code to compose to each of the input files',
};
const overlayCodeFileFlag: FlagSpec = {
  name: 'overlay-code-file',
  kind: 'string',
  filename: true,
  help: 'Jsonnet file to compose to each of the input files',
};
const overlayDeprecatedFlag: FlagSpec = {
  name: 'overlay',
  kind: 'string',
  filename: true,
  help: 'Jsonnet file to compose to each of the input files',
  deprecated: { message: 'please use overlay-code-file instead', replacedBy: 'overlay-code-file' },
};

/** kubecfg's addCommonEvalFlags (show, diff, update, delete, validate; eval without the -e shorthand). */
const commonEvalFlags: readonly FlagSpec[] = [
  { name: 'exec', short: 'e', kind: 'string', help: 'Inline code' },
  overlayDeprecatedFlag,
  overlayCodeFlag,
  overlayCodeFileFlag,
];

/** Ours: `diff -o json`, `update -o json` (docs/cluster.md); text is kubecfg's output. */
function clusterOutputFlag(what: string): FlagSpec {
  return {
    name: 'output',
    short: 'o',
    kind: 'string',
    default: 'text',
    values: ['text', 'json'],
    help: `Output format: text (kubecfg's) or json (a summary: ${what})`,
  };
}

/** The flags kubecfg makes mutually exclusive (cmd.MarkFlagsMutuallyExclusive). */
export const EXCLUSIVE_FLAG_GROUPS: readonly (readonly string[])[] = [['overlay', 'overlay-code', 'overlay-code-file']];

/**
 * The command registry's catalog half: one entry per command. The daemon binds every entry that has
 * a `method` to its implementation by the entry's dashed path (server/commands/registry.ts), and a
 * missing binding is a type error, so `as const` keeps the names visible to the type checker.
 */
const CATALOG = [
  {
    name: 'show',
    summary: 'Show expanded resource definitions',
    usage: 'kubecfg show [flags] FILE...',
    args: 'any',
    method: 'render/show',
    remote: true,
    flags: [
      ...commonEvalFlags,
      {
        name: 'export-dir',
        kind: 'string',
        filename: true,
        help: 'Split yaml stream into multiple files and write files into a directory. If the directory exists it must be empty.',
      },
      {
        name: 'export-filename-extension',
        kind: 'string',
        help: 'Override the file extension used when creating filenames when using export-filename-format',
      },
      {
        name: 'export-filename-format',
        kind: 'string',
        default: '{{.apiVersion}}.{{.kind}}-{{default "default" .metadata.namespace}}.{{.metadata.name}}',
        help: 'Go template expression used to render path names for resources.',
      },
      formatFlag,
      {
        name: 'reorder',
        kind: 'string',
        values: ['server', 'client'],
        help: "--reorder=server: Reorder resources like the 'update' command does.",
      },
      {
        name: 'show-provenance',
        kind: 'bool',
        help: 'Add provenance annotations showing the file and the field path to each rendered k8s object',
      },
      { name: 'watch', short: 'w', kind: 'bool', help: 'Re-render whenever a file in the import closure changes' },
    ],
  },
  {
    name: 'eval',
    summary: 'eval jsonnet expression',
    usage: 'kubecfg eval [flags] FILE',
    args: 'exactlyOne',
    method: 'render/eval',
    remote: true,
    flags: [
      { name: 'expr', short: 'e', kind: 'string', help: 'jsonnet expression to evaluate' },
      { name: 'show-keys', short: 'k', kind: 'bool', help: "instead of rendering an object, list it's keys" },
      {
        ...formatFlag,
        values: ['yaml', 'json', 'jsonnet'],
        help: 'Output format.  Supported values are: json, yaml, jsonnet (the Jsonnet of a .yakl file, not evaluated)',
      },
      { name: 'exec', kind: 'string', help: 'Inline code' },
      overlayDeprecatedFlag,
      overlayCodeFlag,
      overlayCodeFileFlag,
      { name: 'trace', kind: 'bool', help: 'print a causal trace: the FILE:LINE that defined the value (to stderr)' },
    ],
  },
  {
    name: 'traceback',
    summary: 'Output the jsonnet file line location that defined a given line of rendered yaml (feature traceback)',
    usage: 'kubecfg --features=traceback traceback <filename.yaml>:<line>',
    args: 'exactlyOne',
    method: 'render/traceback',
    // kubecfg: "Do not hide non file:// urls"; here it also prints every field the value passed
    // through (ursonnet's list) instead of the one defining line (docs/traceback.md).
    flags: [{ name: 'all', kind: 'bool', help: 'Do not hide non file:// urls' }],
  },
  {
    name: 'httpd',
    summary: 'Serve the top-level function of each file as a POST hook, e.g. for Metacontroller (feature httpd)',
    usage: 'kubecfg --features=httpd httpd [flags] FILE...',
    args: 'atLeastOne',
    method: 'render/httpd',
    mainStage: 'httpd',
    flags: [
      { name: 'listen-addr', short: 'l', kind: 'string', default: ':8080', help: 'address:port to listen' },
      { name: 'listen', kind: 'string', help: 'Same as --listen-addr' },
      {
        name: 'timeout',
        kind: 'string',
        default: '30s',
        help: 'Longest evaluation of one request (e.g. 500ms, 10s, 1m); past it the request gets 504',
      },
    ],
  },
  {
    name: 'jsonnet',
    summary: 'Evaluate a Jsonnet file like the jsonnet command',
    usage: 'kubecfg jsonnet [flags] FILE',
    args: 'exactlyOne',
    method: 'render/jsonnet',
    remote: true,
    flags: [
      { name: 'exec', short: 'e', kind: 'bool', help: 'Treat FILE as code' },
      { name: 'string', short: 'S', kind: 'bool', help: 'Expect a string, manifest as plain text' },
      { name: 'yaml-stream', short: 'y', kind: 'bool', help: 'Write output as a YAML stream of JSON documents' },
      {
        name: 'multi',
        short: 'm',
        kind: 'string',
        filename: true,
        help: 'Write multiple files to the directory, list files on stdout',
      },
      { name: 'max-stack', kind: 'int', default: 500, help: 'Number of allowed stack frames' },
    ],
  },
  {
    name: 'yaklfmt',
    summary: 'Format YAKL files (feature yakl): the Jsonnet of each expression as jsonnetfmt does',
    usage: 'kubecfg --features=yakl yaklfmt [flags] FILE...',
    args: 'atLeastOne',
    method: 'render/yaklfmt',
    flags: [
      { name: 'in-place', short: 'i', kind: 'bool', help: 'Update the files in place (atomically)' },
      { name: 'test', kind: 'bool', help: 'Exit with 1 and list the files that are not formatted' },
    ],
  },
  {
    name: 'fmt',
    summary: 'Format Jsonnet files as jsonnetfmt does',
    usage: 'kubecfg fmt [flags] FILE...',
    args: 'atLeastOne',
    method: 'render/fmt',
    flags: [
      { name: 'in-place', short: 'i', kind: 'bool', help: 'Update the files in place (atomically)' },
      { name: 'test', kind: 'bool', help: 'Exit with 1 and list the files that are not formatted' },
      { name: 'indent', kind: 'int', help: 'Number of spaces to indent by (default 2, 0 leaves indentation alone)' },
      { name: 'max-blank-lines', kind: 'int', help: 'Max vertical spacing (default 2, 0 leaves it alone)' },
      {
        name: 'string-style',
        kind: 'string',
        values: ['d', 's', 'l'],
        help: 'd (double), s (single, default) or l (leave)',
      },
      { name: 'comment-style', kind: 'string', values: ['h', 's', 'l'], help: 'h (#), s (//, default) or l (leave)' },
      { name: 'pad-arrays', kind: 'bool', help: 'Put spaces inside [ ]' },
      { name: 'no-pad-arrays', kind: 'bool', help: 'No spaces inside [ ] (default)' },
      { name: 'pad-objects', kind: 'bool', help: 'Put spaces inside { } (default)' },
      { name: 'no-pad-objects', kind: 'bool', help: 'No spaces inside { }' },
      { name: 'pretty-field-names', kind: 'bool', help: 'Use syntax sugar for fields and indexing (default)' },
      { name: 'no-pretty-field-names', kind: 'bool', help: 'Leave field names and indexing as written' },
      { name: 'sort-imports', kind: 'bool', help: 'Sort top-level imports alphabetically (default)' },
      { name: 'no-sort-imports', kind: 'bool', help: 'Leave top-level imports in their order' },
    ],
  },
  // Cleat (docs/cleat.md): a command group; each subcommand names the method the CLI forwards.
  {
    name: 'cleat',
    summary: 'Check, export and generate Cleat programs',
    usage: 'kubecfg cleat check|export|gen|argocd [flags] FILE',
    args: 'none',
    flags: [],
    subcommands: [
      {
        name: 'check',
        summary: 'Type-check a Cleat program without inputs and print its diagnostics',
        usage: 'kubecfg cleat check [flags] FILE',
        args: 'exactlyOne',
        method: 'render/cleat-check',
        flags: [cleatRootFlag],
      },
      {
        name: 'export',
        summary: 'Evaluate a Cleat program with its inputs and print the documents',
        usage: 'kubecfg cleat export [flags] FILE',
        args: 'exactlyOne',
        method: 'render/cleat-export',
        flags: [
          cleatRootFlag,
          {
            name: 'input',
            kind: 'stringArray',
            filename: true,
            help: 'JSON or YAML file holding an object of inputs (inside the root; later files win). May be repeated.',
          },
          {
            name: 'set',
            kind: 'stringArray',
            help: 'Set an input: name=value (the string if the type takes it, else JSON). May be repeated.',
          },
          formatFlag,
          {
            name: 'target',
            kind: 'string',
            default: 'plain',
            values: ['plain', 'argocd', 'flux'],
            help: 'Output target: plain, argocd (sync-wave annotations) or flux (Kustomizations and manifests files)',
          },
        ],
      },
      {
        name: 'gen',
        summary: 'Print the Cleat types of an OpenAPI document or CRDs (JSON or YAML)',
        usage: 'kubecfg cleat gen SCHEMA.json|SCHEMA.yaml',
        args: 'exactlyOne',
        method: 'render/cleat-gen',
        flags: [],
      },
      // Argo CD config management plugin (docs/cleat.md, "Argo CD"): a nested group.
      {
        name: 'argocd',
        summary: 'Run Cleat as an Argo CD config management plugin',
        usage: 'kubecfg cleat argocd generate|parameters|plugin|dockerfile [flags]',
        args: 'none',
        flags: [],
        subcommands: [
          {
            name: 'generate',
            summary: "The plugin's generate step: export a Cleat program with the argocd target",
            usage: 'kubecfg cleat argocd generate [flags] FILE',
            args: 'exactlyOne',
            method: 'render/cleat-argocd-generate',
            flags: [
              cleatRootFlag,
              {
                name: 'argocd-params',
                kind: 'bool',
                help: "Read the inputs from Argo CD's ARGOCD_APP_PARAMETERS (strings as with --set)",
              },
              {
                name: 'input',
                kind: 'stringArray',
                filename: true,
                help: 'JSON or YAML file holding an object of inputs (inside the root; later files win). May be repeated.',
              },
              {
                name: 'set',
                kind: 'stringArray',
                help: 'Set an input: name=value (the string if the type takes it, else JSON). May be repeated.',
              },
              formatFlag,
            ],
          },
          {
            name: 'parameters',
            summary: "The plugin's dynamic parameters: a Cleat program's inputs as Argo CD UI parameters (JSON)",
            usage: 'kubecfg cleat argocd parameters [flags] FILE',
            args: 'exactlyOne',
            method: 'render/cleat-argocd-parameters',
            flags: [cleatRootFlag],
          },
          {
            name: 'plugin',
            summary: "Print the plugin's plugin.yaml (a ConfigManagementPlugin)",
            usage: 'kubecfg cleat argocd plugin [flags]',
            args: 'none',
            method: 'render/cleat-argocd-plugin',
            flags: [
              { name: 'name', kind: 'string', default: 'cleat', help: "The plugin's name" },
              {
                name: 'entry',
                kind: 'string',
                default: 'main.cleat',
                help: "The Cleat file, in the application's source directory, that the plugin discovers and exports",
              },
            ],
          },
          {
            name: 'dockerfile',
            summary: "Print the Dockerfile of the plugin's sidecar image",
            usage: 'kubecfg cleat argocd dockerfile',
            args: 'none',
            method: 'render/cleat-argocd-dockerfile',
            flags: [],
          },
        ],
      },
    ],
  },
  {
    name: 'daemon',
    summary: 'Manage the kubecfg rendering daemon',
    usage: 'kubecfg daemon start|stop|status|logs [flags]',
    args: 'none',
    flags: [],
    subcommands: [
      {
        name: 'start',
        summary: 'Start the daemon (detached) unless one is running',
        usage: 'kubecfg daemon start [flags]',
        args: 'none',
        flags: [
          {
            name: 'listen',
            kind: 'string',
            help: 'Also listen on TCP HOST:PORT (bearer token required; default host 127.0.0.1)',
          },
          {
            name: 'idle-timeout',
            kind: 'string',
            default: '3h',
            help: 'Stop after this long without requests (e.g. 90s, 30m, 3h; 0 = never)',
          },
          { name: 'workers', kind: 'int', help: 'Render worker threads (default: number of cores)' },
          {
            name: 'render-on-save',
            kind: 'bool',
            default: true,
            help: 'Re-render the latest request that read a file when it is saved, before it is asked for again',
          },
          {
            name: 'worker-memory-mb',
            kind: 'int',
            default: 1024,
            help: 'Old-generation heap limit of each render worker, in MiB',
          },
          { name: 'foreground', kind: 'bool', help: 'Run in the foreground instead of detaching' },
          {
            name: 'tls-cert',
            kind: 'string',
            filename: true,
            help: 'Serve remote renders over TLS with this certificate (with --tls-key and --tokens; runs in the foreground, docs/remote.md)',
          },
          { name: 'tls-key', kind: 'string', filename: true, help: 'Private key of --tls-cert' },
          {
            name: 'tokens',
            kind: 'string',
            filename: true,
            help: 'Tokens file of the remote render service (token SHA-256 → tenant and its limits; mode 0600)',
          },
        ],
      },
      { name: 'stop', summary: 'Stop the running daemon', usage: 'kubecfg daemon stop', args: 'none', flags: [] },
      {
        name: 'status',
        summary: 'Show uptime, version, caches, watched files, requests and memory',
        usage: 'kubecfg daemon status [flags]',
        args: 'none',
        flags: [
          {
            name: 'output',
            short: 'o',
            kind: 'string',
            default: 'text',
            values: ['text', 'json'],
            help: 'Output format: text or json',
          },
        ],
      },
      {
        name: 'logs',
        summary: "Print the end of the daemon's log file",
        usage: 'kubecfg daemon logs [flags]',
        args: 'none',
        flags: [
          { name: 'lines', kind: 'int', default: 50, help: 'Number of lines to print' },
          {
            name: 'follow',
            short: 'f',
            kind: 'bool',
            help: 'Keep printing lines as they are written (across rotation)',
          },
          {
            name: 'output',
            short: 'o',
            kind: 'string',
            default: 'text',
            values: ['text', 'json'],
            help: 'Output format: text (time level message key=value) or json (the raw lines)',
          },
        ],
      },
    ],
  },
  {
    name: 'features',
    summary: 'List feature gates, their stage, setting and the source that decided it',
    usage: 'kubecfg features [flags]',
    args: 'none',
    method: 'render/features',
    remote: true,
    flags: [
      {
        name: 'format',
        short: 'o',
        kind: 'string',
        default: 'table',
        values: ['table', 'json'],
        help: 'Output format.  Supported values are: table, json',
      },
    ],
  },
  {
    name: 'diff',
    summary: 'Display differences between server and local config',
    usage: 'kubecfg diff [flags] FILE...',
    args: 'atLeastOne',
    method: 'cluster/diff',
    remote: true,
    mainStage: 'cluster',
    flags: [
      ...commonEvalFlags,
      {
        name: 'diff-strategy',
        kind: 'string',
        default: 'all',
        values: ['all', 'subset', 'last-applied'],
        help: 'Diff strategy, all, subset or last-applied',
      },
      { name: 'omit-secrets', kind: 'bool', help: 'hide secret details when showing diff' },
      clusterOutputFlag('diff: every object with its status and hunks'),
      {
        name: 'parallelism',
        kind: 'int',
        default: 8,
        help: 'Requests in flight at once (objects of one dependency tier for update); 1 = one at a time',
      },
    ],
  },
  {
    name: 'update',
    summary: 'Update Kubernetes resources with local config',
    usage: 'kubecfg update [flags] FILE...',
    args: 'atLeastOne',
    method: 'cluster/update',
    remote: true,
    mainStage: 'cluster',
    flags: [
      ...commonEvalFlags,
      { name: 'create', kind: 'bool', default: true, help: 'Create missing resources' },
      { name: 'skip-gc', kind: 'bool', help: "Don't perform garbage collection, even with --gc-tag" },
      {
        name: 'gc-tag',
        kind: 'string',
        help: 'Add this tag to updated objects, and garbage collect existing objects with this tag and not in config',
      },
      {
        name: 'gc-all-namespaces',
        kind: 'bool',
        default: true,
        help: 'Garbage collect in every namespace; =false limits it to the default namespace',
      },
      {
        name: 'gc-tags-from-input',
        kind: 'bool',
        help: 'Also garbage collect under the gc tags found on the input objects',
      },
      {
        name: 'gc-namespaces',
        kind: 'bool',
        help: 'Allow garbage collection to delete Namespace objects (off by default: it deletes everything inside)',
      },
      { name: 'dry-run', kind: 'bool', help: 'Perform only read-only operations' },
      clusterOutputFlag('update: every object with its action, and what garbage collection did'),
      { name: 'validate', kind: 'bool', default: true, help: 'Validate input against server schema' },
      {
        name: 'ignore-unknown',
        kind: 'bool',
        help: "Don't fail validation if the schema for a given resource type is not found",
      },
      {
        name: 'parallelism',
        kind: 'int',
        default: 8,
        help: 'Requests in flight at once (objects of one dependency tier for update); 1 = one at a time',
      },
    ],
  },
  {
    name: 'delete',
    summary: 'Delete Kubernetes resources described in local config',
    usage: 'kubecfg delete [flags] FILE...',
    args: 'atLeastOne',
    method: 'cluster/delete',
    remote: true,
    mainStage: 'cluster',
    flags: [
      ...commonEvalFlags,
      {
        name: 'grace-period',
        kind: 'int',
        default: -1,
        help: 'Number of seconds given to resources to terminate gracefully. A negative value is ignored',
      },
    ],
  },
  {
    name: 'validate',
    summary: 'Compare generated manifest against server OpenAPI spec',
    usage: 'kubecfg validate [flags] FILE...',
    args: 'atLeastOne',
    method: 'cluster/validate',
    remote: true,
    mainStage: 'cluster',
    flags: [
      ...commonEvalFlags,
      {
        name: 'ignore-unknown',
        kind: 'bool',
        default: true,
        help: "Don't fail validation if the schema for a given resource type is not found",
      },
      { name: 'repeat-eval', kind: 'bool', default: true, help: 'Repeat evaluation twice to verify idempotency' },
    ],
  },
  {
    name: 'pack',
    summary: 'Create and push an OCI package (feature pack)',
    usage: 'kubecfg pack [flags] REF ENTRY.jsonnet',
    args: 'exactlyTwo',
    method: 'oci/pack',
    mainStage: 'pack',
    flags: [
      {
        name: 'output',
        kind: 'string',
        filename: true,
        help: "Output archive file. Don't push to OCI but just dump into a file",
      },
      { name: 'insecure-registry', kind: 'bool', help: 'Use HTTP instead of HTTPS to access the OCI registry' },
      {
        name: 'docs-tar-file',
        kind: 'string',
        filename: true,
        help: 'Optional tar.gz file containing a documentation bundle',
      },
      {
        name: 'annotation',
        kind: 'stringArray',
        help: 'Annotation key=value to add to the OCI image manifest. May be repeated.',
      },
      {
        name: 'root',
        kind: 'string',
        filename: true,
        help: "Directory every packed file must lie in (default: nearest directory with .git, else the entry's directory)",
      },
    ],
  },
  // KuboCD (docs/kubocd.md): render a Release, dump a Package. Local flags shadow global ones (--context).
  {
    name: 'kubocd',
    summary: 'Render KuboCD Releases and check Packages',
    usage: 'kubecfg kubocd render|dump [flags]',
    args: 'none',
    flags: [],
    subcommands: [
      {
        name: 'render',
        summary: 'Render a Release as kubocd render does: model.yaml, HelmReleases, chart manifests',
        usage: 'kubecfg kubocd render [flags] RELEASE.yaml',
        args: 'exactlyOne',
        method: 'render/kubocd-render',
        flags: [
          {
            name: 'package',
            kind: 'string',
            filename: true,
            help: 'The Package manifest (a file, or oci://host/repo:tag of a KuboCD package image)',
          },
          {
            name: 'context',
            kind: 'stringArray',
            filename: true,
            help: 'File holding Context resources, merged in order (later wins). May be repeated.',
          },
          {
            name: 'config',
            kind: 'stringArray',
            filename: true,
            help: 'File holding Config resources (image redirects). May be repeated.',
          },
          {
            name: 'out',
            kind: 'string',
            filename: true,
            help: 'Write the files into this directory (model.yaml first) instead of printing them',
          },
        ],
      },
      {
        name: 'dump',
        summary: 'Inspect KuboCD manifests without running them',
        usage: 'kubecfg kubocd dump package MANIFEST',
        args: 'none',
        flags: [],
        subcommands: [
          {
            name: 'package',
            summary: 'Parse a Package manifest: functions outside the list, colliding keys, every problem',
            usage: 'kubecfg kubocd dump package MANIFEST',
            args: 'exactlyOne',
            method: 'render/kubocd-dump-package',
            flags: [],
          },
        ],
      },
    ],
  },
  // KCL (docs/kcl.md): what a KCL program or package tree evaluates to, as `kcl run` prints it.
  {
    name: 'kcl',
    summary: 'Evaluate KCL configuration trees',
    usage: 'kubecfg kcl run [flags] PATH...',
    args: 'none',
    flags: [],
    subcommands: [
      {
        name: 'run',
        summary: 'Print what KCL files, or the package in a directory, evaluate to, as kcl run does',
        usage: 'kubecfg kcl run [flags] FILE.k...|DIR',
        args: 'atLeastOne',
        method: 'render/kcl-run',
        flags: [
          {
            name: 'argument',
            short: 'D',
            kind: 'stringArray',
            help: 'Top-level argument name=value, read with option("name"). May be repeated.',
          },
          formatFlag,
          { name: 'sort-keys', short: 'k', kind: 'bool', help: 'Sort the keys of every mapping in the output' },
          { name: 'disable-none', short: 'd', kind: 'bool', help: 'Leave out attributes whose value is None' },
        ],
      },
    ],
  },
  // myks (docs/myks.md): a legacy ytt data-values repository converted to a KCL tree.
  {
    name: 'myks',
    summary: 'myks repository tools',
    usage: 'kubecfg myks migrate [flags] [DIR]',
    args: 'none',
    flags: [],
    subcommands: [
      {
        name: 'migrate',
        summary: 'Convert a legacy ytt data-values repository to the KCL tree that resolves to the same values',
        usage: 'kubecfg myks migrate [--dry-run] [--verify] [DIR]',
        args: 'any',
        method: 'render/myks-migrate',
        flags: [
          { name: 'dry-run', kind: 'bool', help: 'Print the files instead of writing them' },
          {
            name: 'verify',
            kind: 'bool',
            help: 'Compare every environment leaf of the KCL tree with the legacy files; report each difference',
          },
        ],
      },
    ],
  },
  {
    name: 'version',
    summary: 'Print version information',
    usage: 'kubecfg version [flags]',
    args: 'none',
    flags: [
      {
        name: 'output',
        short: 'o',
        kind: 'string',
        default: 'text',
        values: ['text', 'json'],
        help: 'Output format: text or json',
      },
    ],
  },
  {
    name: 'completion',
    summary: 'Output shell completion code for bash, zsh or fish',
    usage: 'kubecfg completion [--shell bash|zsh|fish]',
    // kubecfg takes no argument and reads --shell (or guesses from $SHELL); the positional form is ours, kept.
    args: 'any',
    flags: [
      {
        name: 'shell',
        kind: 'string',
        help: 'Shell variant for which to generate completions (default: guessed from $SHELL)',
      },
    ],
  },
] as const satisfies readonly CommandSpec[];

export const COMMANDS: readonly CommandSpec[] = CATALOG;

/** Dashed paths (`cleat-argocd-generate`) of the entries below `Cs` that have a daemon method. */
type DaemonPaths<Cs, Prefix extends string> = Cs extends readonly (infer C)[] ? PathsOf<C, Prefix> : never;
type PathsOf<C, Prefix extends string> = C extends { readonly name: infer N extends string }
  ? | (C extends { readonly method: string } ? `${Prefix}${N}` : never)
    | (C extends { readonly subcommands: infer S } ? DaemonPaths<S, `${Prefix}${N}-`> : never)
  : never;

/** Every command the daemon runs, by dashed path: the keys of the server's implementation table. */
export type DaemonCommandName = DaemonPaths<typeof CATALOG, ''>;

/**
 * A command by its dashed path: `show`, or `cleat-export` for the subcommand `export` of the
 * `cleat` group. The daemon names commands this way (one word per method).
 */
export function findCommand(name: string): CommandSpec | undefined {
  return commandIndex().byPath.get(name);
}

/**
 * Every command with its dashed path, groups before their subcommands, at any depth
 * (`cleat-argocd-generate`), walked once: the protocol's tables look up every daemon command by
 * path when the CLI loads, and a walk per lookup cost a warm `show` ~5-10 ms of CPU.
 */
let index: { list: readonly [string, CommandSpec][]; byPath: ReadonlyMap<string, CommandSpec> } | undefined;
function commandIndex(): NonNullable<typeof index> {
  if (index) return index;
  const walk = (prefix: string, cs: readonly CommandSpec[]): [string, CommandSpec][] =>
    cs.flatMap((c): [string, CommandSpec][] => [
      [prefix + c.name, c],
      ...walk(`${prefix}${c.name}-`, c.subcommands ?? []),
    ]);
  const list = walk('', COMMANDS);
  // The first of a path wins, as the linear search did.
  const byPath = new Map<string, CommandSpec>();
  for (const [path, c] of list) if (!byPath.has(path)) byPath.set(path, c);
  return (index = { list, byPath });
}

/** Every command that runs in the daemon, keyed by its dashed path (see findCommand). */
export function daemonCommandNames(): DaemonCommandName[] {
  return commandIndex()
    .list.filter(([, c]) => c.method)
    .map(([path]) => path as DaemonCommandName);
}

/** The env variable a global flag maps to: `ext-str` → `KUBECFG_EXT_STR`. */
export function envNameOf(flag: FlagSpec): string {
  return 'KUBECFG_' + flag.name.toUpperCase().replace(/-/g, '_');
}

/** Every flag a command accepts: its own, then the global ones. */
export function flagsOf(command: CommandSpec): readonly FlagSpec[] {
  // A command's own flag shadows a global one of the same name (kubocd render's --context).
  return [...command.flags, ...GLOBAL_FLAGS.filter((g) => !command.flags.some((f) => f.name === g.name))];
}

/** The main-thread stage a daemon command has, if any (see CommandSpec.mainStage). */
export function mainStageOf(name: DaemonCommandName): MainStageName | undefined {
  return findCommand(name)?.mainStage;
}
