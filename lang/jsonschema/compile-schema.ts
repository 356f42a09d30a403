/**
 * The compile step of validateJSONSchema: checks a schema document the way
 * the library's compile does (draft from `$schema`, keyword shapes, regexes,
 * `$ref` targets, `$ref` loops) and records where each `$ref` leads.
 * Invariants: only references inside the same document are followed (no
 * I/O); every walk is iterative; compiling deeper than MAX_SCHEMA_DEPTH
 * nested schemas is refused, and a schema that reaches itself through
 * in-place keywords ($ref, allOf, anyOf, oneOf, not, if/then/else,
 * dependentSchemas) is an infinite loop, so a 10k-deep or cyclic `$ref`
 * gives a SchemaCompileError, never a stack overflow.
 * Schema locations are JSON pointers into the document ("" is the root).
 */

import type { JsonValue } from '../common/json.js';
import { compileGoRegexp } from '../go/regexp/go-regexp.js';
import { quote as goQuote } from '../go/strconv.js';
import { pointerToken, quoteSingle } from './go-text.js';

export const MAX_SCHEMA_DEPTH = 1000;

/** The text after the library's "jsonschema file:/// compilation failed: ". */
export class SchemaCompileError extends Error {}

export type DraftVersion = 4 | 6 | 7 | 2019 | 2020;

export interface CompiledSchema {
  root: JsonValue;
  version: DraftVersion;
  /** The schema value at a location the compile step checked. */
  node(location: string): JsonValue;
  /** Where the `$ref` of the schema at `location` leads. */
  refTarget(location: string): string | undefined;
}

/** The URL the library gives a location (file:///#/a/b), written as kubecfg's documentation shows it. */
export function schemaUrl(location: string): string {
  return 'file:///' + location.slice(1);
}

/** The library's name of a JSON value's type. */
export function jsonTypeName(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? 'array' : 'object';
}

function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function has(o: { [key: string]: JsonValue }, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** A copy with object keys sorted, so equal JSON values stringify alike. */
function canonical(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isObject(v)) return v;
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(v).sort())
    Object.defineProperty(out, key, { value: canonical(v[key]!), enumerable: true });
  return out;
}

function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

export interface CompileOptions {
  /**
   * The draft for a `$schema` that names no built-in draft. Unset: such a
   * schema does not compile (the library would have to load the metaschema,
   * and nothing is ever read here).
   */
  unknownSchemaDraft?: DraftVersion;
}

function draftOf(root: JsonValue, options: CompileOptions): DraftVersion {
  if (!isObject(root) || !has(root, '$schema')) return 2020;
  const uri = root.$schema;
  if (typeof uri !== 'string') throw new SchemaCompileError('invalid $schema in file:///');
  const drafts: [RegExp, DraftVersion][] = [
    // The library's alias for its latest draft (legacy charts still write it).
    [/^https?:\/\/json-schema\.org\/schema#?$/, 2020],
    [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, 4],
    [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, 6],
    [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 7],
    [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, 2019],
    [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, 2020],
  ];
  for (const [pattern, version] of drafts) if (pattern.test(uri)) return version;
  if (options.unknownSchemaDraft !== undefined) return options.unknownSchemaDraft;
  throw new SchemaCompileError(
    `$schema ${goQuote(uri)} is not a built-in draft (4, 6, 7, 2019-09, 2020-12); other metaschemas are not loaded`,
  );
}

/** Keywords newer than draft 4, by the draft that introduced them; older drafts ignore them. */
const KEYWORD_SINCE: Record<string, DraftVersion> = {
  const: 6,
  contains: 6,
  propertyNames: 6,
  if: 7,
  then: 7,
  else: 7,
  $defs: 2019,
  $anchor: 2019,
  dependentSchemas: 2019,
  dependentRequired: 2019,
  minContains: 2019,
  maxContains: 2019,
  unevaluatedProperties: 2019,
  unevaluatedItems: 2019,
  $recursiveRef: 2019,
  $vocabulary: 2019,
  prefixItems: 2020,
  $dynamicRef: 2020,
};

/** True when `keyword` means something in `version`. */
export function draftKnows(version: DraftVersion, keyword: string): boolean {
  return version >= (KEYWORD_SINCE[keyword] ?? 4);
}

const TYPE_NAMES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const COUNT_KEYWORDS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
];
const UNSUPPORTED_KEYWORDS = [
  '$dynamicRef',
  '$recursiveRef',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$vocabulary',
];

interface Child {
  location: string;
  /** The keyword that holds it (its order among the children follows the library's compile order). */
  keyword: string;
  inPlace: boolean;
  /** Under $defs/definitions: compiled only when a $ref leads there. */
  definition?: boolean;
}

