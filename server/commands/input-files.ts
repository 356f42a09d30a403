/**
 * The inputs of `show` and of the cluster commands (`diff`, `update`,
 * `delete`, `validate`), read one way for all of them, in kubecfg's rules:
 * `.jsonnet`, `.libsonnet` (kubecfg's utils.Read) and `.yakl` (feature yakl) evaluated, with the overlay composed
 * when one is given; `.json`/`.yaml` files read as plain manifests, from disk
 * or from an http(s)/oci location through the importer (so remote reads go
 * through the same fetch rounds, caches and allow-lists as imports); `.cleat`
 * programs (feature cleat) exported; any other suffix yields no objects and is
 * refused by object discovery, as kubecfg does. A failure is kubecfg's
 * `error reading FILE: why`.
 */
import { extname, resolve } from 'node:path';
import type { DependencyRecorder } from '../../cache/index.js';
import type { CommandParams } from '../../protocol/index.js';
import { objectsFromManifestFile, type ShowInput } from '../../render/index.js';
import { withHint } from '../../render/predefine.js';
import type { Gates } from '../../render/features/gates.js';
import { exportCleatInput, isCleatFile } from './cleat-input.js';
import type { Engine } from './engine.js';
import { describeError } from './errors.js';
import type { Flags } from './flags.js';
import { createImporter } from './importer.js';
import { isOciUrl, isRemoteLocation } from '../remote-inputs/remote-location.js';
import { evaluateOverlaid } from './yakl-overlay.js';

/**
 * kubecfg's `error reading FILE: why` (render/ already words some of its errors that way),
 * plus RFC06's hint when a Jsonnet file reads `kubecfg` without importing it.
 */
export class InputFailure extends Error {
  constructor(input: string, failure: unknown) {
    const why = describeError(failure);
    super(withHint(why.startsWith(`error reading ${input}`) ? why : `error reading ${input}: ${why}`));
  }
}

export interface InputContext {
  params: CommandParams;
  flags: Flags;
  gates: Gates;
  recorder: DependencyRecorder;
  getEngine: () => Engine;
  /** An --overlay-code(-file) was given (and its gate checked) for this command. */
  overlaid: boolean;
}

export interface ReadInputs {
  inputs: ShowInput[];
  /** False when a read cannot be replayed from the dependency record (e.g. a Cleat read through a symlink). */
  cacheable: boolean;
}

/** The suffix that decides how an input is read; `oci://host/repo:tag` names a bundle, whose entrypoint is Jsonnet. */
function inputSuffix(arg: string): string {
  if (isOciUrl(arg)) return '.jsonnet';
  if (!isRemoteLocation(arg)) return extname(arg);
  // kubecfg evaluates every URL input as Jsonnet whatever its name (utils.Read); we keep reading
  // `.json`/`.yaml` URLs as manifests (the same objects for JSON; YAML would not parse as Jsonnet).
  const ext = extname(arg.split(/[?#]/)[0]!);
  return ['.json', '.yaml', '.yakl', '.libsonnet'].includes(ext) ? ext : '.jsonnet';
}

export function readInputFiles(ctx: InputContext): ReadInputs {
  const { params, recorder } = ctx;
  const inputs: ShowInput[] = [];
  let cacheable = true;
  for (const arg of params.args) {
    try {
      const ext = inputSuffix(arg);
      if (isCleatFile(arg)) {
        const cleat = exportCleatInput(arg, params, recorder);
        cacheable &&= cleat.cacheable;
        inputs.push({ file: arg, value: cleat.documents });
      } else if (ext === '.jsonnet' || ext === '.libsonnet' || ext === '.yakl') {
        const engine = ctx.getEngine();
        const value = ctx.overlaid
          ? evaluateOverlaid({
              engine,
              flags: ctx.flags,
              gates: ctx.gates,
              input: arg,
              cwd: params.cwd,
              exists: (abs) => recorder.probe(abs),
              readText: (abs) => new TextDecoder('utf-8').decode(recorder.readFile(abs)),
            })
          : ext === '.yakl'
            ? engine.evaluateYaklFile(arg)
            : engine.evaluateFile(arg);
        inputs.push({ file: arg, value });
      } else {
        const text =
          ext === '.json' || ext === '.yaml'
            ? new TextDecoder('utf-8').decode(
                isRemoteLocation(arg)
                  ? createImporter({ recorder, cwd: params.cwd, jpath: [] }).load('', arg, 'importstr').contents
                  : recorder.readFile(resolve(params.cwd, arg)),
              )
            : '';
        inputs.push({ file: arg, objects: objectsFromManifestFile(arg, text) });
      }
    } catch (err) {
      throw new InputFailure(arg, err);
    }
  }
  return { inputs, cacheable };
}
