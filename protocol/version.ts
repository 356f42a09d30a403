/**
 * The wire protocol's version. Bump it on any change a peer of the previous
 * version could misread (a renamed field, a new required param, a changed
 * stream frame). The daemon also compares build ids (hazard 27): equal
 * protocol versions with different build ids still mean "replace the daemon",
 * because a daemon must never run code from another build than the CLI's.
 */
export const PROTOCOL_VERSION = 1;

/** URL path of the JSON-RPC endpoint on the daemon's HTTP server. */
export const RPC_PATH = '/rpc';
/** Liveness probe (plain text "ok"); answered without touching workers. */
export const HEALTH_PATH = '/healthz';
/** Prometheus text exposition. */
export const METRICS_PATH = '/metrics';

/** Content type of a streamed command response: one JSON-RPC message per line. */
export const NDJSON_CONTENT_TYPE = 'application/x-ndjson';

/**
 * Content type of a streamed command response in which output travels as raw bytes: NDJSON lines as
 * above, except that a `stream/bytes` notification line (params: requestId, stream, length) is
 * followed by exactly `length` bytes of output, then the next line. A client asks for it with this
 * type in its `accept` header; other clients get plain NDJSON.
 */
export const FRAMED_CONTENT_TYPE = 'application/x-kubecfg-frames';

/**
 * Request header of a framed request on the daemon's unix socket: `PID DEV INO`, the client's process
 * id and the device and inode numbers of its stdout, sent only when that stdout is a pipe. The daemon
 * may then write a large stdout straight into that pipe (opened through /proc/PID/fd/1, used only if
 * it is a pipe with that device and inode) and send a `stream/direct` notification instead of the
 * bytes. Ignored on TCP (docs/protocol.md, "Output written into the client's pipe").
 */
export const STDOUT_PIPE_HEADER = 'x-kubecfg-stdout-pipe';
