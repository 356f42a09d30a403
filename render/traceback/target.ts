/**
 * What `kubecfg traceback FILE.yaml:LINE` has to trace: the object at LINE
 * (its provenance annotations name the Jsonnet file and the object's value
 * path in that file's value) plus the path of the field on LINE inside the
 * object. Also parses the `FILE:LINE` argument (the last colon splits, so
 * file names may hold colons). An object that came out of a List is found
 * among the List's items by apiVersion, kind, namespace and name (kubecfg's
 * `.item` path does not say which). Pure; errors are TracebackErrors.
 */
import { isJsonObject, type JsonValue } from '../../lang/common/json.js';
import type { PathStep } from '../../lang/jsonnet/trace.js';
import { PROVENANCE_FILE_ANNOTATION, PROVENANCE_PATH_ANNOTATION } from '../provenance-keys.js';
import { TracebackError } from './errors.js';
import { formatValuePath, parseValuePath } from './value-path.js';
import { lineToPath } from './yaml-line.js';

export interface TracebackTarget {
  /** The provenance-file annotation as written (the path `show` was given). */
  provenanceFile: string;
  /** Path of the object in the file's value; for a List item, of the List. */
  objectSteps: PathStep[];
  /**
   * Set when the object came out of a List: kubecfg's provenance path is then the List's path plus
   * `.item`, which does not say which item, so the item is found by this identity (itemIndex).
   */
  listItem?: ObjectIdentity;
  /** Path of the field on the line, inside the object. */
  innerSteps: PathStep[];
}

/** What tells a List's items apart: apiVersion, kind, namespace and name (absent ones match absent). */
export interface ObjectIdentity {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
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
  const fromList = objectPath.endsWith('.item');
  const objectSteps = parseValuePath(fromList ? objectPath.slice(0, -'.item'.length) : objectPath);
  if (!fromList) return { provenanceFile, objectSteps, innerSteps: at.steps };
  const identity: ObjectIdentity = {};
  for (const [key, path] of [
    ['apiVersion', ['apiVersion']],
    ['kind', ['kind']],
    ['namespace', ['metadata', 'namespace']],
    ['name', ['metadata', 'name']],
  ] as const) {
    const v = at.stringAt(path);
    if (v !== undefined) identity[key] = v;
  }
  return { provenanceFile, objectSteps, listItem: identity, innerSteps: at.steps };
}

/** Which item of the List at `target.objectSteps` in the file's (manifested) value the object is. */
export function listItemIndex(value: JsonValue, target: TracebackTarget): number {
  const listPath = formatValuePath(target.objectSteps);
  let v: JsonValue | undefined = value;
  for (const step of target.objectSteps) {
    if (typeof step === 'number') v = Array.isArray(v) ? v[step] : undefined;
    else v = isJsonObject(v) && Object.hasOwn(v, step) ? v[step] : undefined;
  }
  if (!isJsonObject(v) || !Array.isArray(v.items))
    throw new TracebackError(`the value at ${listPath} is no longer a List (an object with items)`);
  return itemIndex(v.items, target.listItem ?? {}, listPath);
}

/** Index of the List item with `identity`; throws when none or several match. */
export function itemIndex(items: readonly JsonValue[], identity: ObjectIdentity, listPath: string): number {
  const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
  const matches: number[] = [];
  items.forEach((item, i) => {
    if (!isJsonObject(item)) return;
    const meta = isJsonObject(item.metadata) ? item.metadata : {};
    if (
      str(item.apiVersion) === identity.apiVersion &&
      str(item.kind) === identity.kind &&
      str(meta.namespace) === identity.namespace &&
      str(meta.name) === identity.name
    )
      matches.push(i);
  });
  const what = `${identity.kind ?? '?'} ${identity.namespace ? identity.namespace + '/' : ''}${identity.name ?? '?'}`;
  if (matches.length === 0) throw new TracebackError(`no item of the List at ${listPath} is ${what} any more`);
  if (matches.length > 1) throw new TracebackError(`several items of the List at ${listPath} are ${what}`);
  return matches[0]!;
}

/** The whole path to trace: the object (or the List's item) then the field. */
export function targetSteps(target: TracebackTarget, item?: number): PathStep[] {
  if (target.listItem === undefined) return [...target.objectSteps, ...target.innerSteps];
  if (item === undefined) throw new TracebackError('internal: a List item needs its index');
  return [...target.objectSteps, 'items', item, ...target.innerSteps];
}
