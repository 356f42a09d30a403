/**
 * `kubecfg fmt [-i] [--test] FILE...`: jsonnetfmt's output for each file
 * (lang/jsonnet/fmt), with jsonnetfmt's options; `kubecfg yaklfmt` does the
 * same for .yakl files (lang/yakl formatYakl, feature yakl). Without -i/--test the
 * formatted text is printed; -i rewrites each changed file atomically, keeping
 * its mode and owner (user-files.ts replaceUserFile); --test changes nothing and exits 1 listing the files that are not
 * formatted. A file with a syntax error is left untouched and its located
 * error printed; the other files are still processed.
 */
import { resolve } from 'node:path';
import { DependencyRecorder } from '../../cache/index.js';
import { formatJsonnet, type FormatOptions } from '../../lang/jsonnet/fmt/index.js';
import { formatYakl } from '../../lang/yakl/index.js';
import { gatesFor } from './features.js';
import { logLine, logStyle, type CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import { describeError } from './errors.js';
import { replaceUserFile, umaskOf } from './user-files.js';
import { Flags } from './flags.js';
import type { RunContext } from './run-context.js';

function styleFlag<T extends string>(flags: Flags, name: string, allowed: readonly T[]): T | undefined {
  if (!flags.given(name)) return undefined;
  const v = flags.str(name);
  if (!(allowed as readonly string[]).includes(v)) {
    throw new Error(`invalid --${name} "${v}": want one of ${allowed.join(', ')}`);
  }
  return v as T;
}

/** A `--x` / `--no-x` pair: the later-parsed one is not knowable here, so both given is an error. */
function pairFlag(flags: Flags, name: string): boolean | undefined {
  const on = flags.given(name) && flags.bool(name);
  const off = flags.given(`no-${name}`) && flags.bool(`no-${name}`);
  if (on && off) throw new Error(`--${name} and --no-${name} contradict each other`);
  return on ? true : off ? false : undefined;
}

function formatOptionsFrom(flags: Flags): FormatOptions {
  const opts: FormatOptions = {};
  if (flags.given('indent')) opts.indent = flags.int('indent');
  if (flags.given('max-blank-lines')) opts.maxBlankLines = flags.int('max-blank-lines');
  const ss = styleFlag(flags, 'string-style', ['d', 's', 'l'] as const);
  if (ss) opts.stringStyle = ss;
  const cs = styleFlag(flags, 'comment-style', ['h', 's', 'l'] as const);
  if (cs) opts.commentStyle = cs;
  const pairs: [string, keyof FormatOptions][] = [
    ['pad-arrays', 'padArrays'],
    ['pad-objects', 'padObjects'],
    ['pretty-field-names', 'prettyFieldNames'],
    ['sort-imports', 'sortImports'],
  ];
  for (const [flag, key] of pairs) {
    const v = pairFlag(flags, flag);
    if (v !== undefined) (opts as Record<string, unknown>)[key] = v;
  }
  return opts;
}

/** A command refused before reading any file (bad flags, a feature off): kubecfg's log line, nothing else. */
function refused(params: CommandParams, err: unknown, cacheable: boolean): CommandOutcome {
  return {
    exitCode: 1,
    stdout: '',
    stderr: logLine(logStyle(params.tty), 'ERROR', describeError(err)),
    deps: [],
    cacheable,
  };
}

export function runFmt(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const flags = new Flags('fmt', params);
  let options: FormatOptions;
  try {
    options = formatOptionsFrom(flags);
  } catch (err) {
    return refused(params, err, false);
  }
  return formatFiles(flags, params, (name, text) => formatJsonnet(name, text, options));
}

export function runYaklfmt(params: CommandParams, ctx: RunContext): CommandOutcome {
  const flags = new Flags('yaklfmt', params);
  try {
    const gates = gatesFor(flags, ctx.rc);
    for (const arg of params.args) gates.require('yakl', arg);
  } catch (err) {
    return refused(params, err, true);
  }
  return formatFiles(flags, params, formatYakl);
}

/** The file loop both formatters share: print, rewrite in place (-i) or test (--test). */
function formatFiles(
  flags: Flags,
  params: CommandParams,
  format: (fileName: string, text: string) => string,
): CommandOutcome {
  const recorder = new DependencyRecorder();
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  const inPlace = flags.bool('in-place');
  const testOnly = flags.bool('test');
  const umask = umaskOf(params);
  if (inPlace && testOnly) {
    return {
      exitCode: 1,
      stdout,
      stderr: 'ERROR --in-place and --test cannot be used together\n',
      deps: [],
      cacheable: false,
    };
  }
  for (const arg of params.args) {
    const abs = resolve(params.cwd, arg);
    try {
      const text = new TextDecoder('utf-8').decode(recorder.readFile(abs));
      const formatted = format(arg, text);
      if (testOnly) {
        if (formatted !== text) {
          stdout += `${arg}\n`;
          exitCode = 1;
        }
      } else if (inPlace) {
        if (formatted !== text) replaceUserFile(abs, formatted, umask);
      } else {
        stdout += formatted;
      }
    } catch (err) {
      stderr += describeError(err) + '\n';
      exitCode = 1;
    }
  }
  // -i writes files: never serve it from the result cache.
  return { exitCode, stdout, stderr, deps: recorder.deps(), cacheable: !inPlace };
}
