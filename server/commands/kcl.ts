/**
 * `kubecfg kcl run [-D name=value] [-o yaml|json] [-k] [-d] FILE.k...|DIR`:
 * the file side of lang/kcl (pure). Every read, listing and probe (kcl.mod
 * upwards, the directories an import may name) goes through the request's
 * DependencyRecorder, so a printed result is cached and invalidated like any
 * render, and `--watch`-style re-validation sees added files. Parsed files
 * are kept by this worker keyed by path and content digest (an edited file
 * misses), as parsed Jsonnet modules are. A KCL error is printed the way
 * `kcl` prints it (kind, file:line:col, the source line) and exits 1.
 */
import { ByteBoundedCache, CacheFileError, DependencyRecorder, digestOf } from '../../cache/index.js';
import { KclError, parseModule, runKcl, type KclHost, type Module } from '../../lang/kcl/index.js';
import type { CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import { describeError } from './errors.js';
import { Flags } from './flags.js';
import { CommandOutput, logStyle } from './output.js';
import type { RunContext } from './run-context.js';

const parsed = new ByteBoundedCache<Module>({ name: 'kcl-parsed-files', maxBytes: 64 * 1024 * 1024 });

/** A KclHost over the recorder: a missing file or directory is an answer (recorded), not an error. */
function recorderHost(recorder: DependencyRecorder): KclHost {
  const digests = new Map<string, string>();
  const absent = (err: unknown, codes: readonly string[]): boolean =>
    err instanceof CacheFileError && codes.includes(err.code);
  return {
    readFile: (path) => {
      try {
        const bytes = recorder.readFile(path);
        digests.set(path, digestOf(bytes));
        return new TextDecoder('utf-8').decode(bytes);
      } catch (err) {
        if (absent(err, ['CACHE_FILE_NOT_FOUND', 'CACHE_NOT_REGULAR_FILE'])) return undefined;
        throw err;
      }
    },
    listDir: (path) => {
      try {
        return recorder.listDir(path).map((e) => ({ name: e.name, dir: e.kind === 'directory' }));
      } catch (err) {
        if (absent(err, ['CACHE_FILE_NOT_FOUND', 'CACHE_NOT_DIRECTORY'])) return undefined;
        throw err;
      }
    },
    parse: (path, text) => {
      const key = `${path}\u0000${digests.get(path) ?? digestOf(new TextEncoder().encode(text))}`;
      const hit = parsed.get(key);
      if (hit) return hit;
      const m = parseModule(path, text);
      parsed.set(key, m, key.length + text.length * 8);
      return m;
    },
  };
}

export function runKclRun(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const flags = new Flags('kcl-run', params);
  const recorder = new DependencyRecorder();
  const out = new CommandOutput(logStyle(params.tty));
  let exitCode = 0;
  try {
    out.stdout(
      runKcl(recorderHost(recorder), {
        paths: params.args.map((a) => flags.path(a)),
        defines: flags.list('argument'),
        format: flags.str('format') === 'json' ? 'json' : 'yaml',
        sortKeys: flags.bool('sort-keys'),
        ignoreNone: flags.bool('disable-none'),
      }),
    );
  } catch (err) {
    if (err instanceof KclError) out.stderr(err.render());
    else out.log('ERROR', describeError(err));
    exitCode = 1;
  }
  return out.outcome(exitCode, recorder.deps(), true);
}
