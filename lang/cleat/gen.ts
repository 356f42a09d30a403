/**
 * `cleat gen SCHEMA`: prints the Cleat types a schema import produces, one
 * `type` per qualified name, with the short names and ambiguous names listed
 * as comments. Qualified names contain dots, so the output documents the
 * namespace (`k8s.apps.v1.Deployment`) rather than being importable source.
 */
import { decodeDocuments } from './decode.js';
import { schemaNamespace } from './openapi.js';
import { resolve, showType, type Ty } from './types.js';
import { toJsonValue } from './value.js';

function fieldLines(t: Ty): string {
  const r = resolve(t);
  if (r.k !== 'record') return showType(r);
  if (r.fields.length === 0) return r.open ? '{ .. }' : '{}';
  const lines = r.fields.map((f) => {
    const name = /^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name) ? f.name : JSON.stringify(f.name);
    return `  ${name}${f.optional ? '?' : ''}: ${showType(f.type)},`;
  });
  if (r.open) lines.push('  ..');
  return `{\n${lines.join('\n')}\n}`;
}

/** The Cleat rendering of an OpenAPI document or CRD file, or an error message. */
export function generateSchemaTypes(
  text: string,
  format: 'json' | 'yaml',
): { ok: true; text: string } | { ok: false; message: string } {
  let docs: unknown[];
  try {
    docs = format === 'json' ? [JSON.parse(text) as unknown] : decodeDocuments(text, 'yaml').map(toJsonValue);
  } catch (e) {
    return { ok: false, message: `cannot read the schema: ${(e as Error).message}` };
  }
  const ns = schemaNamespace(docs);
  if (typeof ns === 'string') return { ok: false, message: ns };
  const out: string[] = [];
  for (const [name, cell] of [...ns.cells].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const shorts = [...ns.short].filter(([, q]) => q === name).map(([s]) => s);
    if (shorts.length) out.push(`// short name: ${shorts.join(', ')}`);
    out.push(`type ${name} = ${fieldLines({ k: 'named', cell })}`, '');
  }
  for (const [short, cands] of ns.ambiguous) out.push(`// \`${short}\` is ambiguous: ${cands.join(', ')}`);
  return { ok: true, text: `${out.join('\n').trimEnd()}\n` };
}
