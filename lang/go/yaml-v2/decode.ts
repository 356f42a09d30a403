/**
 * go-yaml v2's decoder into interface{} (decode.go): scalars resolved by
 * resolve.ts, `<<` merges written into the map in document order (so a merge
 * overrides keys before it, keys after it override the merge; in a list of
 * maps the earlier ones win), aliases expanded under go-yaml's own budget
 * ("document contains excessive aliasing": once past 1000 decoded nodes and
 * 100 aliased ones, aliased nodes may be at most 99% of all, down to 10% for
 * documents of 4 million nodes) and refused when an anchor contains itself.
 * A repeated key replaces the earlier value, as yaml.Unmarshal does; with
 * `duplicateKeys: 'strict'` it is yaml.UnmarshalStrict's error, and with
 * 'collision' (KuboCD) an explicit repeat fails while merges still override.
 */

import { GoYamlError } from './errors.js';
import { depthError, lineAt, MAX_DEPTH, type YamlNode } from './nodes.js';
import { resolvePlain, resolveTagged, shortTag } from './resolve.js';
import { GoMap, goSharpV, type GoValue } from './value.js';

export interface DecodeOptions {
  /** 'replace' (yaml.Unmarshal, the default), 'strict' (yaml.UnmarshalStrict), 'collision' (fail on an explicit repeat). */
  duplicateKeys?: 'replace' | 'strict' | 'collision';
}

const RATIO_RANGE_LOW = 400000;
const RATIO_RANGE_HIGH = 4000000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - (0.89 * (decodeCount - RATIO_RANGE_LOW)) / (RATIO_RANGE_HIGH - RATIO_RANGE_LOW);
}

function isMerge(n: YamlNode): boolean {
  return n.kind === 'scalar' && n.value === '<<' && (n.implicit || shortTag(n.tag) === '!!merge');
}

function wantMap(): never {
  throw new GoYamlError('yaml: map merge requires map or sequence of maps as the value', 'decode');
}

export class Decoder {
  private decodeCount = 0;
  private aliasCount = 0;
  private aliasDepth = 0;
  private depth = 0;
  private readonly active = new Set<YamlNode>();
  private readonly terrors: string[] = [];

  constructor(
    private readonly text: string,
    private readonly options: DecodeOptions = {},
  ) {}

  /** The document's value; strict mode's collected errors are thrown at the end, as Go does. */
  document(n: YamlNode | null): GoValue {
    if (n === null) return null;
    const v = this.unmarshal(n);
    if (this.terrors.length > 0)
      throw new GoYamlError(`yaml: unmarshal errors:\n  ${this.terrors.join('\n  ')}`, 'duplicate-key');
    return v;
  }

  private count(): void {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    if (
      this.aliasCount > 100 &&
      this.decodeCount > 1000 &&
      this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)
    )
      throw new GoYamlError('yaml: document contains excessive aliasing', 'aliasing');
  }

  private unmarshal(n: YamlNode, into?: GoMap): GoValue {
    this.count();
    if (++this.depth > MAX_DEPTH) throw depthError();
    try {
      switch (n.kind) {
        case 'alias':
          return this.alias(n, into);
        case 'scalar':
          return this.scalar(n);
        case 'seq':
          return n.children.map((c) => this.unmarshal(c));
        case 'map': {
          const out = into ?? new GoMap();
          this.mapping(n, out, into !== undefined);
          return out;
        }
      }
    } finally {
      this.depth--;
    }
  }

  private alias(n: YamlNode, into?: GoMap): GoValue {
    if (this.active.has(n)) throw new GoYamlError(`yaml: anchor '${n.value}' value contains itself`, 'decode');
    this.active.add(n);
    this.aliasDepth++;
    try {
      return this.unmarshal(n.alias!, into);
    } finally {
      this.aliasDepth--;
      this.active.delete(n);
    }
  }

  private scalar(n: YamlNode): GoValue {
    if (n.tag === '' && !n.implicit) return n.value;
    const r = n.tag === '' ? resolvePlain(n.value) : resolveTagged(n.tag, n.value);
    return r.tag === 'timestamp' ? n.value : r.value;
  }

  /** Fills out with n's pairs; `merging` when out is a map a `<<` merges into. */
  private mapping(n: YamlNode, out: GoMap, merging: boolean): void {
    const kids = n.children;
    for (let i = 0; i < kids.length; i += 2) {
      const keyNode = kids[i]!;
      const valueNode = kids[i + 1]!;
      if (isMerge(keyNode)) {
        this.merge(valueNode, out);
        continue;
      }
      const k = this.unmarshal(keyNode);
      if (k instanceof GoMap || Array.isArray(k))
        throw new GoYamlError(`yaml: invalid map key: ${goSharpV(k)}`, 'decode');
      const v = this.unmarshal(valueNode);
      this.setMapIndex(valueNode, out, k, v, merging);
    }
  }

  private setMapIndex(valueNode: YamlNode, out: GoMap, k: GoValue, v: GoValue, merging: boolean): void {
    const mode = this.options.duplicateKeys ?? 'replace';
    if (mode !== 'replace' && out.has(k)) {
      if (mode === 'strict') {
        this.terrors.push(`line ${lineAt(this.text, valueNode.offset)}: key ${goSharpV(k)} already set in map`);
        return;
      }
      if (!merging) throw new GoYamlError(`yaml: key ${goSharpV(k)} already set in map`, 'key-collision');
    }
    out.set(k, v);
  }

  private merge(n: YamlNode, out: GoMap): void {
    const mapOrAliasOfMap = (x: YamlNode): boolean =>
      x.kind === 'map' || (x.kind === 'alias' && x.alias!.kind === 'map');
    if (n.kind === 'map' || n.kind === 'alias') {
      if (!mapOrAliasOfMap(n)) wantMap();
      this.unmarshal(n, out);
    } else if (n.kind === 'seq') {
      // earlier maps take precedence, so they are written last
      for (let i = n.children.length - 1; i >= 0; i--) {
        const item = n.children[i]!;
        if (!mapOrAliasOfMap(item)) wantMap();
        this.unmarshal(item, out);
      }
    } else wantMap();
  }
}
