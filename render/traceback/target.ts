/**
 * What `kubecfg traceback FILE.yaml:LINE` has to trace: the object at LINE
 * (its provenance annotations name the Jsonnet file and the object's value
 * path in that file's value) plus the path of the field on LINE inside the
 * object. Also parses the `FILE:LINE` argument (the last colon splits, so
 * file names may hold colons). Pure; errors are TracebackErrors.
 */
import type { PathStep } from '../../lang/jsonnet/trace.js';
import { PROVENANCE_FILE_ANNOTATION, PROVENANCE_PATH_ANNOTATION } from '../provenance-keys.js';
import { TracebackError } from './errors.js';
import { formatValuePath, parseValuePath } from './value-path.js';
import { lineToPath } from './yaml-line.js';

export interface TracebackTarget {
  /** The provenance-file annotation as written (the path `show` was given). */
  provenanceFile: string;
  /** Object path + field path, spelt as kubecfg spells value paths. */
  fullPath: string;
  /** The same path as steps from the file's value. */
  steps: PathStep[];
}

/** Splits `FILE:LINE`. */
export function parseFileLine(arg: string): { file: string; line: number } {
  const colon = arg.lastIndexOf(':');
  const file = colon > 0 ? arg.slice(0, colon) : '';
  const lineText = colon > 0 ? arg.slice(colon + 1) : '';
  if (file === '' || !/^\d+$/.test(lineText))
    throw new TracebackError(`argument must be <filename.yaml>:<linenumber>, got ${JSON.stringify(arg)}`);
  return { file, line: Number(lineText) };
}

export function tracebackTarget(yamlText: string, line: number, yamlName: string): TracebackTarget {
  const at = lineToPath(yamlText, line, yamlName);
  const annotation = (key: string): string => {
    const v = at.stringAt(['metadata', 'annotations', key]);
    if (v === undefined)
      throw new TracebackError(
        `${yamlName}:${line}: provenance annotation "${key}" not found in the object holding this line (render it with kubecfg show --show-provenance)`,
      );
    return v;
  };
  const provenanceFile = annotation(PROVENANCE_FILE_ANNOTATION);
  const objectPath = annotation(PROVENANCE_PATH_ANNOTATION);
  const objectSteps = parseValuePath(objectPath);
  // kubecfg gives every item of a List the list's path plus `.item`: the item's index is not recorded.
  if (objectSteps.at(-1) === 'item' && objectPath.endsWith('.item'))
    throw new TracebackError(
      `${yamlName}:${line}: the object came from a List at ${objectPath.slice(0, -'.item'.length)}; kubecfg's provenance does not record which item`,
    );
  const steps = [...objectSteps, ...at.steps];
  return { provenanceFile, fullPath: formatValuePath(steps), steps };
}