/** Checks one schema's keywords; returns its subschemas. */
class SchemaChecker {
  readonly anchors = new Map<string, string>();
  readonly refs = new Map<string, string>();
  readonly nodes = new Map<string, JsonValue>();
  private readonly draftName: string;

  constructor(
    readonly root: JsonValue,
    readonly version: DraftVersion,
  ) {
    this.draftName = version >= 2019 ? `draft ${version === 2019 ? '2019-09' : '2020-12'}` : `draft-0${version}`;
  }

  fail(location: string, why: string): never {
    throw new SchemaCompileError(
      `${quoteSingle(location)} does not validate with the ${this.draftName} metaschema: ${why}`,
    );
  }

  expectType(location: string, v: JsonValue, ...types: string[]): void {
    const t = jsonTypeName(v);
    if (types.includes(t) || (types.includes('integer') && typeof v === 'number' && Number.isInteger(v))) return;
    this.fail(location, `expected ${types.join(' or ')}, but got ${t}`);
  }

  children(location: string, schema: JsonValue): Child[] {
    if (typeof schema === 'boolean') return [];
    if (!isObject(schema)) return this.fail(location, `expected object or boolean, but got ${jsonTypeName(schema)}`);
    const at = (key: string): string => `${location}/${pointerToken(key)}`;
    const version = this.version;
    const has = (o: { [key: string]: JsonValue }, key: string): boolean =>
      Object.prototype.hasOwnProperty.call(o, key) && draftKnows(version, key);
    const out: Child[] = [];
    const one = (key: string, inPlace: boolean): void => {
      if (!has(schema, key)) return;
      this.expectType(at(key), schema[key]!, 'object', 'boolean');
      out.push({ location: at(key), keyword: key, inPlace });
    };
    const list = (key: string, inPlace: boolean): void => {
      if (!has(schema, key)) return;
      const items = schema[key]!;
      if (!Array.isArray(items)) return this.fail(at(key), `expected array, but got ${jsonTypeName(items)}`);
      if (items.length === 0) this.fail(at(key), 'minimum 1 items required, but found 0 items');
      items.forEach((item, i) => {
        this.expectType(`${at(key)}/${i}`, item, 'object', 'boolean');
        out.push({ location: `${at(key)}/${i}`, keyword: key, inPlace });
      });
    };
    const map = (key: string, inPlace: boolean, check?: (name: string) => void, definition = false): void => {
      if (!has(schema, key)) return;
      const members = schema[key]!;
      if (!isObject(members)) return this.fail(at(key), `expected object, but got ${jsonTypeName(members)}`);
      for (const name of Object.keys(members)) {
        check?.(name);
        const loc = `${at(key)}/${pointerToken(name)}`;
        this.expectType(loc, members[name]!, 'object', 'boolean');
        out.push({ location: loc, keyword: key, inPlace, definition });
      }
    };
    const regex = (loc: string, pattern: string): void => {
      try {
        compileGoRegexp(pattern);
      } catch {
        this.fail(loc, `${quoteSingle(pattern)} is not valid 'regex'`);
      }
    };

    for (const key of UNSUPPORTED_KEYWORDS) {
      if (has(schema, key)) throw new SchemaCompileError(`${quoteSingle(at(key))}: keyword ${key} is not supported`);
    }
    if (has(schema, '$id') && location !== '') {
      const id = schema.$id;
      if (typeof id === 'string' && id.startsWith('#') && this.version < 2019) this.anchors.set(id.slice(1), location);
      else throw new SchemaCompileError(`${quoteSingle(at('$id'))}: $id below the root is not supported`);
    }
    if (has(schema, '$anchor')) {
      this.expectType(at('$anchor'), schema.$anchor!, 'string');
      this.anchors.set(schema.$anchor as string, location);
    }
    if (has(schema, '$ref')) this.expectType(at('$ref'), schema.$ref!, 'string');
    if (has(schema, 'type')) this.checkType(at('type'), schema.type!);
    for (const key of NUMBER_KEYWORDS) {
      if (!has(schema, key)) continue;
      const exclusive = key.startsWith('exclusive');
      if (exclusive && this.version === 4) this.expectType(at(key), schema[key]!, 'boolean');
      else this.expectType(at(key), schema[key]!, 'number');
      if (key === 'multipleOf' && (schema[key] as number) <= 0) this.fail(at(key), 'must be > 0');
    }
    for (const key of COUNT_KEYWORDS) {
      if (!has(schema, key)) continue;
      this.expectType(at(key), schema[key]!, 'integer');
      if ((schema[key] as number) < 0) this.fail(at(key), `must be >= 0 but found ${String(schema[key])}`);
    }
    if (has(schema, 'uniqueItems')) this.expectType(at('uniqueItems'), schema.uniqueItems!, 'boolean');
    if (has(schema, 'enum')) {
      this.expectType(at('enum'), schema.enum!, 'array');
      // Drafts 4 to 7 require distinct enum values (2019-09 dropped that).
      if (version < 2019)
        this.checkUnique(
          at('enum'),
          (schema.enum as JsonValue[]).map((v) => JSON.stringify(canonical(v))),
        );
    }
    if (has(schema, 'required')) this.checkStrings(at('required'), schema.required!);
    if (has(schema, 'pattern')) {
      this.expectType(at('pattern'), schema.pattern!, 'string');
      regex(at('pattern'), schema.pattern as string);
    }
    if (has(schema, 'dependentRequired')) {
      const deps = schema.dependentRequired!;
      if (!isObject(deps)) this.fail(at('dependentRequired'), `expected object, but got ${jsonTypeName(deps)}`);
      for (const name of Object.keys(deps))
        this.checkStrings(`${at('dependentRequired')}/${pointerToken(name)}`, deps[name]!);
    }
    if (has(schema, 'dependencies')) {
      const deps = schema.dependencies!;
      if (!isObject(deps)) this.fail(at('dependencies'), `expected object, but got ${jsonTypeName(deps)}`);
      for (const name of Object.keys(deps)) {
        const loc = `${at('dependencies')}/${pointerToken(name)}`;
        if (Array.isArray(deps[name])) this.checkStrings(loc, deps[name]);
        else {
          this.expectType(loc, deps[name]!, 'object', 'boolean');
          out.push({ location: loc, keyword: 'dependencies', inPlace: true });
        }
      }
    }

    for (const key of ['not', 'if', 'then', 'else']) one(key, true);
    for (const key of ['allOf', 'anyOf', 'oneOf']) list(key, true);
    map('dependentSchemas', true);
    map('properties', false);
    map('patternProperties', false, (name) => regex(`${at('patternProperties')}/${pointerToken(name)}`, name));
    map('$defs', false, undefined, true);
    map('definitions', false, undefined, true);
    for (const key of ['additionalProperties', 'propertyNames', 'contains', 'additionalItems']) one(key, false);
    if (Array.isArray(schema.items) && this.version < 2020) list('items', false);
    else one('items', false);
    list('prefixItems', false);
    return out;
  }

