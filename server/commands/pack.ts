/**
 * `kubecfg pack REF ENTRY` (feature `pack`), in two halves like the cluster
 * commands. The render half (`planPack`, in a worker or the one-shot process,
 * synchronous) checks the gate and the reference, collects the entry's import
 * closure (pack-closure.ts), evaluates the entry's `_kubecfg_pack_metadata`
 * and reads `--docs-tar-file`; its stdout is a PackPlan as JSON. The network
 * half (`finishPack`, main thread, async) reads the git revision, builds the
 * reproducible artifact (oci/bundle.ts) and either writes the body archive
 * to `--output` (as kubecfg does: the tar.gz only) or pushes blobs then the
 * manifest, with the client's docker credentials.
 *
 * Invariants: never cacheable (it writes files or a registry); the plan
 * carries file contents, so the network half reads nothing but the git
 * metadata, docker config and registry; credentials come from the CLIENT's
 * environment (DOCKER_CONFIG, HOME), never the daemon's.
 */
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { DependencyRecorder } from '../../cache/index.js';
import { KUBECFG_VERSION } from '../../client-cli/build-info.js';
import { isJsonObject, type JsonValue } from '../../lang/common/json.js';
import { evaluateSnippet } from '../../lang/jsonnet/index.js';
import {
  DockerConfigCredentials,
  OCI_MANIFEST,
  OciError,
  PACK_METADATA_FIELD,
  RegistryClient,
  buildBundleArtifact,
  bundlePaths,
  formatReference,
  gitRevision,
  parseAnnotationFlag,
  parseReference,
  type BundleJson,
  type Reference,
} from '../../oci/index.js';
import type { CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import { createEngine } from './engine.js';
import { replaceUserFile, umaskOf } from './user-files.js';
import { describeError } from './errors.js';
import { gatesFor } from './features.js';
import { Flags } from './flags.js';
import { CommandOutput, logLine, logStyle, progressEnabled, sizeText, traceTo, type LogLevel } from './output.js';
import { collectPackClosure, PackError } from './pack-closure.js';
import type { RunContext } from './run-context.js';

/** What the render half hands the network half (JSON on the outcome's stdout). */
export interface PackPlan {
  reference: string;
  /** Bundle-relative path of the entry file. */
  entrypoint: string;
  /** [bundle-relative path, base64 contents], sorted by path. */
  files: [string, string][];
  features: string[];
  userMetadata?: { [key: string]: BundleJson };
  annotations: Record<string, string>;
  /** base64 of --docs-tar-file. */
  docs?: string;
  /** Absolute --output path: write the archive instead of pushing. */
  output?: string;
  /** Directory whose git HEAD is the revision annotation. */
  revisionFrom: string;
  insecureRegistry: boolean;
}

/** `oci://host/repo:tag` and `host/repo:tag` name the same thing; kubecfg takes the latter. */
function packReference(arg: string): Reference {
  return parseReference(arg.startsWith('oci://') ? arg.slice('oci://'.length) : arg);
}

/**
 * The directory packed files must lie in: `--root` (ours), else none, as kubecfg: the bundle then
 * spans the longest common directory of the entry and everything it imports (oci/bundle.ts).
 */
function projectRoot(flags: Flags): string {
  if (flags.given('root') && flags.str('root') !== '') return flags.path(flags.str('root'));
  return '/';
}

function quoteVerbatim(path: string): string {
  return `@'${path.replace(/'/g, "''")}'`;
}

function toBundleJson(value: JsonValue): BundleJson {
  return value;
}

/** The render half. Never throws for bad input. */
export function planPack(params: CommandParams, ctx: RunContext): CommandOutcome {
  const flags = new Flags('pack', params);
  const recorder = new DependencyRecorder();
  const out = new CommandOutput(logStyle(params.tty));
  let exitCode = 0;
  const [refArg = '', entryArg = ''] = params.args;
  try {
    const gates = gatesFor(flags, ctx.rc);
    for (const w of gates.warnings) out.log('WARNING', w);
    gates.require('pack', 'pack');
    if (params.args.length !== 2)
      throw new PackError(`accepts 2 arg(s), received ${params.args.length} (usage: kubecfg pack REF ENTRY.jsonnet)`);
    const reference = packReference(refArg);
    const entry = resolve(params.cwd, entryArg);
    const root = projectRoot(flags);
    const jpath = flags.list('jpath').map((p) => flags.path(p));
    const displayName = (abs: string): string => {
      const rel = relative(params.cwd, abs);
      return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
    };
    const closure = collectPackClosure({ entry, root, jpath, recorder, gates, displayName });
    const { paths, entrypoint } = bundlePaths([...closure.files.keys()], entry);
    const files: [string, string][] = [...closure.files.entries()]
      .map(([abs, data]): [string, string] => [paths.get(abs)!, Buffer.from(data).toString('base64')])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const annotations: Record<string, string> = {};
    for (const a of flags.list('annotation')) {
      const [k, v] = parseAnnotationFlag(a);
      annotations[k] = v;
    }
    const plan: PackPlan = {
      reference: formatReference(reference),
      entrypoint,
      files,
      features: [...closure.features].sort(),
      annotations,
      revisionFrom: dirname(entry),
      insecureRegistry: flags.bool('insecure-registry'),
    };
    if (flags.str('output') !== '') plan.output = flags.path(flags.str('output'));
    else {
      // kubecfg evaluates `std.get(import ENTRY, '_kubecfg_pack_metadata', {})` only when it pushes.
      const engine = createEngine(flags, recorder, params.cwd, ctx.shouldStop, undefined, gates, traceTo(out));
      const target = entry.endsWith('.yakl') ? `yakl:${entry}` : entry;
      const code = `std.get(import ${quoteVerbatim(target)}, ${JSON.stringify(PACK_METADATA_FIELD)}, {})`;
      const metadata = evaluateSnippet('<pack-metadata>', code, engine.options);
      if (!isJsonObject(metadata))
        throw new PackError(`${entryArg}: ${PACK_METADATA_FIELD} must be an object, got ${typeName(metadata)}`);
      if (Object.keys(metadata).length > 0) plan.userMetadata = toBundleJson(metadata) as { [key: string]: BundleJson };
    }
    if (flags.str('docs-tar-file') !== '') {
      const docs = recorder.readFile(flags.path(flags.str('docs-tar-file')));
      plan.docs = Buffer.from(docs).toString('base64');
    }
    out.stdout(JSON.stringify(plan));
  } catch (err) {
    out.log('ERROR', `packing ${JSON.stringify(entryArg)}: ${describePackError(err)}`);
    exitCode = 1;
  }
  return out.outcome(exitCode, recorder.deps(), false);
}

function typeName(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function describePackError(err: unknown): string {
  if (err instanceof PackError || err instanceof OciError) return err.message;
  return describeError(err);
}

export interface PackOutput {
  write(stream: 'stdout' | 'stderr', data: string): void;
}

function parsePlan(json: string): PackPlan {
  const plan = JSON.parse(json) as PackPlan;
  if (typeof plan.reference !== 'string' || !Array.isArray(plan.files))
    throw new Error('internal: the pack plan is malformed');
  return plan;
}

/** The docker config the client would use: $DOCKER_CONFIG/config.json, else ~/.docker/config.json. */
function dockerConfigPath(env: Readonly<Record<string, string>>): string | undefined {
  const dir = env.DOCKER_CONFIG;
  if (dir !== undefined && dir !== '') return join(dir, 'config.json');
  const home = env.HOME;
  return home !== undefined && home !== '' ? join(home, '.docker', 'config.json') : undefined;
}

/** The network half; returns the exit code. Never throws for registry or file problems. */
export async function finishPack(
  params: CommandParams,
  planJson: string,
  out: PackOutput,
  signal: AbortSignal,
): Promise<number> {
  const style = logStyle(params.tty);
  const log = (level: LogLevel, message: string): void => out.write('stderr', logLine(style, level, message));
  // Ours: what is being pushed, on stderr, for a person watching (--progress, or stderr a terminal).
  const progress = (line: string): void => {
    if (progressEnabled(params.flags, params.tty)) out.write('stderr', `kubecfg: pack: ${line}\n`);
  };
  const entryArg = params.args[1] ?? '';
  let client: RegistryClient | undefined;
  const onAbort = (): void => void client?.close();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const plan = parsePlan(planJson);
    const reference = parseReference(plan.reference);
    const revision = plan.output === undefined ? await gitRevision(plan.revisionFrom) : 'unknown';
    const artifact = buildBundleArtifact({
      files: new Map(plan.files.map(([p, b64]) => [p, new Uint8Array(Buffer.from(b64, 'base64'))])),
      entrypoint: plan.entrypoint,
      kubecfgVersion: KUBECFG_VERSION,
      features: plan.features,
      ...(plan.userMetadata !== undefined ? { userMetadata: plan.userMetadata } : {}),
      revision,
      annotations: plan.annotations,
      ...(plan.docs !== undefined ? { docsArchive: new Uint8Array(Buffer.from(plan.docs, 'base64')) } : {}),
    });
    if (plan.output !== undefined) {
      const path = isAbsolute(plan.output) ? plan.output : resolve(params.cwd, plan.output);
      try {
        replaceUserFile(path, artifact.body, umaskOf(params));
      } catch (err) {
        throw new PackError(`--output ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      }
      progress(`wrote ${plan.output} (${sizeText(artifact.body.byteLength)})`);
      return 0;
    }
    const configPath = dockerConfigPath(params.env);
    const credentials =
      configPath === undefined ? undefined : await DockerConfigCredentials.fromFile(configPath, { env: params.env });
    client = new RegistryClient({
      ...(credentials !== undefined ? { credentials } : {}),
      proxyEnv: params.env,
      insecureRegistries: plan.insecureRegistry ? [reference.registry] : [],
    });
    const blobs = [artifact.body, artifact.config, ...(artifact.docs !== undefined ? [artifact.docs] : [])];
    const total = blobs.reduce((n, b) => n + b.byteLength, 0);
    const where = `${reference.registry}/${reference.repository}`;
    progress(`pushing ${blobs.length} blobs (${sizeText(total)}) to ${where}`);
    for (const [i, blob] of blobs.entries()) {
      const pushed = await client.pushBlob(reference, blob);
      const what = pushed.skipped ? 'already in the registry' : pushed.mounted ? 'mounted' : 'uploaded';
      progress(`[${i + 1}/${blobs.length}] ${pushed.digest.slice(0, 19)} ${sizeText(pushed.size)} ${what}`);
    }
    const digest = await client.putManifest(reference, OCI_MANIFEST, artifact.manifest);
    progress(`manifest pushed`);
    log('INFO', `Pushed ${formatReference(reference)} (${digest})`);
    return 0;
  } catch (err) {
    if (signal.aborted) {
      log('ERROR', 'cancelled');
      return 1;
    }
    log('ERROR', `packing ${JSON.stringify(entryArg)}: ${describePackError(err)}`);
    return 1;
  } finally {
    signal.removeEventListener('abort', onAbort);
    await client?.close();
  }
}
