/**
 * `kubecfg show` end to end over already-evaluated files, in kubecfg's order
 * of steps (pkg/kubecfg ReadObjects + cmd/show.go): for each file, find its
 * objects (adding provenance annotations when asked), then drop duplicates
 * across all files, reorder if `--reorder=server`, and print. A discovery
 * error names the file as kubecfg does ("error reading <file>: ...").
 */

import type { JsonObject, JsonValue } from '../lang/common/json.js';
import { RenderError } from './errors.js';
import type { FoundObject } from './objects.js';
import { findObjectsUnchecked, removeDuplicates } from './objects.js';
import { addProvenance } from './provenance.js';
import { orderForApply } from './order/order.js';
import type { KindLookup } from './order/order.js';
import { formatYamlDocuments } from './output/yaml.js';
import { formatJsonObjects } from './output/json.js';

/** A Jsonnet file's evaluated value, or the objects of a plain manifest file (see manifest-files.ts). */
export type ShowInput =
  | {
      /** The path argument as the user typed it (it becomes the provenance-file annotation). */
      file: string;
      /** The file's evaluated value. */
      value: JsonValue;
    }
  | {
      file: string;
      /** Objects of a `.json`/`.yaml` file: taken as they are, without provenance (as kubecfg does). */
      objects: JsonObject[];
    };

export interface ShowOptions {
  format: 'yaml' | 'json';
  showProvenance?: boolean;
  /** `--reorder=server`: the apply order of `kubecfg update`. */
  reorder?: 'server';
  /** Describes kinds unknown to the built-in table (e.g. from cluster discovery). */
  kindLookup?: KindLookup;
}

/** The objects `kubecfg show` prints, in its order. */
export function showObjects(inputs: ShowInput[], options: Omit<ShowOptions, 'format'>): FoundObject[] {
  const all: FoundObject[] = [];
  for (const input of inputs) {
    if ('objects' in input) {
      for (const object of input.objects) all.push({ object, path: '$' });
      continue;
    }
    let found: FoundObject[];
    try {
      found = findObjectsUnchecked(input.value);
    } catch (e) {
      if (e instanceof RenderError) throw new RenderError(e.code, `error reading ${input.file}: ${e.message}`, e.path);
      throw e;
    }
    for (const f of found)
      all.push(options.showProvenance ? { object: addProvenance(f, input.file), path: f.path } : f);
  }
  const unique = removeDuplicates(all);
  return options.reorder === 'server' ? orderForApply(unique, options.kindLookup) : unique;
}

/** What `kubecfg show` writes to stdout. */
export function renderShow(inputs: ShowInput[], options: ShowOptions): string {
  const objects = showObjects(inputs, options).map((f) => f.object);
  return options.format === 'yaml' ? formatYamlDocuments(objects) : formatJsonObjects(objects);
}
