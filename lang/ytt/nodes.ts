/**
 * The YAML tree of ytt: documents, maps, arrays and their items, each item
 * keeping its annotations, the comments written above it (for the converter)
 * and where it came from. Scalars are JS values; a float is an SFloat so
 * `1.0` stays a float the way ytt's schema types it.
 */
import type { Where } from './errors.js';

export class SFloat {
  constructor(readonly v: number) {}
}

/** An annotation after evaluation: `#@overlay/match by="name"` → name, args, kwargs. */
export interface Annotation {
  name: string;
  args: unknown[];
  kwargs: [string, unknown][];
  /** the annotation's source text after the name (for not_null=... read from the text) */
  text: string;
  where: Where;
}

/** A comment written on its own line(s) above a node, or the last block of a file. */
export interface Comment {
  /** the text after the marker, e.g. `#! foo` → ` foo` */
  text: string;
  /** `#!` (ytt comment) or `#` (plain YAML comment, only outside templates) */
  marker: string;
  where: Where;
}

export interface NodeMeta {
  anns: Annotation[];
  comments: Comment[];
  where: Where;
  /** blank lines directly above this node's comments (the converter keeps them) */
  blankBefore?: boolean;
}

export type YScalar = null | boolean | number | SFloat | string;
export type YValue = YScalar | YMap | YArray;

export class YMapItem {
  constructor(
    public key: YScalar,
    public value: YValue,
    public meta: NodeMeta,
  ) {}
}
export class YArrayItem {
  constructor(
    public value: YValue,
    public meta: NodeMeta,
  ) {}
}
export class YMap {
  readonly kind = 'map';
  constructor(public items: YMapItem[] = []) {}
  get(key: YScalar): YMapItem | undefined {
    return this.items.find((i) => scalarEq(i.key, key));
  }
}
export class YArray {
  readonly kind = 'array';
  constructor(public items: YArrayItem[] = []) {}
}
export class YDoc {
  constructor(
    public value: YValue,
    public meta: NodeMeta,
  ) {}
}

function scalarEq(a: YScalar, b: YScalar): boolean {
  if (a instanceof SFloat) a = a.v;
  if (b instanceof SFloat) b = b.v;
  return a === b;
}

export function emptyMeta(where: Where): NodeMeta {
  return { anns: [], comments: [], where };
}

export function deepCopy(v: YValue): YValue {
  if (v instanceof YMap) return new YMap(v.items.map((i) => new YMapItem(i.key, deepCopy(i.value), copyMeta(i.meta))));
  if (v instanceof YArray) return new YArray(v.items.map((i) => new YArrayItem(deepCopy(i.value), copyMeta(i.meta))));
  return v;
}
function copyMeta(m: NodeMeta): NodeMeta {
  return { ...m, anns: [...m.anns], comments: [...m.comments] };
}

export function typeName(v: YValue | unknown): string {
  if (v instanceof YMap) return 'map';
  if (v instanceof YArray) return 'array';
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return 'integer';
  if (v instanceof SFloat) return 'float';
  if (typeof v === 'string') return 'string';
  return 'unknown';
}

/** Plain JSON-able value (floats become numbers): what tests and the converter compare. */
export function toPlain(v: YValue): unknown {
  if (v instanceof YMap) {
    const o: Record<string, unknown> = {};
    for (const i of v.items) o[String(i.key instanceof SFloat ? i.key.v : i.key)] = toPlain(i.value);
    return o;
  }
  if (v instanceof YArray) return v.items.map((i) => toPlain(i.value));
  if (v instanceof SFloat) return v.v;
  return v;
}
