/**
 * `kubecfg myks migrate [DIR] [--dry-run] [--verify]`: the file side of the
 * converter (lang/myks, pure). Reads the legacy repository through the
 * request's DependencyRecorder, refuses to overwrite any file the conversion
 * would write (nothing is written then), and writes the tree with the user's
 * modes (user-files.ts). `--dry-run` prints the files instead; `--verify`
 * reports, per environment and path, every value the KCL tree resolves
 * differently from the legacy files, and exits 1 when there is one. Writes
 * files, so the result is never cached.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CacheFileError, DependencyRecorder } from '../../cache/index.js';
import { MigrateError, migrate, type MigrateHost } from '../../lang/myks/index.js';
import { YttError } from '../../lang/ytt/index.js';
import { KclError } from '../../lang/kcl/index.js';
import { logLine, logStyle, type CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import { describeError } from './errors.js';
import { Flags } from './flags.js';
import type { RunContext } from './run-context.js';
import { umaskOf, writeUserFile } from './user-files.js';

function recorderHost(recorder: DependencyRecorder, root: string): MigrateHost {
  const absent = (err: unknown): boolean =>
    err instanceof CacheFileError &&
    ['CACHE_FILE_NOT_FOUND', 'CACHE_NOT_REGULAR_FILE', 'CACHE_NOT_DIRECTORY'].includes(err.code);
  return {
    read: (p) => {
      try {
        return new TextDecoder('utf-8').decode(recorder.readFile(join(root, p)));
      } catch (err) {
        if (absent(err)) return undefined;
        throw err;
      }
    },
    list: (d) => {
      try {
        return recorder.listDir(join(root, d)).map((e) => ({ name: e.name, dir: e.kind === 'directory' }));
      } catch (err) {
        if (absent(err)) return undefined;
        throw err;
      }
    },
  };
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));

export function runMyksMigrate(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const flags = new Flags('myks-migrate', params);
  const root = flags.path(params.args[0] ?? '.');
  const recorder = new DependencyRecorder();
  let stdout = '';
  let stderr = '';
  const fail = (msg: string): CommandOutcome => ({
    exitCode: 1,
    stdout,
    stderr: stderr + logLine(logStyle(params.tty), 'ERROR', msg),
    deps: recorder.deps(),
    cacheable: false,
  });
  if (params.args.length > 1) return fail(`myks migrate takes at most one directory, got ${params.args.length}`);
  let result;
  try {
    result = migrate(recorderHost(recorder, root), basename(root));
  } catch (err) {
    if (err instanceof YttError || err instanceof KclError || err instanceof MigrateError)
      return fail(`${root}: ${err.message}`);
    return fail(`${root}: ${describeError(err)}`);
  }
  const dryRun = flags.bool('dry-run');
  if (dryRun) for (const [p, text] of result.files) stdout += `# ${p}\n${text}${text.endsWith('\n') ? '' : '\n'}`;
  else {
    const existing = [...result.files.keys()].filter((p) => existsSync(join(root, p)));
    if (existing.length > 0)
      return fail(
        `refusing to overwrite existing files (nothing was written): ${existing.map((p) => join(root, p)).join(', ')}`,
      );
    const umask = umaskOf(params);
    for (const [p, text] of result.files) writeUserFile(join(root, p), text, umask, { exclusive: true });
    stderr += `wrote ${result.files.size} files under ${root}\n`;
  }
  for (const w of result.warnings) stderr += `WARNING ${w}\n`;
  for (const n of result.notes) stderr += `NOTE ${n}\n`;
  let exitCode = 0;
  if (flags.bool('verify')) {
    if (result.differences.length === 0)
      stderr += `verified: ${result.leaves.length} environment(s) resolve to the legacy values (${result.leaves.join(', ')})\n`;
    else {
      exitCode = 1;
      for (const d of result.differences)
        stderr += `DIFF environment ${d.env}${d.app ? ` application ${d.app}` : ''}: ${d.path || '(whole)'}: legacy ${show(d.legacy)}, KCL ${show(d.kcl)}\n`;
    }
  }
  return { exitCode, stdout, stderr, deps: recorder.deps(), cacheable: false };
}
