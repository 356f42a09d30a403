/**
 * `kubecfg cleat argocd generate|parameters|plugin|dockerfile`: Cleat as an
 * Argo CD config management plugin (docs/cleat.md, "Argo CD").
 *
 * generate is the plugin's generate step: `cleat export --target argocd` of
 * FILE, with `--argocd-params` reading the inputs from ARGOCD_APP_PARAMETERS
 * in the client's environment (params.env; spec §8). Argo CD runs it in the
 * application's directory of a repository copy; unless --root is given, the
 * project root is that copy's top (the cwd minus ARGOCD_APP_SOURCE_PATH), as
 * spec §4.1 says ("In Argo CD it is the repository checkout"). parameters
 * prints the inputs as UI parameter announcements (the JSON parameters.dynamic
 * expects); plugin and dockerfile print the plugin's files. Env values are
 * part of the cache key (params.env), so results stay cacheable.
 */
import { sep } from 'node:path';
import { DependencyRecorder } from '../../cache/index.js';
import { argocdParameterAnnouncements, exportProgram, type InputSources } from '../../lang/cleat/index.js';
import { pluginManifest, pluginOptionsProblem, sidecarDockerfile } from '../../lang/cleat/argocd-plugin.js';
import type { CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import { diagnosticsText, exportText, failed, inputFiles, openProgram, type Program } from './cleat.js';
import { Flags } from './flags.js';
import type { RunContext } from './run-context.js';

/**
 * The repository copy's top: `cwd` without its trailing ARGOCD_APP_SOURCE_PATH
 * components. Undefined (the usual root rule applies) outside Argo CD or when
 * the cwd does not end with that path.
 */
export function argocdCheckoutRoot(cwd: string, env: Record<string, string>): string | undefined {
  const sourcePath = env.ARGOCD_APP_SOURCE_PATH;
  if (sourcePath === undefined) return undefined;
  const parts = sourcePath.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return undefined;
  const cwdParts = cwd.split(sep);
  const tail = cwdParts.slice(cwdParts.length - parts.length);
  if (parts.length >= cwdParts.length - 1 || tail.join('/') !== parts.join('/')) return undefined;
  return cwdParts.slice(0, cwdParts.length - parts.length).join(sep);
}

export function runCleatArgocdGenerate(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const flags = new Flags('cleat-argocd-generate', params);
  const recorder = new DependencyRecorder();
  let program: Program;
  let files: ReturnType<typeof inputFiles>;
  try {
    program = openProgram(flags, params, recorder, argocdCheckoutRoot(params.cwd, params.env));
    files = inputFiles(program, params, flags.list('input'));
  } catch (err) {
    return failed(err, recorder, params);
  }
  const cacheable = program.pathsAreReal && !program.loader.uncacheable;
  if (!Array.isArray(files)) {
    return { exitCode: 1, stdout: '', stderr: diagnosticsText([files]), deps: recorder.deps(), cacheable };
  }
  const sources: InputSources = { files, sets: flags.list('set') };
  if (flags.bool('argocd-params')) {
    const text = params.env.ARGOCD_APP_PARAMETERS;
    // Argo CD sends only the parameters the Application sets; none set means none sent.
    sources.argocdParameters = text === undefined || text.trim() === '' ? '[]' : text;
  }
  const format = flags.str('format') === 'json' ? 'json' : 'yaml';
  const result = exportProgram(program.source, program.loader, sources, { format, target: 'argocd' });
  if (!result.ok) {
    return { exitCode: 1, stdout: '', stderr: diagnosticsText(result.diagnostics), deps: recorder.deps(), cacheable };
  }
  return { exitCode: 0, stdout: exportText(result, format), stderr: '', deps: recorder.deps(), cacheable };
}

export function runCleatArgocdParameters(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const flags = new Flags('cleat-argocd-parameters', params);
  const recorder = new DependencyRecorder();
  let program: Program;
  try {
    program = openProgram(flags, params, recorder, argocdCheckoutRoot(params.cwd, params.env));
  } catch (err) {
    return failed(err, recorder, params);
  }
  const cacheable = program.pathsAreReal && !program.loader.uncacheable;
  const result = argocdParameterAnnouncements(program.source, program.loader);
  if (!result.ok) {
    return { exitCode: 1, stdout: '', stderr: diagnosticsText(result.diagnostics), deps: recorder.deps(), cacheable };
  }
  return {
    exitCode: 0,
    stdout: `${JSON.stringify(result.json, null, 2)}\n`,
    stderr: '',
    deps: recorder.deps(),
    cacheable,
  };
}

export function runCleatArgocdPlugin(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const flags = new Flags('cleat-argocd-plugin', params);
  const options = { name: flags.str('name'), entry: flags.str('entry') };
  const problem = pluginOptionsProblem(options);
  if (problem !== undefined)
    return { exitCode: 1, stdout: '', stderr: `ERROR ${problem}\n`, deps: [], cacheable: true };
  return { exitCode: 0, stdout: pluginManifest(options), stderr: '', deps: [], cacheable: true };
}

export function runCleatArgocdDockerfile(_params: CommandParams, _ctx: RunContext): CommandOutcome {
  return { exitCode: 0, stdout: sidecarDockerfile(), stderr: '', deps: [], cacheable: true };
}
