/**
 * `kubecfg cleat-check FILE`, `cleat-export FILE` and `cleat-gen SCHEMA`: the
 * Cleat language (lang/cleat, docs/cleat.md) behind the CLI. check prints
 * each diagnostic as `file:line:col: CODE: message (at path)` and exits 1 when
 * there is one; export prints the documents (YAML or JSON, plain / argocd /
 * flux target) or the diagnostics; gen prints the Cleat types of an OpenAPI
 * document or CRDs. Files come through cleat-loader.ts (confined to the
 * project root, recorded as dependencies). A result that read through a
 * symlink, or failed on something the deps do not capture, is not cached.
 */
import { extname, resolve } from 'node:path';
import { DependencyRecorder } from '../../cache/index.js';
import type { Diagnostic } from '../../lang/common/source.js';
import {
  check,
  decodeValue,
  exportProgram,
  formatDiagnostic,
  generateSchemaTypes,
  isInsideRoot,
  type CleatSource,
  type ExportOptions,
  type ExportResult,
  type InputSources,
} from '../../lang/cleat/index.js';
import { decodeFailure } from '../../lang/cleat/decode.js';
import { logLine, logStyle, type CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import {
  CleatFileError,
  confinedLoader,
  findProjectRoot,
  realParentPath,
  type ConfinedLoader,
} from './cleat-loader.js';
import { describeError } from './errors.js';
import { Flags } from './flags.js';
import type { RunContext } from './run-context.js';

export interface Program {
  source: CleatSource;
  loader: ConfinedLoader;
  /** False when the entry's directory or the root went through a symlink (not recorded as deps). */
  pathsAreReal: boolean;
}

function dataFormat(path: string): 'json' | 'yaml' {
  return extname(path).toLowerCase() === '.json' ? 'json' : 'yaml';
}

/** Reads `arg` (relative to the client's cwd) through the loader, refusing paths outside its root. */
function readInside(loader: ConfinedLoader, cwd: string, arg: string, what: string): { path: string; text: string } {
  const path = realParentPath(cwd, arg);
  if (!isInsideRoot(loader.root, path)) throw new CleatFileError(`${what}: outside the project root (see --root)`);
  const text = loader.read(path);
  if (typeof text !== 'string') throw new CleatFileError(`${what}: ${text.error}`);
  return { path, text };
}

/** The entry FILE and its loader; `defaultRoot` (absolute) stands in for an absent --root. */
export function openProgram(
  flags: Flags,
  params: CommandParams,
  recorder: DependencyRecorder,
  defaultRoot?: string,
): Program {
  const arg = params.args[0]!;
  const entry = realParentPath(params.cwd, arg);
  const rootFlag = flags.given('root') ? flags.str('root') : defaultRoot;
  const root = findProjectRoot(entry, rootFlag, params.cwd, recorder);
  const loader = confinedLoader(root, recorder);
  const { path, text } = readInside(loader, params.cwd, arg, arg);
  const pathsAreReal =
    entry === resolve(params.cwd, arg) && (rootFlag === undefined || root === resolve(params.cwd, rootFlag));
  return { source: { path, text }, loader, pathsAreReal };
}

export function diagnosticsText(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join('');
}

/** Not cached: a missing directory or a refused path is not among the recorded deps. */
export function failed(err: unknown, deps: DependencyRecorder, params: CommandParams): CommandOutcome {
  const message = err instanceof CleatFileError ? err.message : describeError(err);
  return {
    exitCode: 1,
    stdout: '',
    stderr: logLine(logStyle(params.tty), 'ERROR', message),
    deps: deps.deps(),
    cacheable: false,
  };
}

export function runCleatCheck(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const recorder = new DependencyRecorder();
  let program: Program;
  try {
    program = openProgram(new Flags('cleat-check', params), params, recorder);
  } catch (err) {
    return failed(err, recorder, params);
  }
  const result = check(program.source, program.loader);
  return {
    exitCode: result.ok ? 0 : 1,
    stdout: '',
    stderr: diagnosticsText(result.diagnostics),
    deps: recorder.deps(),
    cacheable: program.pathsAreReal && !program.loader.uncacheable,
  };
}

/** Decodes each `--input FILE` (inside the root) into an object of inputs; a bad file is a located diagnostic. */
export type InputFiles = NonNullable<InputSources['files']>;

export function inputFiles(program: Program, params: CommandParams, files: readonly string[]): InputFiles | Diagnostic {
  const out: InputFiles = [];
  for (const file of files) {
    const what = `--input ${file}`;
    const { path, text } = readInside(program.loader, params.cwd, file, what);
    try {
      out.push({ name: file, value: decodeValue(text, dataFormat(path)) });
    } catch (err) {
      return decodeFailure(err, what).toDiagnostic();
    }
  }
  return out;
}

/**
 * The flux target's files follow its Kustomizations: in YAML each one after a
 * `# Source: <path>` comment (the stream stays valid YAML); in JSON one object
 * `{"kustomizations": ..., "files": [{"path", "content"}]}`, composed from the
 * exact texts so 64-bit ints keep their digits.
 */
export function exportText(result: Extract<ExportResult, { ok: true }>, format: 'yaml' | 'json'): string {
  if (!result.files) return result.text;
  if (format === 'yaml') {
    return result.text + result.files.map((f) => `# Source: ${f.path}\n${f.text}`).join('');
  }
  const files = result.files.map((f) => `{"path": ${JSON.stringify(f.path)}, "content": ${f.text.trimEnd()}}`);
  return `{"kustomizations": ${result.text.trimEnd()}, "files": [${files.join(', ')}]}\n`;
}

export function runCleatExport(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const flags = new Flags('cleat-export', params);
  const recorder = new DependencyRecorder();
  let program: Program;
  let files: InputFiles | Diagnostic;
  try {
    program = openProgram(flags, params, recorder);
    files = inputFiles(program, params, flags.list('input'));
  } catch (err) {
    return failed(err, recorder, params);
  }
  const cacheable = program.pathsAreReal && !program.loader.uncacheable;
  if (!Array.isArray(files)) {
    return { exitCode: 1, stdout: '', stderr: diagnosticsText([files]), deps: recorder.deps(), cacheable };
  }
  const format = flags.str('format') === 'json' ? 'json' : 'yaml';
  const target = flags.str('target');
  const options: ExportOptions = {
    format,
    target: target === 'argocd' || target === 'flux' ? target : 'plain',
  };
  const result = exportProgram(program.source, program.loader, { files, sets: flags.list('set') }, options);
  if (!result.ok) {
    return { exitCode: 1, stdout: '', stderr: diagnosticsText(result.diagnostics), deps: recorder.deps(), cacheable };
  }
  return { exitCode: 0, stdout: exportText(result, format), stderr: '', deps: recorder.deps(), cacheable };
}

export function runCleatGen(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const recorder = new DependencyRecorder();
  const arg = params.args[0]!;
  let text: string;
  try {
    text = new TextDecoder('utf-8').decode(recorder.readFile(resolve(params.cwd, arg)));
  } catch (err) {
    return failed(err, recorder, params);
  }
  const result = generateSchemaTypes(text, dataFormat(arg));
  if (!result.ok) {
    return {
      exitCode: 1,
      stdout: '',
      stderr: logLine(logStyle(params.tty), 'ERROR', `${arg}: ${result.message}`),
      deps: recorder.deps(),
      cacheable: true,
    };
  }
  return { exitCode: 0, stdout: result.text, stderr: '', deps: recorder.deps(), cacheable: true };
}