  private checkType(location: string, t: JsonValue): void {
    const names = Array.isArray(t) ? t : [t];
    for (const [i, name] of names.entries()) {
      if (typeof name !== 'string' || !TYPE_NAMES.includes(name)) {
        this.fail(
          Array.isArray(t) ? `${location}/${i}` : location,
          `value must be one of ${TYPE_NAMES.map((n) => goQuote(n)).join(', ')}`,
        );
      }
    }
    if (Array.isArray(t)) this.checkUnique(location, t as string[]);
  }

  private checkStrings(location: string, v: JsonValue): void {
    if (!Array.isArray(v)) return this.fail(location, `expected array, but got ${jsonTypeName(v)}`);
    v.forEach((s, i) => this.expectType(`${location}/${i}`, s, 'string'));
    this.checkUnique(location, v as string[]);
  }

  /** The metaschema's uniqueItems on required, dependentRequired and type arrays. */
  private checkUnique(location: string, v: string[]): void {
    const seen = new Map<string, number>();
    v.forEach((s, i) => {
      const j = seen.get(s);
      if (j !== undefined) this.fail(location, `items at index ${j} and ${i} are equal`);
      if (!seen.has(s)) seen.set(s, i);
    });
  }

  /** The location a `$ref` value names, or a SchemaCompileError. */
  resolveRef(ref: string): string {
    let fragment = ref;
    const rootId = isObject(this.root) && typeof this.root.$id === 'string' ? this.root.$id.split('#')[0]! : '';
    if (rootId !== '' && ref.startsWith(rootId)) fragment = ref.slice(rootId.length);
    if (fragment === '') return '';
    if (!fragment.startsWith('#')) {
      throw new SchemaCompileError(
        `$ref ${goQuote(ref)} points outside this schema document; only references within it (#...) are followed`,
      );
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(fragment.slice(1));
    } catch {
      throw new SchemaCompileError(`${schemaUrl(fragment.slice(1))} not found`);
    }
    if (decoded === '' || decoded === '/') return '';
    if (!decoded.startsWith('/')) {
      const anchored = this.anchors.get(decoded);
      if (anchored === undefined) throw new SchemaCompileError(`file:///${decoded} not found`);
      return anchored;
    }
    let node: JsonValue | undefined = this.root;
    for (const raw of decoded.slice(1).split('/')) {
      const token = unescapeToken(raw);
      if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(token)) node = node[Number(token)];
      else if (isObject(node) && has(node, token)) node = node[token];
      else node = undefined;
      if (node === undefined) throw new SchemaCompileError(`${schemaUrl(decoded)} not found`);
    }
    return decoded
      .slice(1)
      .split('/')
      .map((t) => '/' + pointerToken(unescapeToken(t)))
      .join('');
  }

  valueAt(location: string): JsonValue {
    let node: JsonValue | undefined = this.root;
    if (location === '') return node;
    for (const raw of location.slice(1).split('/')) {
      const token = unescapeToken(decodeURIComponent(raw));
      node = Array.isArray(node) ? node[Number(token)] : isObject(node) ? node[token] : undefined;
    }
    return node ?? null;
  }
}

