/**
 * `kubecfg validate`: checks every object against the server's OpenAPI
 * schema. A kind the schema does not describe is skipped when discovery
 * knows it (custom resources) or with ignoreUnknown, and is an error
 * otherwise. Problems name the object (`<plural> <namespace.name>`) and the
 * field path. Invariants: read-only against the cluster; all objects are
 * checked before the result is returned (no early stop).
 */
import type { JsonObject } from '../lang/common/json.js';
import { describe, type ClusterSession } from './cluster.js';
import { apiVersionOfObject, kindOf, nameOf } from './object-meta.js';
import { parseApiVersion } from './openapi-schema.js';
import { validateAgainstSchema } from './schema-validation.js';

export interface ValidateOptions {
  /** Skip kinds the server does not know instead of failing (kubecfg --ignore-unknown). */
  readonly ignoreUnknown?: boolean;
  /** kubecfg's info/error lines: "Validating ...", "Error in <desc>: ...". */
  readonly log?: (line: string) => void;
}

export interface ValidationProblem {
  readonly object: string;
  /** Field path, or '' for problems with the whole object. */
  readonly path: string;
  readonly message: string;
}

export interface ValidateReport {
  readonly ok: boolean;
  readonly problems: ValidationProblem[];
  /** Objects skipped because no schema describes their kind. */
  readonly skipped: string[];
}

export async function validateObjects(
  session: ClusterSession,
  objects: readonly JsonObject[],
  options: ValidateOptions = {},
): Promise<ValidateReport> {
  const log = options.log ?? (() => undefined);
  const schema = await session.discovery.openapi();
  const problems: ValidationProblem[] = [];
  const skipped: string[] = [];
  for (const obj of objects) {
    const desc = await describe(session, obj);
    log(`Validating ${desc}`);
    const apiVersion = apiVersionOfObject(obj);
    const kind = kindOf(obj);
    const gvk = { ...parseApiVersion(apiVersion), kind };
    const kindSchema = schema.forKind(gvk);
    // apimachinery's GroupVersionKind.String(): `apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap`.
    const gvkText = `${gvk.group}/${gvk.version}, Kind=${kind}`;
    const found: ValidationProblem[] = [];
    if (kindSchema === undefined) {
      const known =
        options.ignoreUnknown === true ||
        (await session.discovery.lookup(apiVersion, kind).catch(() => undefined)) !== undefined;
      if (known) {
        log(` No schema found for ${gvkText}, skipping validation`);
        skipped.push(desc);
        continue;
      }
      found.push({
        object: desc,
        path: '',
        // kubecfg's NewOpenAPISchemaFor: a NotFound error of the made-up resource "schema.schema".
        message: `Unable to fetch schema: schema.schema "${gvkText}" not found`,
      });
    } else {
      const root = `${gvk.version}.${kind}`;
      for (const p of validateAgainstSchema(schema, root, schema.definitionName(gvk) ?? kind, kindSchema, obj)) {
        found.push({ object: desc, path: p.path, message: `ValidationError(${p.path}): ${p.message}` });
      }
      if (nameOf(obj) === '')
        found.push({ object: desc, path: `${root}.metadata.name`, message: 'An Object does not have a name set' });
    }
    for (const p of found) log(`Error in ${desc}: ${p.message}`);
    problems.push(...found);
  }
  return { ok: problems.length === 0, problems, skipped };
}
