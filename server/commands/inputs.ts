/**
 * The value of one `eval` input. kubecfg evaluates the file as Jsonnet
 * whatever its suffix (a `.json` file is valid Jsonnet), so we do too.
 */
import type { JsonValue } from '../../lang/common/json.js';
import type { Engine } from './engine.js';

export function evalInputValue(file: string, engine: Engine): JsonValue {
  return engine.evaluateFile(file);
}
