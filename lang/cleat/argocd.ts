/**
 * Argo CD config management plugin support: a program's inputs announced as
 * UI parameters (the `parameters.static` shape of a CMP's plugin.yaml, or the
 * output of its `parameters.dynamic` command). Lists become array parameters,
 * maps and records map parameters, everything else a string parameter (read
 * back with the `--set` string-first rule).
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
  const parameters = c.inputs.map((i): ParameterAnnouncement => ({
    name: i.name,
    title: i.name,
    tooltip: `Cleat input of type ${i.type}`,
    required: !i.hasDefault,
    collectionType: i.collection,
  }));
  const json: JsonValue = parameters.map((p) => jsonObject(Object.entries(p) as [string, JsonValue][]));
  return { ok: true, parameters, json };
}
