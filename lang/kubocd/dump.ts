/**
 * `kubecfg kubocd dump package MANIFEST`: reads a Package manifest and
 * parses every template without running it, reporting every problem rather
 * than the first: map keys that collide or cannot be converted, manifest
 * shape errors, syntax errors, and each function outside the KuboCD list
 * (found by parsing again with the names already reported stubbed, so one
 * template can report several). Templated connectionRef defaults are not
 * compiled (as in KuboCD). Pure; never executes anything.
 */

import { FunctionProfile, TemplateError, TemplateSet, pure } from '../gotemplate/index.js';
import type { JsonValue } from '../common/json.js';
import { KubocdError } from './errors.js';
import { parsePlace, headerShape } from './error-rewrite.js';
import { kubocdProfile } from './template.js';
import { packageTemplates, placePrefix, readPackageManifest } from './package.js';
import { toJsonValue } from './yaml.js';

export interface PackageDump {
  /** True when the package would be accepted by `kubocd package`. */
  ok: boolean;
  /** Messages worded as `kubocd package` prints them (without `ERROR: `). */
  errors: string[];
  /** Functions called outside the KuboCD list, sorted, each once. */
  unknownFunctions: string[];
  /** The manifest as read (absent when it does not read). */
  manifest?: JsonValue;
}

/** Stops runaway re-parsing of a template with very many unknown functions. */
const MAX_UNKNOWN_PER_TEMPLATE = 200;

function parseAll(text: string, header: string): { errors: string[]; unknown: string[] } {
  const base = kubocdProfile({ packageTemplate: true });
  const stubs: Record<string, ReturnType<typeof pure>> = {};
  const unknown: string[] = [];
  const errors: string[] = [];
  const shape = headerShape(header);
  for (let round = 0; round <= MAX_UNKNOWN_PER_TEMPLATE; round++) {
    const profile: FunctionProfile = base.extend(stubs);
    try {
      new TemplateSet('', { functions: profile, missingKey: 'zero' }).parse('', header + text);
      return { errors, unknown };
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      errors.push(`${parsePlace(shape, e.line)}${e.message}`);
      const m = /function "([^"]+)" not defined$/.exec(e.message);
      if (!m) return { errors, unknown };
      unknown.push(m[1]!);
      stubs[m[1]!] = pure([], () => undefined, 'any');
    }
  }
  return { errors, unknown };
}

export function dumpPackage(text: string): PackageDump {
  let pkg;
  try {
    pkg = readPackageManifest(text);
  } catch (e) {
    if (e instanceof KubocdError) return { ok: false, errors: [e.message], unknownFunctions: [] };
    throw e;
  }
  const errors: string[] = [];
  const unknown = new Set<string>();
  for (const t of packageTemplates(pkg)) {
    const r = parseAll(t.source.text, t.source.header);
    for (const msg of r.errors) errors.push(`${placePrefix(t.module)}could not parse '${t.field}' template: ${msg}`);
    for (const u of r.unknown) unknown.add(u);
  }
  return {
    ok: errors.length === 0,
    errors,
    unknownFunctions: [...unknown].sort(),
    manifest: toJsonValue(pkg.manifest),
  };
}
