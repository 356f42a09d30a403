/**
 * Argo CD config management plugin support: a program's inputs announced as
 * UI parameters (the `parameters.static` shape of a CMP's plugin.yaml, or the
 * output of its `parameters.dynamic` command). Lists become array parameters,
 * maps and records map parameters, everything else a string parameter (read
 * back with the `--set` string-first rule). A default that reads back
 * exactly is announced as the parameter's value (argocd-defaults.ts).
 */
import type { JsonValue } from '../common/json.js';
import { jsonObject } from '../common/json.js';
import type { CleatLoader } from './context.js';
import { check, type CleatSource } from './program.js';

export interface ParameterAnnouncement {
  name: string;
  title: string;
  tooltip: string;
  required: boolean;
  collectionType: 'string' | 'array' | 'map';
  /** The default, as the text(s) Argo CD would pass back (absent when it cannot be written so). */
  string?: string;
  array?: string[];
  map?: Record<string, string>;
}

/** The announcements, or the check's diagnostics when the program does not check. */
export function argocdParameterAnnouncements(
  source: CleatSource,
  loader: CleatLoader,
):
  | { ok: true; parameters: ParameterAnnouncement[]; json: JsonValue }
  | { ok: false; diagnostics: ReturnType<typeof check>['diagnostics'] } {
  const c = check(source, loader);
  if (!c.ok) return { ok: false, diagnostics: c.diagnostics };
  const parameters = c.inputs.map((i): ParameterAnnouncement => {
    const d = i.announcedDefault;
    return {
      name: i.name,
      title: i.name,
      tooltip: `Cleat input of type ${i.type}`,
      required: !i.hasDefault,
      collectionType: i.collection,
      ...(d && 'string' in d ? { string: d.string } : {}),
      ...(d && 'array' in d ? { array: d.array } : {}),
      ...(d && 'map' in d ? { map: jsonObject(d.map) as Record<string, string> } : {}),
    };
  });
  const json: JsonValue = parameters.map((p) => jsonObject(Object.entries(p) as [string, JsonValue][]));
  return { ok: true, parameters, json };
}