/** The order in which the library's compileMap compiles subschemas. */
const COMPILE_ORDER = [
  'not',
  'allOf',
  'anyOf',
  'oneOf',
  'properties',
  'patternProperties',
  'additionalProperties',
  'dependencies',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'prefixItems',
  'items',
  'additionalItems',
];

/**
 * Checks every schema of the document (as the library checks the document
 * against its metaschema), then compiles from the root as the library does:
 * `$ref`s are resolved only where compiling reaches them, and a schema met
 * again through in-place keywords since the last non-in-place one (a
 * property, items, ...) is an "infinite loop". Throws SchemaCompileError.
 */
export function compileSchema(root: JsonValue, options: CompileOptions = {}): CompiledSchema {
  const checker = new SchemaChecker(root, draftOf(root, options));
  const childrenOf = new Map<string, Child[]>();
  const children = (location: string): Child[] => {
    let found = childrenOf.get(location);
    if (found === undefined) {
      const schema = checker.valueAt(location);
      checker.nodes.set(location, schema);
      found = checker.children(location, schema);
      childrenOf.set(location, found);
    }
    return found;
  };
  const pending: string[] = [''];
  while (pending.length > 0) {
    for (const child of children(pending.pop()!)) if (!childrenOf.has(child.location)) pending.push(child.location);
  }
  compileFromRoot(checker, children);
  return {
    root,
    version: checker.version,
    node: (location) => checker.nodes.get(location) ?? checker.valueAt(location),
    refTarget: (location) => checker.refs.get(location),
  };
}

interface Edge {
  via: string;
  location: string;
  inPlace: boolean;
}

interface Frame {
  location: string;
  via: string;
  edges: Edge[] | null;
  next: number;
  /** Index of the frame where the current run of in-place keywords began. */
  chainStart: number;
}

/** The library's compile traversal, iterative, bounded by MAX_SCHEMA_DEPTH. */
function compileFromRoot(checker: SchemaChecker, children: (location: string) => Child[]): void {
  const edgesOf = (location: string): Edge[] => {
    const kids = children(location).filter((c) => !c.definition);
    const schema = checker.nodes.get(location);
    const edges: Edge[] = [];
    if (isObject(schema) && typeof schema.$ref === 'string') {
      const target = checker.resolveRef(schema.$ref);
      checker.refs.set(location, target);
      edges.push({ via: '$ref', location: target, inPlace: true });
      // Before 2019-09, a schema with $ref is that reference and nothing else.
      if (checker.version < 2019) return edges;
    }
    const rank = (c: Child): number => COMPILE_ORDER.indexOf(c.keyword);
    const ordered = kids.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i);
    for (const { c } of ordered)
      edges.push({ via: c.location.slice(location.length + 1), location: c.location, inPlace: c.inPlace });
    return edges;
  };
  const started = new Set<string>(['']);
  const onStack = new Map<string, number>([['', 0]]);
  const frames: Frame[] = [{ location: '', via: '', edges: null, next: 0, chainStart: 0 }];
  while (frames.length > 0) {
    const top = frames[frames.length - 1]!;
    top.edges ??= edgesOf(top.location);
    if (top.next >= top.edges.length) {
      frames.pop();
      onStack.delete(top.location);
      continue;
    }
    const edge = top.edges[top.next++]!;
    if (started.has(edge.location)) {
      const at = onStack.get(edge.location);
      if (edge.inPlace && at !== undefined && at >= top.chainStart) {
        const chain = frames.slice(top.chainStart);
        const path =
          chain[0]!.location +
          chain
            .slice(1)
            .map((f) => '/' + f.via)
            .join('') +
          '/' +
          edge.via;
        throw new SchemaCompileError(`infinite loop ${schemaUrl(path)}`);
      }
      continue;
    }
    if (frames.length >= MAX_SCHEMA_DEPTH) {
      throw new SchemaCompileError(
        `schemas nested deeper than ${MAX_SCHEMA_DEPTH} levels at ${schemaUrl(edge.location)}`,
      );
    }
    started.add(edge.location);
    onStack.set(edge.location, frames.length);
    frames.push({
      location: edge.location,
      via: edge.via,
      edges: null,
      next: 0,
      chainStart: edge.inPlace ? top.chainStart : frames.length,
    });
  }
}
