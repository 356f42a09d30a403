/**
 * std.parseYaml(str) the way go-jsonnet does it: the text is cut into
 * documents at lines that are exactly `---` (plus trailing spaces); several
 * documents, or a leading `---`, give an array of documents, otherwise the one
 * value. Each document goes YAML -> JSON as sigs.k8s.io/yaml v1.1.0 with
 * go-yaml v2 does it, so plain scalars resolve with go-yaml v2's YAML 1.1
 * rules (our choice, matching kubecfg's engine):
 * - booleans: y/Y/yes/Yes/YES/true/True/TRUE/on/On/ON and the n/no/false/off forms;
 * - null: empty, ~, null/Null/NULL;
 * - integers: `_` ignored, 0x hex, 0o and leading-0 octal (0777 = 511), 0b binary,
 *   sign allowed; floats: [-+]?(.N|N(.N*)?)([eE][-+]?N)? and .inf/.nan forms
 *   (which JSON cannot carry: "json: unsupported value: +Inf");
 * - timestamps and sexagesimal numbers stay strings; `<<` merges maps (in
 *   order, so a later merge overrides an earlier explicit key, as in v2);
 * - keys: ints in decimal, floats as float32 %g, booleans as true/false.
 * Quoted and block scalars are always strings. The `yaml` package only parses;
 * we walk its AST ourselves with an alias budget (hazard 13: a billion-laughs
 * document fails after 20000 aliased nodes, in milliseconds), a cycle check
 * and a depth limit, so no input can exhaust memory or the stack.
 * Syntax error texts come from the `yaml` package, not go-yaml, prefixed the
 * go-jsonnet way: "failed to parse YAML: error converting YAML to JSON: yaml: line N: ...".
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments } from 'yaml';
import type { Alias, Document, Scalar } from 'yaml';
import type { JsonObject, JsonValue } from '../../../common/json.js';
import { setJsonKey } from '../../../common/json.js';
import { formatFloat, parseFloatOk } from '../../../go/strconv.js';
import { StdError } from './std-error.js';
import { wantString } from './values.js';

const MAX_ALIASED_NODES = 20000;
const MAX_DEPTH = 1000;
const TAG = 'tag:yaml.org,2002:';

class YamlFail extends Error {}

/** A decoded scalar before JSON conversion: Go keeps ints exact and floats apart. */
type GoScalar = null | boolean | string | { int: bigint } | { float: number };

