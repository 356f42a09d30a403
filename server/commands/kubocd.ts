/**
 * `kubecfg kubocd render RELEASE.yaml --package FILE [--context FILE…]
 * [--config FILE…] [--out DIR]` and `kubecfg kubocd dump package MANIFEST`:
 * the file side of lang/kubocd (pure). Every read goes through the request's
 * DependencyRecorder, so a printed result is cached and invalidated like any
 * render; writing `--out DIR` makes the outcome uncacheable.
 *
 * Charts: a module whose source is `local: {path}` gets its chart read from
 * that directory (or .tgz), relative to the Package file; modules with other
 * sources (oci, helmRepository, git) get their HelmRelease but no manifests,
 * and a line on stderr says so.
 *
 * `--package oci://REGISTRY/REPO:TAG` (or `@sha256:…`) reads a package image
 * as `kubocd package` publishes it (../remote-inputs/kubocd-fetch.ts): the render asks the
 * request's remote session for the image's content layer (the fetcher gets
 * it in the main thread with the client's docker credentials and
 * --insecure-registry, then the render runs again) and renders with its
 * original.yaml and every module's chart from the image. A tag's digest is a
 * dependency of the cached result, re-checked like an OCI bundle tag.
 *
 * Output: `--out DIR` gets model.yaml first, then the HelmReleases, then the
 * manifests (as `kubocd render` writes them); without it each file is printed
 * as a YAML document headed `# Source: PATH`. On a failure the files produced
 * before it are still written or printed (model.yaml reproduces it), the
 * error goes to stderr and the exit code is 1.
 */
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { DependencyRecorder } from '../../cache/index.js';
import { loadChart, loadChartArchive, type Chart } from '../../lang/helm/index.js';
import {
  dumpPackage,
  KubocdError,
  readPackageManifest,
  renderRelease,
  type OutputFile,
} from '../../lang/kubocd/index.js';
import { marshalKubecfgYaml } from '../../render/output/yaml.js';
import type { CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import { parseReference } from '../../oci/reference.js';
import { currentRemoteSession } from '../remote-inputs/remote-session.js';
import { describeError } from './errors.js';
import { replaceUserFile, umaskOf } from './user-files.js';
import { Flags } from './flags.js';
import { KubocdFetchError } from '../remote-inputs/kubocd-fetch.js';
import { readKubocdPackageArchive } from './kubocd-package-archive.js';
import { CommandOutput, logStyle } from './output.js';
import type { RunContext } from './run-context.js';

/** A problem with the command's inputs (missing flag, unreadable chart): the message names the file. */
class KubocdCliError extends Error {}

function describe(err: unknown): string {
  if (err instanceof KubocdError || err instanceof KubocdCliError || err instanceof KubocdFetchError)
    return err.message;
  return describeError(err);
}

function readText(recorder: DependencyRecorder, flags: Flags, file: string): string {
  return new TextDecoder('utf-8').decode(recorder.readFile(flags.path(file)));
}

/** Every regular file under `dir`, keyed `prefix/relative/path` (symlinks are refused, as Helm refuses them in packages). */
function readTree(recorder: DependencyRecorder, dir: string, prefix: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const walk = (abs: string, rel: string): void => {
    for (const entry of recorder.listDir(abs)) {
      const childAbs = join(abs, entry.name);
      const childRel = `${rel}/${entry.name}`;
      if (entry.kind === 'directory') walk(childAbs, childRel);
      else if (entry.kind === 'file') out.set(childRel, recorder.readFile(childAbs));
      else throw new KubocdCliError(`${childAbs}: charts may hold only regular files and directories`);
    }
  };
  walk(dir, prefix);
  return out;
}

interface ChartsRead {
  charts: Map<string, Chart>;
  /** Modules whose chart this build does not fetch. */
  skipped: string[];
}

function localCharts(recorder: DependencyRecorder, packageFile: string, packageText: string): ChartsRead {
  const pkg = readPackageManifest(packageText);
  const charts = new Map<string, Chart>();
  const skipped: string[] = [];
  for (const module of pkg.modules) {
    const local = module.source['local'];
    const path =
      local !== null && typeof local === 'object' && !Array.isArray(local)
        ? (local as Record<string, unknown>)['path']
        : undefined;
    if (typeof path !== 'string' || path === '') {
      skipped.push(module.name);
      continue;
    }
    const abs = isAbsolute(path) ? path : resolve(dirname(packageFile), path);
    try {
      if (abs.endsWith('.tgz') || abs.endsWith('.tar.gz'))
        charts.set(module.name, loadChartArchive(recorder.readFile(abs)));
      else charts.set(module.name, loadChart(readTree(recorder, abs, abs.split(sep).pop() ?? 'chart')));
    } catch (err) {
      throw new KubocdCliError(`module ${module.name}: chart ${abs}: ${describeError(err)}`);
    }
  }
  return { charts, skipped };
}

interface PackageRead extends ChartsRead {
  packageText: string;
}

/**
 * The package image `oci://…`: its content layer from the request's remote
 * session (a missing one is recorded as a need, and this round's outcome is
 * thrown away), then original.yaml and every module's chart from it.
 */
function ociPackage(packageArg: string): PackageRead {
  const reference = packageArg.slice('oci://'.length);
  let pinnedByDigest: boolean;
  try {
    pinnedByDigest = parseReference(reference).digest !== undefined;
  } catch (err) {
    throw new KubocdCliError(`--package ${packageArg}: ${describeError(err)}`);
  }
  const session = currentRemoteSession();
  if (session === undefined)
    throw new KubocdCliError(
      `--package ${packageArg}: package images are fetched only by the daemon or --no-daemon runs`,
    );
  const entry = session.kubocdPackage(reference, pinnedByDigest);
  if (entry.status === 'error') throw new KubocdCliError(`--package ${packageArg}: ${entry.message}`);
  const layer = new Uint8Array(Buffer.from(entry.contentBase64, 'base64'));
  const { packageText, charts } = readKubocdPackageArchive(layer, entry.pinned);
  return { packageText, charts, skipped: [] };
}

function filePackage(recorder: DependencyRecorder, flags: Flags, packageArg: string): PackageRead {
  const packageText = readText(recorder, flags, packageArg);
  return { packageText, ...localCharts(recorder, flags.path(packageArg), packageText) };
}

/** Writes the files under `dir` in order (model.yaml first), each atomically. */
function writeOutDir(dir: string, files: readonly OutputFile[], umask: number): void {
  for (const f of files) {
    const target = resolve(dir, f.path);
    if (!target.startsWith(dir + sep)) throw new KubocdCliError(`${f.path}: output path leaves ${dir}`);
    try {
      replaceUserFile(target, f.text, umask);
    } catch (err) {
      throw new KubocdCliError(`${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }
}

function printFiles(out: CommandOutput, files: readonly OutputFile[]): void {
  for (const f of files) {
    const text = f.text.endsWith('\n') || f.text === '' ? f.text : `${f.text}\n`;
    out.stdout(`---\n# Source: ${f.path}\n${text}`);
  }
}

export function runKubocdRender(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const flags = new Flags('kubocd-render', params);
  const recorder = new DependencyRecorder();
  const out = new CommandOutput(logStyle(params.tty));
  const releaseArg = params.args[0] ?? '';
  const outDir = flags.str('out') === '' ? undefined : flags.path(flags.str('out'));
  let exitCode = 0;
  try {
    const packageArg = flags.str('package');
    if (packageArg === '')
      throw new KubocdCliError('--package is required: the Package manifest file the Release is rendered with');
    const release = readText(recorder, flags, releaseArg);
    const contexts = flags.list('context').map((f) => readText(recorder, flags, f));
    const configs = flags.list('config').map((f) => readText(recorder, flags, f));
    const { packageText, charts, skipped } = packageArg.startsWith('oci://')
      ? ociPackage(packageArg)
      : filePackage(recorder, flags, packageArg);
    for (const name of skipped)
      out.log('INFO', `module ${name}: only local chart sources are read; its HelmRelease is rendered, not its chart`);
    const result = renderRelease({ release, package: packageText, contexts, configs, charts });
    if (outDir !== undefined) writeOutDir(outDir, result.files, umaskOf(params));
    else printFiles(out, result.files);
    if (result.error) {
      out.log('ERROR', `${releaseArg}: ${result.error.message}`);
      exitCode = 1;
    }
  } catch (err) {
    out.log('ERROR', `${releaseArg}: ${describe(err)}`);
    exitCode = 1;
  }
  return {
    exitCode,
    stdout: out.stdoutText(),
    stderr: out.stderrText(),
    deps: recorder.deps(),
    cacheable: outDir === undefined,
  };
}

export function runKubocdDumpPackage(params: CommandParams, _ctx: RunContext): CommandOutcome {
  const flags = new Flags('kubocd-dump-package', params);
  const recorder = new DependencyRecorder();
  const out = new CommandOutput(logStyle(params.tty));
  const file = params.args[0] ?? '';
  let exitCode = 0;
  try {
    const dump = dumpPackage(readText(recorder, flags, file));
    if (dump.manifest !== undefined) out.stdout(marshalKubecfgYaml(dump.manifest));
    for (const name of dump.unknownFunctions)
      out.log('ERROR', `${file}: function ${JSON.stringify(name)} is not in the KuboCD function list`);
    for (const message of dump.errors) out.log('ERROR', `${file}: ${message}`);
    if (!dump.ok) exitCode = 1;
  } catch (err) {
    out.log('ERROR', `${file}: ${describe(err)}`);
    exitCode = 1;
  }
  return { exitCode, stdout: out.stdoutText(), stderr: out.stderrText(), deps: recorder.deps(), cacheable: true };
}
