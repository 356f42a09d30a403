/**
 * Read-only navigation of a Kubernetes OpenAPI v2 document: the definition
 * of a group/version/kind, `$ref` resolution, child schemas of fields and
 * list items, and the strategic-merge metadata of a field
 * (`x-kubernetes-patch-merge-key` / `x-kubernetes-patch-strategy`).
 * Invariants: never mutates the document; `$ref` chains are followed a
 * bounded number of times so a cyclic document cannot hang the caller.
 */

export interface SchemaNode {
  readonly type?: string | string[];
  readonly format?: string;
  readonly $ref?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly items?: SchemaNode;
  readonly required?: readonly string[];
  readonly allOf?: readonly SchemaNode[];
  readonly enum?: readonly unknown[];
  readonly 'x-kubernetes-patch-merge-key'?: string;
  readonly 'x-kubernetes-patch-strategy'?: string;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-group-version-kind'?: readonly GroupVersionKind[];
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface OpenApiDocument {
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
  readonly paths?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export interface PatchMeta {
  /** Field whose value identifies a list element (e.g. `name` for containers). */
  readonly mergeKey?: string;
  /** Strategies, comma separated in the document: `merge`, `replace`, `retainKeys`. */
  readonly strategies: readonly string[];
}

const MAX_REF_HOPS = 64;

/** Indexes definitions by GVK so lookups stay O(1) over the ~800 definitions. */
export class OpenApiSchema {
  private readonly byGvk = new Map<string, SchemaNode>();
  private readonly nameByGvk = new Map<string, string>();

  constructor(readonly document: OpenApiDocument) {
    for (const [name, def] of Object.entries(document.definitions ?? {})) {
      for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
        this.byGvk.set(gvkKey(gvk), def);
        this.nameByGvk.set(gvkKey(gvk), name);
      }
    }
  }

  /** The definition name of a kind, e.g. `io.k8s.api.apps.v1.Deployment`. */
  definitionName(gvk: GroupVersionKind): string | undefined {
    return this.nameByGvk.get(gvkKey(gvk));
  }

  /** The top-level schema of a kind, or undefined when the document does not describe it (e.g. custom resources). */
  forKind(gvk: GroupVersionKind): SchemaNode | undefined {
    return this.byGvk.get(gvkKey(gvk));
  }

  /** Follows `$ref` (and a single-element `allOf`, as generated docs use) to the concrete node. */
  resolve(node: SchemaNode | undefined): SchemaNode | undefined {
    let current = node;
    for (let hops = 0; current !== undefined && hops < MAX_REF_HOPS; hops++) {
      if (current.$ref !== undefined) {
        const name = current.$ref.replace(/^#\/definitions\//, '');
        current = this.document.definitions?.[name];
      } else if (current.allOf !== undefined && current.allOf.length === 1 && current.properties === undefined) {
        current = current.allOf[0];
      } else {
        return current;
      }
    }
    return undefined;
  }

  /** The (unresolved) schema of field `key` of an object schema; undefined when unknown. */
  fieldSchema(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
    const resolved = this.resolve(node);
    if (resolved === undefined) return undefined;
    const prop =
      resolved.properties !== undefined && Object.hasOwn(resolved.properties, key)
        ? resolved.properties[key]
        : undefined;
    if (prop !== undefined) return prop;
    if (typeof resolved.additionalProperties === 'object') return resolved.additionalProperties;
    return undefined;
  }

  /** The schema of the elements of an array schema. */
  itemSchema(node: SchemaNode | undefined): SchemaNode | undefined {
    return this.resolve(node)?.items;
  }
}

/** Strategic-merge metadata as written on the field itself (not on the resolved target). */
export function patchMetaOf(field: SchemaNode | undefined): PatchMeta {
  const strategy = field?.['x-kubernetes-patch-strategy'];
  return {
    mergeKey: field?.['x-kubernetes-patch-merge-key'],
    strategies: strategy === undefined ? [] : strategy.split(',').map((s) => s.trim()),
  };
}

function gvkKey(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}/${gvk.kind}`;
}

/** Splits `apps/v1` into group and version; `v1` is the core group. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
