/**
 * Plain-data inputs of `show`/`eval`: `.json` (one value) and `.yaml`/`.yml`
 * (a multi-document stream; empty documents are skipped). YAML is read with
 * YAML 1.1 rules, as kubecfg's Go YAML library does (`yes` is true, etc.), an
 * explicit alias budget against billion-laughs input, and converted through
 * Maps so a `__proto__` key stays data. Errors name file:line:column.
 */
import { parseAllDocuments } from 'yaml';
import { jsonObject, type JsonValue } from '../../lang/common/json.js';

export const MAX_YAML_ALIASES = 100;

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

function lineColumnOf(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return `${line}:${offset - lineStart + 1}`;
}

export function parseJsonInput(file: string, text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /position (\d+)/.exec(msg);
    const where = pos ? `${file}:${lineColumnOf(text, Number(pos[1]))}` : file;
    throw new InputError(`${where}: invalid JSON: ${msg.replace(/ in JSON at position \d+.*$/, '')}`);
  }
}

function toJson(value: unknown, where: string): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InputError(`${where}: ${value} cannot be represented in JSON`);
    return value;
  }
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString().replace('.000Z', 'Z');
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map((v, i) => toJson(v, `${where}[${i}]`));
  if (value instanceof Set) return jsonObject([...value].map((k) => [String(k), null] as const));
  if (value instanceof Map) {
    return jsonObject([...value.entries()].map(([k, v]) => {
      const key = typeof k === 'string' ? k : String(k);
      return [key, toJson(v, `${where}.${key}`)] as const;
    }));
  }
  throw new InputError(`${where}: a value of type ${typeof value} cannot be represented in JSON`);
}

export function parseYamlInput(file: string, text: string): JsonValue[] {
  const docs = parseAllDocuments(text, { version: '1.1', prettyErrors: false, uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const out: JsonValue[] = [];
  list.forEach((doc, index) => {
    const first = doc.errors[0];
    if (first) {
      const where = first.pos ? `${file}:${lineColumnOf(text, first.pos[0])}` : file;
      throw new InputError(`${where}: invalid YAML: ${first.message.split('\n')[0]}`);
    }
    let js: unknown;
    try {
      js = doc.toJS({ mapAsMap: true, maxAliasCount: MAX_YAML_ALIASES });
    } catch (err) {
      throw new InputError(`${file}: document ${index + 1}: ${(err as Error).message}`);
    }
    if (js === null || js === undefined) return;
    out.push(toJson(js, `${file}: document ${index + 1}: $`));
  });
  return out;
}
