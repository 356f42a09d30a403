/**
 * kubecfg's parseYaml native: a YAML stream split into documents the way
 * apimachinery's YAMLReader does (lines starting with `---`; a separator
 * followed by anything but a comment is an error), each document read with
 * go-yaml v2 semantics (YAML 1.1 implicit types: yes/on are booleans, 0777
 * is octal, timestamps stay strings, `<<` merges with earlier maps taking
 * precedence) and converted to JSON as sigs.k8s.io/yaml does (non-string
 * keys become strings, numbers end up float64). Empty documents (comments
 * only) yield null, as in kubecfg. The YAML syntax itself is read with
 * eemeli/yaml, so syntax-error wording differs from go-yaml's.
 * Invariants: aliases are expanded under a node budget ("document contains
 * excessive aliasing") and self-containing anchors are refused, so an alias
 * bomb fails fast; error messages carry line numbers, never source lines.
 */

import { parseAllDocuments, isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import type { JsonObject, JsonValue } from '../../lang/common/json.js';
import { jsonObject, setJsonKey } from '../../lang/common/json.js';
import { isGoYamlTimestamp } from '../../lang/go/yaml-v2-emit/index.js';
import { formatFloat, parseGoInteger } from '../../lang/go/strconv.js';
import { Buffer } from 'node:buffer';

class GoYamlError extends Error {}

// go-yaml v2's alias-expansion limits (decode.go allowedAliasRatio).
const ALIAS_RATIO_RANGE_LOW = 400000;
const ALIAS_RATIO_RANGE_HIGH = 4000000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - (0.89 * (decodeCount - ALIAS_RATIO_RANGE_LOW)) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW);
}
const RESOLVED: Record<string, JsonValue> = {
  y: true,
  Y: true,
  yes: true,
  Yes: true,
  YES: true,
  true: true,
  True: true,
  TRUE: true,
  on: true,
  On: true,
  ON: true,
  n: false,
  N: false,
  no: false,
  No: false,
  NO: false,
  false: false,
  False: false,
  FALSE: false,
  off: false,
  Off: false,
  OFF: false,
  '': null,
  '~': null,
  null: null,
  Null: null,
  NULL: null,
};
const SPECIAL_FLOATS: Record<string, number> = {
  '.nan': NaN,
  '.NaN': NaN,
  '.NAN': NaN,
  '.inf': Infinity,
  '.Inf': Infinity,
  '.INF': Infinity,
  '+.inf': Infinity,
  '+.Inf': Infinity,
  '+.INF': Infinity,
  '-.inf': -Infinity,
  '-.Inf': -Infinity,
  '-.INF': -Infinity,
};
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

type Resolved = {
  tag: 'str' | 'int' | 'float' | 'bool' | 'null' | 'timestamp' | 'merge';
  value: JsonValue;
  number?: number;
};

/** go-yaml v2 resolve() for a plain scalar: its tag and decoded value. */
function resolvePlain(s: string): Resolved {
  const first = s[0] ?? '';
  const hinted = s === '' || /^[-+0-9yYnNtTfFoO~.]/.test(first);
  if (!hinted) return { tag: 'str', value: s };
  if (s in RESOLVED) {
    const v = RESOLVED[s]!;
    return { tag: v === null ? 'null' : 'bool', value: v };
  }
  if (s in SPECIAL_FLOATS) return { tag: 'float', value: null, number: SPECIAL_FLOATS[s]! };
  if (first === '.') {
    if (/^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s) && Number.isFinite(Number(s)))
      return { tag: 'float', value: null, number: Number(s) };
    return { tag: 'str', value: s };
  }
  if (/^[-+0-9]/.test(first)) {
    if (isGoYamlTimestamp(s)) return { tag: 'timestamp', value: s };
    const plain = s.replace(/_/g, '');
    const int = parseGoInteger(plain, true) ?? parseGoInteger(plain, false);
    if (int !== null) return { tag: 'int', value: null, number: Number(int) };
    if (YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain)))
      return { tag: 'float', value: null, number: Number(plain) };
  }
  return { tag: 'str', value: s };
}

function shortTag(tag: string): string {
  return tag.startsWith('tag:yaml.org,2002:') ? '!!' + tag.slice('tag:yaml.org,2002:'.length) : tag;
}