const BOOL_NULL: Record<string, GoScalar> = {};
for (const s of ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']) BOOL_NULL[s] = true;
for (const s of ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']) BOOL_NULL[s] = false;
for (const s of ['', '~', 'null', 'Null', 'NULL']) BOOL_NULL[s] = null;
for (const s of ['.nan', '.NaN', '.NAN']) BOOL_NULL[s] = { float: NaN };
for (const s of ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']) BOOL_NULL[s] = { float: Infinity };
for (const s of ['-.inf', '-.Inf', '-.INF']) BOOL_NULL[s] = { float: -Infinity };

const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** Go strconv.ParseInt/ParseUint(s, 0, 64) after `_` removal; undefined when it fails. */
function parseGoInt(plain: string): bigint | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(plain);
  if (!m) return undefined;
  const body = m[2]!;
  let v: bigint;
  if (/^0[oO]/.test(body)) v = BigInt('0o' + body.slice(2));
  else if (/^0[0-7]+$/.test(body)) v = BigInt('0o' + body.slice(1));
  else v = BigInt(body);
  if (m[1] === '-') v = -v;
  if (v < -(2n ** 63n) || v > 2n ** 64n - 1n) return undefined;
  if (m[1] === '-' && v < -(2n ** 63n)) return undefined;
  return v;
}

/** go-yaml v2's resolve() for an untagged plain scalar. */
function resolvePlain(s: string): GoScalar {
  if (Object.prototype.hasOwnProperty.call(BOOL_NULL, s)) return BOOL_NULL[s]!;
  const c = s[0];
  if (c === '.') {
    // strconv.ParseFloat on the raw text (`.5`, `.5e3`, `.5_0`...)
    if (parseFloatOk(s)) return { float: Number(s.replace(/_/g, '')) };
    return s;
  }
  if (c === '+' || c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
    const plain = s.replace(/_/g, '');
    const i = parseGoInt(plain);
    if (i !== undefined) return { int: i };
    if (YAML_FLOAT.test(plain)) {
      const v = Number(plain);
      if (Number.isFinite(v)) return { float: v };
    }
  }
  return s;
}

function scalarOf(node: Scalar): GoScalar {
  const raw = node.value;
  const text = typeof raw === 'string' ? raw : String(raw);
  const tag = node.tag;
  if (tag === undefined || tag === '!') return node.type === 'PLAIN' ? resolvePlain(text) : text;
  if (!tag.startsWith(TAG)) return text; // application tags are not resolved by go-yaml
  const short = tag.slice(TAG.length);
  if (short === 'str') return text;
  if (short === 'binary') return text;
  const r = resolvePlain(text);
  const kind =
    r === null
      ? 'null'
      : typeof r === 'boolean'
        ? 'bool'
        : typeof r === 'string'
          ? 'str'
          : 'int' in r
            ? 'int'
            : 'float';
  if (short === kind || short === 'timestamp') return r;
  if (short === 'float' && kind === 'int') return { float: Number((r as { int: bigint }).int) };
  throw new YamlFail(`yaml: cannot decode !!${kind} \`${text}\` as a !!${short}`);
}

function scalarToJson(v: GoScalar): JsonValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if ('int' in v) return Number(v.int.toString());
  if (!Number.isFinite(v.float)) {
    const s = Number.isNaN(v.float) ? 'NaN' : v.float > 0 ? '+Inf' : '-Inf';
    throw new YamlFail(`json: unsupported value: ${s}`);
  }
  return v.float;
}

function keyString(v: GoScalar): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) throw new YamlFail('Unsupported map key of type: %!s(<nil>), key: <nil>');
  if ('int' in v) {
    if (v.int > 2n ** 63n - 1n) throw new YamlFail(`Unsupported map key of type: uint64, key: 0x${v.int.toString(16)}`);
    return v.int.toString();
  }
  const s = formatFloat(v.float, 'g', -1, 32);
  return s === '+Inf' ? '.inf' : s === '-Inf' ? '-.inf' : s === 'NaN' ? '.nan' : s;
}

class Walker {
  private aliased = 0;
  private readonly expanding = new Set<unknown>();
  // Alias.resolve searches the whole document; a bomb revisits the same alias
  // nodes millions of times, so each is resolved once.
  private readonly targets = new Map<unknown, unknown>();
  constructor(private readonly doc: Document.Parsed) {}

  private resolveAlias(alias: Alias): unknown {
    if (this.targets.has(alias)) return this.targets.get(alias);
    const target = alias.resolve(this.doc);
    if (target === undefined) throw new YamlFail(`yaml: unknown anchor '${alias.source}' referenced`);
    this.targets.set(alias, target);
    return target;
  }

