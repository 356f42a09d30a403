/**
 * Reads one input of show/eval by file suffix, as kubecfg does: .json,
 * .yaml/.yml (several documents), .jsonnet/.libsonnet (evaluated). Anything
 * else is an error naming the suffix.
 */
import { extname } from 'node:path';
import type { DependencyRecorder } from '../../cache/index.js';
import type { JsonValue } from '../../lang/common/json.js';
import { InputError, parseJsonInput, parseYamlInput } from './data-inputs.js';
import type { Engine } from './engine.js';

export function readInputValues(absPath: string, displayName: string, recorder: DependencyRecorder, engine: () => Engine): JsonValue[] {
  const ext = extname(absPath).toLowerCase();
  const text = (): string => new TextDecoder('utf-8').decode(recorder.readFile(absPath));
  switch (ext) {
    case '.json':
      return [parseJsonInput(displayName, text())];
    case '.yaml':
    case '.yml':
      return parseYamlInput(displayName, text());
    case '.jsonnet':
    case '.libsonnet':
      return [engine().evaluateFile(displayName)];
    default:
      throw new InputError(`${displayName}: unknown file extension "${ext}": use .jsonnet, .libsonnet, .json, .yaml or .yml`);
  }
}