/** A scalar with an explicit tag, as go-yaml's resolve(tag, value) decodes it into interface{}. */
function resolveTagged(tag: string, s: string): Resolved {
  switch (shortTag(tag)) {
    case '!!str':
      return { tag: 'str', value: s };
    case '!!binary': {
      if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(s)) throw new GoYamlError('!!binary value contains invalid base64 data');
      return { tag: 'str', value: Buffer.from(s.replace(/\s/g, ''), 'base64').toString('utf8') };
    }
    case '!!int':
    case '!!float':
    case '!!bool':
    case '!!null':
    case '!!timestamp':
    case '!!merge': {
      const r = resolvePlain(s);
      const want = shortTag(tag).slice(2);
      if (r.tag === want || (want === 'float' && r.tag === 'int') || (want === 'timestamp' && r.tag === 'timestamp'))
        return r;
      throw new GoYamlError(`cannot decode !!${r.tag} \`${s}\` as a ${shortTag(tag)}`);
    }
    default:
      return { tag: 'str', value: s }; // unknown tags leave the text as it is
  }
}

/** strconv.FormatFloat(f, 'g', -1, 32), used by sigs.k8s.io/yaml for float map keys. */
function formatFloat32(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
  const f32 = Math.fround(f);
  if (!Number.isFinite(f32)) return f32 > 0 ? '.inf' : '-.inf';
  return formatFloat(f32, 'g', -1, 32);
}

class DocumentReader {
  private decodeCount = 0;
  private aliasCount = 0;
  private readonly expanding = new Set<YamlNode>();

  constructor(private readonly doc: Document) {}

  private count(): void {
    this.decodeCount++;
    if (this.expanding.size > 0) this.aliasCount++;
    if (
      this.aliasCount > 100 &&
      this.decodeCount > 1000 &&
      this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)
    ) {
      throw new GoYamlError('yaml: document contains excessive aliasing');
    }
  }

  private target(node: YamlNode): YamlNode {
    if (!isAlias(node)) return node;
    const target = node.resolve(this.doc) as YamlNode | undefined;
    if (target === undefined) throw new GoYamlError(`yaml: unknown anchor '${node.source}' referenced`);
    return target;
  }

  value(node: YamlNode | null | undefined): JsonValue {
    if (node === null || node === undefined) return null;
    this.count();
    if (isAlias(node)) {
      const target = this.target(node);
      if (this.expanding.has(target)) throw new GoYamlError(`yaml: anchor '${node.source}' value contains itself`);
      this.expanding.add(target);
      try {
        return this.value(target);
      } finally {
        this.expanding.delete(target);
      }
    }
    if (isScalar(node)) return this.scalarJson(node);
    if (isSeq(node)) return node.items.map((item) => this.value(item as YamlNode));
    if (isMap(node)) {
      const out = jsonObject([]);
      this.fillMap(node, out);
      return out;
    }
    return null;
  }

  private resolved(node: YamlNode): Resolved {
    if (!isScalar(node)) return { tag: 'str', value: null };
    const text = String(node.value ?? '');
    if (node.tag !== undefined) return resolveTagged(node.tag, text);
    if (node.type === 'PLAIN') return resolvePlain(text);
    return { tag: 'str', value: text };
  }

  private scalarJson(node: YamlNode): JsonValue {
    const r = this.resolved(node);
    if (r.number !== undefined) {
      if (!Number.isFinite(r.number)) {
        throw new GoYamlError(
          `error converting YAML to JSON: json: unsupported value: ${Number.isNaN(r.number) ? 'NaN' : r.number > 0 ? '+Inf' : '-Inf'}`,
        );
      }
      return r.number;
    }
    return r.value;
  }

  private keyString(node: YamlNode): string {
    const target = this.target(node);
    if (!isScalar(target)) throw new GoYamlError('yaml: invalid map key: a key must be a scalar');
    const r = this.resolved(target);
    switch (r.tag) {
      case 'int':
        if (Math.abs(r.number!) >= 2 ** 63)
          throw new GoYamlError('error converting YAML to JSON: unsupported map key of type: uint64');
        return BigInt(r.number!).toString();
      case 'float':
        return formatFloat32(r.number!);
      case 'bool':
        return r.value ? 'true' : 'false';
      case 'null':
        throw new GoYamlError('error converting YAML to JSON: unsupported map key of type: %!s(<nil>)');
      default:
        return String(r.value);
    }
  }

  private fillMap(node: YamlNode, out: JsonObject): void {
    if (!isMap(node)) return;
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = pair.key as YamlNode | null;
      const value = pair.value as YamlNode | null;
      if (key === null) throw new GoYamlError('error converting YAML to JSON: unsupported map key of type: %!s(<nil>)');
      const keyTarget = this.target(key);
      // go-yaml's isMerge: the text `<<`, plain or tagged !!merge
      const isMerge =
        isScalar(keyTarget) &&
        keyTarget.value === '<<' &&
        ((keyTarget.type === 'PLAIN' && keyTarget.tag === undefined) ||
          (keyTarget.tag !== undefined && shortTag(keyTarget.tag) === '!!merge'));
      if (isMerge) {
        this.merge(value, out);
        continue;
      }
      this.count();
      setJsonKey(out, this.keyString(key), this.value(value));
    }
  }

  /** `<<: map` / `<<: [maps]`: merged maps are written into out in place (go-yaml v2: later keys override). */
  private merge(value: YamlNode | null, out: JsonObject): void {
    const fail = (): never => {
      throw new GoYamlError('yaml: map merge requires map or sequence of maps as the value');
    };
    if (value === null) return fail();
    const target = this.target(value);
    if (isMap(target)) return this.fillMap(target, out);
    if (!isSeq(target) || isAlias(value)) return fail();
    const items = target.items as YamlNode[];
    // earlier maps take precedence, so they are written last
    for (let i = items.length - 1; i >= 0; i--) {
      const item = this.target(items[i]!);
      if (!isMap(item)) fail();
      this.fillMap(item, out);
    }
  }
}

