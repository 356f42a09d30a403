#!/bin/sh
# The `kubecfg` command (node_modules/.bin/kubecfg links here). scripts/build.mjs writes it as
# dist/bin/kubecfg, beside the CLI bundle (kubecfg.js) and the startup snapshot (kubecfg.blob).
#
# A command that will render in this process (--no-daemon, or a first call: no daemon's socket
# where the CLI looks) starts Node from the snapshot, whose heap already holds the CLI and the
# engine loaded and warmed up; every other command (a warm daemon call, version, daemon ...)
# starts plain Node, for which deserialising the engine would be wasted. The choice changes only
# how Node starts: the snapshot runs the same CLI, which decides everything itself. See
# docs/performance.md, "Startup snapshot". KUBECFG_STARTUP_SNAPSHOT=0 turns the snapshot off.

# The build's own dist/bin, unless this file was moved or copied since: then follow $0's links.
dir='@BIN_DIR@'
if [ ! "$0" -ef "$dir/kubecfg" ]; then
  self=$0
  while [ -L "$self" ]; do
    link=$(readlink "$self")
    case $link in
      /*) self=$link ;;
      *) self=${self%/*}/$link ;;
    esac
  done
  case $self in
    */*) dir=${self%/*} ;;
    *) dir=. ;;
  esac
fi
cli=$dir/kubecfg.js
blob=$dir/kubecfg.blob
# The Node that built the blob: another Node (or this one upgraded in place) refuses it.
built_node='@BUILT_NODE@'
# The V8 flags the blob was built with (heap sizes of a one-shot render): Node refuses the blob without them.
v8_flags='@V8_FLAGS@'

in_process_render() {
  [ "${KUBECFG_STARTUP_SNAPSHOT-1}" != 0 ] || return 1
  # V8 flags in NODE_OPTIONS (--max-old-space-size ...) make Node refuse any snapshot.
  [ -z "${NODE_OPTIONS-}" ] || return 1
  [ -f "$blob" ] || return 1
  case ${1-} in
    version | daemon | completion | help | __complete) return 1 ;;
  esac
  [ -z "${KUBECFG_REMOTE-}" ] && [ -z "${KUBECFG_DAEMON_URL-}" ] || return 1
  no_daemon=
  case ${KUBECFG_NO_DAEMON-} in 1 | t | T | true | TRUE | True) no_daemon=1 ;; esac
  [ "${KUBECFG_DAEMON-}" != 0 ] || no_daemon=1
  for arg in "$@"; do
    case $arg in
      --no-daemon | --no-daemon=1 | --no-daemon=t | --no-daemon=true) no_daemon=1 ;;
      --remote | --remote=* | --daemon-url | --daemon-url=* | -h | --help) return 1 ;;
    esac
  done
  if [ -z "$no_daemon" ]; then
    # client-cli/paths.ts: a runtime dir too long for a socket is hashed; leave that case to plain Node.
    case ${XDG_RUNTIME_DIR-} in
      /*) sock=$XDG_RUNTIME_DIR/kubecfg/daemon.sock ;;
      *)
        # The real uid, as process.getuid() gives it, without starting `id` on every command.
        uid=
        if [ -r /proc/self/status ]; then
          while read -r key value _; do
            if [ "$key" = Uid: ]; then
              uid=$value
              break
            fi
          done </proc/self/status
        fi
        [ -n "$uid" ] || uid=$(id -u)
        sock=/tmp/kubecfg-$uid/daemon.sock
        ;;
    esac
    [ ${#sock} -le 107 ] && [ ! -S "$sock" ] || return 1
  fi
  node_path=$(command -v node) || return 1
  [ "$node_path" -ef "$built_node" ] && [ ! "$built_node" -nt "$blob" ]
}

if in_process_render "$@"; then
  [ -z "${KUBECFG_BIN_TRACE-}" ] || echo "kubecfg: node --snapshot-blob $blob $v8_flags $cli" >&2
  # shellcheck disable=SC2086 # v8_flags is a list of words
  exec node --snapshot-blob "$blob" $v8_flags "$cli" "$@"
fi
[ -z "${KUBECFG_BIN_TRACE-}" ] || echo "kubecfg: node $cli" >&2
exec node "$cli" "$@"