  value(node: unknown, depth: number, viaAlias: boolean): JsonValue {
    if (depth > MAX_DEPTH) throw new YamlFail(`yaml: exceeded max depth of ${MAX_DEPTH}`);
    if (viaAlias && ++this.aliased > MAX_ALIASED_NODES)
      throw new YamlFail('yaml: document contains excessive aliasing');
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      const target = this.resolveAlias(node);
      if (this.expanding.has(target)) throw new YamlFail(`yaml: anchor '${node.source}' value contains itself`);
      this.expanding.add(target);
      try {
        return this.value(target, depth + 1, true);
      } finally {
        this.expanding.delete(target);
      }
    }
    if (isScalar(node)) return scalarToJson(scalarOf(node));
    if (isSeq(node)) return node.items.map((item) => this.value(item, depth + 1, viaAlias));
    if (isMap(node)) {
      const out: JsonObject = {};
      this.fill(out, node, depth, viaAlias);
      return out;
    }
    throw new YamlFail('yaml: unsupported node');
  }

  /** Adds a mapping's pairs to `out` (merge keys splice other mappings in, go-yaml v2 order). */
  private fill(out: JsonObject, map: unknown, depth: number, viaAlias: boolean): void {
    if (!isMap(map)) throw new YamlFail('yaml: map merge requires map or sequence of maps as the value');
    for (const pair of map.items) {
      if (!isPair(pair)) continue;
      const key = pair.key;
      if (isScalar(key) && key.type === 'PLAIN' && key.value === '<<' && key.tag === undefined) {
        this.merge(out, pair.value, depth, viaAlias);
        continue;
      }
      setJsonKey(out, this.key(key, depth, viaAlias), this.value(pair.value, depth + 1, viaAlias));
    }
  }

  private merge(out: JsonObject, node: unknown, depth: number, viaAlias: boolean): void {
    const deref = (n: unknown): unknown => {
      if (!isAlias(n)) return n;
      const t = this.resolveAlias(n);
      if (++this.aliased > MAX_ALIASED_NODES) throw new YamlFail('yaml: document contains excessive aliasing');
      return t;
    };
    const target = deref(node);
    if (isSeq(target)) {
      // Earlier maps take precedence, so apply them last.
      for (let k = target.items.length - 1; k >= 0; k--) this.fill(out, deref(target.items[k]), depth + 1, true);
    } else this.fill(out, target, depth + 1, viaAlias || target !== node);
  }

  private key(key: unknown, depth: number, viaAlias: boolean): string {
    let k: unknown = key;
    if (isAlias(k)) k = this.resolveAlias(k);
    if (k === null || k === undefined) return keyString(null);
    if (isScalar(k)) return keyString(scalarOf(k));
    const v = this.value(k, depth + 1, viaAlias);
    throw new YamlFail(`yaml: invalid map key: ${JSON.stringify(v)}`);
  }
}

/** go-jsonnet's YAMLReader: documents split at `---` lines; `stream` when any such line was seen. */
function splitDocuments(text: string): { docs: string[]; stream: boolean } {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const docs: string[] = [];
  let stream = false;
  let buf = '';
  for (const raw of lines) {
    const line = (raw.endsWith('\r') ? raw.slice(0, -1) : raw) + '\n';
    if (line.startsWith('---') && /^[\s]*$/u.test(line.slice(3))) {
      stream = true;
      if (buf.length !== 0) {
        docs.push(buf);
        buf = '';
        continue;
      }
    }
    buf += line;
  }
  if (buf.length !== 0) docs.push(buf);
  return { docs, stream };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function parseDocument(text: string): JsonValue {
  const all = parseAllDocuments(text, { schema: 'failsafe', prettyErrors: false, uniqueKeys: false, strict: false });
  const docs = Array.isArray(all) ? all : [];
  const doc = docs[0];
  if (doc === undefined) return null;
  const err = doc.errors[0];
  if (err) throw new YamlFail(`yaml: line ${lineOf(text, err.pos[0])}: ${err.message.split('\n')[0]}`);
  return new Walker(doc).value(doc.contents, 0, false);
}

export function parseYaml(str: JsonValue): JsonValue {
  const text = wantString(str);
  try {
    const { docs, stream } = splitDocuments(text);
    const values = docs.map(parseDocument);
    if (stream) return values;
    return values.length === 0 ? null : values[0]!;
  } catch (e) {
    if (e instanceof YamlFail) throw new StdError(`failed to parse YAML: error converting YAML to JSON: ${e.message}`);
    if (e instanceof RangeError) throw new StdError('failed to parse YAML: input too deeply nested');
    throw e;
  }
}