/** Splits a YAML stream into documents as apimachinery's YAMLReader does. */
function splitYamlStream(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const docs: string[] = [];
  let buffer = '';
  for (const raw of lines) {
    const line = (raw.endsWith('\r') ? raw.slice(0, -1) : raw) + '\n';
    if (line.startsWith('---')) {
      const trimmed = line.slice(3).trim();
      if (trimmed.length > 0 && trimmed[0] !== '#')
        throw new GoYamlError(`invalid Yaml document separator: ${trimmed}`);
      if (buffer.length > 0) {
        docs.push(buffer);
        buffer = '';
        continue;
      }
    }
    buffer += line;
  }
  if (buffer.length > 0) docs.push(buffer);
  return docs;
}

/** 1-based line of an offset; an error at the very end is reported on the last line, as go-yaml does. */
function lineOf(text: string, offset: number): number {
  const end = text.endsWith('\n') ? text.length - 1 : text.length;
  let line = 1;
  for (let i = 0; i < offset && i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const MAX_FLOW_DEPTH = 500;

/**
 * Refuses flow collections nested deeper than MAX_FLOW_DEPTH before the YAML
 * parser sees them (it recurses per level; go-yaml's own limit is 10000).
 * Quotes and comments are skipped roughly; a miscount only moves the limit.
 */
function checkFlowDepth(source: string): void {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '#') while (i < source.length && source[i] !== '\n') i++;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_FLOW_DEPTH) throw new GoYamlError(`yaml: exceeded max depth of ${MAX_FLOW_DEPTH}`);
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
}

/** One document's value, or null when it holds no node. */
function readYamlDocument(source: string): JsonValue {
  checkFlowDepth(source);
  const docs = parseAllDocuments(source, {
    version: '1.1',
    schema: 'failsafe',
    uniqueKeys: false,
    strict: false,
    prettyErrors: false,
  });
  if (!Array.isArray(docs)) throw new GoYamlError('error converting YAML to JSON: yaml: unexpected content');
  const doc = docs[0];
  if (doc === undefined) return null;
  const error = doc.errors[0];
  if (error)
    throw new GoYamlError(
      `error converting YAML to JSON: yaml: line ${lineOf(source, error.pos[0])}: ${error.message.split('\n')[0]}`,
    );
  return new DocumentReader(doc).value(doc.contents);
}

/** parseYaml(text): every document of the stream, in order. */
export function goParseYamlStream(text: string): JsonValue[] {
  return splitYamlStream(text).map(readYamlDocument);
}
