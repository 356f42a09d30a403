/**
 * The validation order and error tree of santhosh-tekuri/jsonschema v6, the
 * library Helm 3.18 (kubecfg's) checks values.schema.json with. It differs
 * from v5 (validate.ts, kubecfg's own native) in more than wording: type,
 * const and enum stop a schema at the first failure; each property is
 * checked against properties, patternProperties and additionalProperties
 * in turn; several errors of one schema become a "validation failed" group
 * at its instance; allOf/anyOf/oneOf wrap their failures once; if/then/else
 * adds its branch's errors directly. Where the library ranges over a Go map
 * (the value's properties, dependencies) it reports in random order; we use
 * codepoint order. `format` is not asserted (see docs/helm.md).
 * Invariant: depth is bounded as in validate.ts (ValidationDepthError).
 */

import type { JsonValue } from '../common/json.js';
import type { CompiledSchema } from './compile-schema.js';
import { draftKnows, jsonTypeName, schemaUrl } from './compile-schema.js';
import { compareDecimal, isMultipleOf } from './decimal.js';
import { quoteSingle } from './go-text.js';
import {
  firstDuplicate,
  hasOwn,
  isObject,
  jsonEquals,
  numericBounds,
  patternMatches,
  sortedKeys,
  type JsonObject,
} from './json-values.js';
import { MAX_VALIDATE_DEPTH, ValidationDepthError } from './validate.js';
import { displayValue, localizedFloat, localizedInt } from './v6-text.js';

/** One node of v6's ValidationError tree; `group` and `reference` are its Group and Reference kinds. */
export interface V6Violation {
  /** A JSON pointer, tokens escaped with ~0 and ~1 only (v6 does not percent-encode). */
  instanceLocation: string;
  message: string;
  kind: 'leaf' | 'group' | 'reference';
  causes: V6Violation[];
}

const TYPE_ORDER = ['null', 'boolean', 'number', 'integer', 'string', 'array', 'object'];

function token(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

function quotedList(names: readonly string[]): string {
  return names.map(quoteSingle).join(', ');
}

export class ValidatorV6 {
  private depth = 0;

  constructor(private readonly schema: CompiledSchema) {}

  /** The causes under v6's root "jsonschema validation failed" node, or null when `value` is valid. */
  validateRoot(value: JsonValue): V6Violation[] | null {
    const err = this.validate('', value, '');
    if (!err) return null;
    return err.kind === 'group' ? err.causes : [err];
  }

  private validate(location: string, v: JsonValue, vloc: string): V6Violation | null {
    if (++this.depth > MAX_VALIDATE_DEPTH) {
      throw new ValidationDepthError(
        `validation nested deeper than ${MAX_VALIDATE_DEPTH} levels at ${quoteSingle(vloc)} (${schemaUrl(location)})`,
      );
    }
    try {
      return this.validateHere(location, v, vloc);
    } finally {
      this.depth--;
    }
  }

  private validateHere(location: string, v: JsonValue, vloc: string): V6Violation | null {
    const s = this.schema.node(location);
    const leaf = (message: string, causes: V6Violation[] = []): V6Violation => ({
      instanceLocation: vloc,
      message,
      kind: 'leaf',
      causes,
    });
    if (typeof s === 'boolean') return s ? null : leaf('false schema');
    if (!isObject(s)) return null;
    const version = this.schema.version;
    const has = (key: string): boolean => hasOwn(s, key) && draftKnows(version, key);

    const types = (has('type') ? (Array.isArray(s.type) ? s.type : [s.type]) : []) as string[];
    if (types.length > 0) {
      const actual = jsonTypeName(v);
      const ok = types.some((t) => t === actual || (t === 'integer' && typeof v === 'number' && Number.isInteger(v)));
      if (!ok) return leaf(`got ${actual}, want ${TYPE_ORDER.filter((t) => types.includes(t)).join(' or ')}`);
    }
    if (has('const') && !jsonEquals(v, s.const!)) {
      const c = s.const!;
      return leaf(typeof c === 'object' && c !== null ? 'const failed' : `value must be ${displayValue(c)}`);
    }
    if (has('enum')) {
      const options = s.enum as JsonValue[];
      if (!options.some((o) => jsonEquals(v, o))) {
        const primitive = options.every((o) => typeof o !== 'object' || o === null);
        return leaf(
          !primitive
            ? 'enum failed'
            : options.length === 1
              ? `value must be ${displayValue(options[0]!)}`
              : `value must be one of ${options.map(displayValue).join(', ')}`,
        );
      }
    }

    const errors: V6Violation[] = [];
    const add = (e: V6Violation | null): void => {
      if (e) errors.push(e);
    };
    const child = (keyword: string, value: JsonValue, childLoc: string): V6Violation | null =>
      this.validate(`${location}/${keyword}`, value, childLoc);
    const inPlace = (keyword: string): V6Violation | null => child(keyword, v, vloc);

    const refTarget = this.schema.refTarget(location);
    if (refTarget !== undefined) {
      const err = this.validate(refTarget, v, vloc);
      const ref = err && {
        ...leaf('validation failed', err.kind === 'group' ? err.causes : [err]),
        kind: 'reference' as const,
      };
      if (version < 2019) return ref;
      add(ref);
    }

    if (isObject(v)) this.objectKeywords(s, v, vloc, has, leaf, child, inPlace, add);
    else if (Array.isArray(v)) this.arrayKeywords(s, v, vloc, has, leaf, child, add);
    else if (typeof v === 'string') stringKeywords(s, v, leaf, add);
    else if (typeof v === 'number') numberKeywords(s, v, version, leaf, add);

    if (has('not') && inPlace('not') === null) add(leaf('not failed'));
    if (Array.isArray(s.allOf)) {
      const causes = s.allOf.map((_, i) => inPlace(`allOf/${i}`)).filter((e): e is V6Violation => e !== null);
      if (causes.length > 0) add(leaf('allOf failed', causes));
    }
    if (Array.isArray(s.anyOf)) {
      const causes: V6Violation[] = [];
      let matched = false;
      for (let i = 0; i < s.anyOf.length && !matched; i++) {
        const err = inPlace(`anyOf/${i}`);
        if (err) causes.push(err);
        else matched = true;
      }
      if (!matched) add(leaf('anyOf failed', causes));
    }
    if (Array.isArray(s.oneOf)) {
      const causes: V6Violation[] = [];
      let matched = -1;
      for (let i = 0; i < s.oneOf.length; i++) {
        const err = inPlace(`oneOf/${i}`);
        if (err) {
          if (matched === -1) causes.push(err);
        } else if (matched === -1) {
          matched = i;
        } else {
          add(leaf(`oneOf failed, subschemas ${localizedInt(matched)}, ${localizedInt(i)} matched`));
          break;
        }
      }
      if (matched === -1) add(leaf('oneOf failed, none matched', causes));
    }
    if (has('if')) {
      if (inPlace('if') === null) {
        if (has('then')) add(inPlace('then'));
      } else if (has('else')) add(inPlace('else'));
    }

    if (errors.length === 0) return null;
    if (errors.length === 1) return errors[0]!;
    return { ...leaf('validation failed', errors), kind: 'group' };
  }

  private objectKeywords(
    s: JsonObject,
    v: JsonObject,
    vloc: string,
    has: (key: string) => boolean,
    leaf: (message: string, causes?: V6Violation[]) => V6Violation,
    child: (keyword: string, value: JsonValue, childLoc: string) => V6Violation | null,
    inPlace: (keyword: string) => V6Violation | null,
    add: (e: V6Violation | null) => void,
  ): void {
    const count = Object.keys(v).length;
    if (typeof s.minProperties === 'number' && count < s.minProperties)
      add(leaf(`minProperties: got ${localizedInt(count)}, want ${localizedInt(s.minProperties)}`));
    if (typeof s.maxProperties === 'number' && count > s.maxProperties)
      add(leaf(`maxProperties: got ${localizedInt(count)}, want ${localizedInt(s.maxProperties)}`));
    if (Array.isArray(s.required)) {
      const missing = (s.required as string[]).filter((name) => !hasOwn(v, name));
      if (missing.length === 1) add(leaf(`missing property ${quoteSingle(missing[0]!)}`));
      else if (missing.length > 1) add(leaf(`missing properties ${quotedList(missing)}`));
    }
    const dependentRequired = (deps: JsonObject): void => {
      for (const name of sortedKeys(deps)) {
        if (!hasOwn(v, name)) continue;
        const dep = deps[name]!;
        if (!Array.isArray(dep)) {
          add(inPlace(`dependencies/${token(name)}`));
          continue;
        }
        const missing = (dep as string[]).filter((needed) => !hasOwn(v, needed));
        if (missing.length > 0) add(leaf(`properties ${quotedList(missing)} required, if ${quoteSingle(name)} exists`));
      }
    };
    if (has('dependencies') && isObject(s.dependencies)) dependentRequired(s.dependencies);

    const patterns = isObject(s.patternProperties) ? sortedKeys(s.patternProperties) : [];
    const extra: string[] = [];
    for (const name of sortedKeys(v)) {
      const at = `${vloc}/${token(name)}`;
      let evaluated = false;
      if (isObject(s.properties) && hasOwn(s.properties, name)) {
        evaluated = true;
        add(child(`properties/${token(name)}`, v[name]!, at));
      }
      for (const pattern of patterns) {
        if (!patternMatches(pattern, name)) continue;
        evaluated = true;
        add(child(`patternProperties/${token(pattern)}`, v[name]!, at));
      }
      if (!evaluated && has('additionalProperties')) {
        if (s.additionalProperties === false) extra.push(name);
        else if (s.additionalProperties !== true) add(child('additionalProperties', v[name]!, at));
      }
    }
    if (extra.length > 0) add(leaf(`additional properties ${quotedList(extra)} not allowed`));

    if (has('propertyNames')) {
      // The library validates each name as a value of its own and relabels the root of that
      // validation, so the node and its causes sit at '' whatever the object's location.
      for (const name of sortedKeys(v)) {
        const err = child('propertyNames', name, '');
        if (err) {
          const causes = err.kind === 'group' ? err.causes : [err];
          add({ instanceLocation: '', message: `invalid propertyName ${quoteSingle(name)}`, kind: 'leaf', causes });
        }
      }
    }
    if (has('dependentSchemas') && isObject(s.dependentSchemas)) {
      for (const name of sortedKeys(s.dependentSchemas))
        if (hasOwn(v, name)) add(inPlace(`dependentSchemas/${token(name)}`));
    }
    if (has('dependentRequired') && isObject(s.dependentRequired)) {
      for (const name of sortedKeys(s.dependentRequired)) {
        const dep = s.dependentRequired[name];
        if (!hasOwn(v, name) || !Array.isArray(dep)) continue;
        const missing = (dep as string[]).filter((needed) => !hasOwn(v, needed));
        if (missing.length > 0) add(leaf(`properties ${quotedList(missing)} required, if ${quoteSingle(name)} exists`));
      }
    }
  }

  private arrayKeywords(
    s: JsonObject,
    v: JsonValue[],
    vloc: string,
    has: (key: string) => boolean,
    leaf: (message: string, causes?: V6Violation[]) => V6Violation,
    child: (keyword: string, value: JsonValue, childLoc: string) => V6Violation | null,
    add: (e: V6Violation | null) => void,
  ): void {
    if (typeof s.minItems === 'number' && v.length < s.minItems)
      add(leaf(`minItems: got ${localizedInt(v.length)}, want ${localizedInt(s.minItems)}`));
    if (typeof s.maxItems === 'number' && v.length > s.maxItems)
      add(leaf(`maxItems: got ${localizedInt(v.length)}, want ${localizedInt(s.maxItems)}`));
    const duplicate = s.uniqueItems === true ? firstDuplicate(v) : undefined;
    if (duplicate) add(leaf(`items at ${localizedInt(duplicate[0])} and ${localizedInt(duplicate[1])} are equal`));

    // The library names items after the prefix by their index in the rest of the array
    // (arr[evaluated:]), so with two prefix items the third item's error is at '/0'.
    const rest = (keyword: string, from: number): void => {
      for (let i = from; i < v.length; i++) add(child(keyword, v[i]!, `${vloc}/${i - from}`));
    };
    if (this.schema.version < 2020) {
      if (Array.isArray(s.items)) {
        const prefix = Math.min(s.items.length, v.length);
        for (let i = 0; i < prefix; i++) add(child(`items/${i}`, v[i]!, `${vloc}/${i}`));
        if (s.additionalItems === false && prefix !== v.length)
          add(leaf(`last ${localizedInt(v.length - prefix)} additionalItem(s) not allowed`));
        else if (isObject(s.additionalItems)) rest('additionalItems', prefix);
      } else if (has('items')) {
        for (let i = 0; i < v.length; i++) add(child('items', v[i]!, `${vloc}/${i}`));
      }
    } else {
      const prefix = Array.isArray(s.prefixItems) ? Math.min(s.prefixItems.length, v.length) : 0;
      for (let i = 0; i < prefix; i++) add(child(`prefixItems/${i}`, v[i]!, `${vloc}/${i}`));
      if (has('items')) rest('items', prefix);
    }

    if (has('contains')) {
      const causes: V6Violation[] = [];
      const matched: number[] = [];
      v.forEach((item, i) => {
        const err = child('contains', item, `${vloc}/${i}`);
        if (err) causes.push(err);
        else matched.push(i);
      });
      const at = (): string => matched.join(' ');
      if (has('minContains') && typeof s.minContains === 'number') {
        if (matched.length < s.minContains)
          add(
            leaf(
              matched.length === 0
                ? `min ${localizedInt(s.minContains)} items required to match contains schema, but none matched`
                : `min ${localizedInt(s.minContains)} items required to match contains schema, but matched ${localizedInt(matched.length)} items at ${at()}`,
              causes,
            ),
          );
      } else if (matched.length === 0) add(leaf('no items match contains schema', causes));
      if (has('maxContains') && typeof s.maxContains === 'number' && matched.length > s.maxContains)
        add(
          leaf(
            `max ${localizedInt(s.maxContains)} items required to match contains schema, but matched ${localizedInt(matched.length)} items at ${at()}`,
          ),
        );
    }
  }
}

function stringKeywords(
  s: JsonObject,
  v: string,
  leaf: (message: string) => V6Violation,
  add: (e: V6Violation | null) => void,
): void {
  const length = [...v].length;
  if (typeof s.minLength === 'number' && length < s.minLength)
    add(leaf(`minLength: got ${localizedInt(length)}, want ${localizedInt(s.minLength)}`));
  if (typeof s.maxLength === 'number' && length > s.maxLength)
    add(leaf(`maxLength: got ${localizedInt(length)}, want ${localizedInt(s.maxLength)}`));
  if (typeof s.pattern === 'string' && !patternMatches(s.pattern, v))
    add(leaf(`${quoteSingle(v)} does not match pattern ${quoteSingle(s.pattern)}`));
}

function numberKeywords(
  s: JsonObject,
  v: number,
  version: number,
  leaf: (message: string) => V6Violation,
  add: (e: V6Violation | null) => void,
): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = numericBounds(s, version);
  const got = localizedFloat(v);
  const bound = (name: string, want: number): V6Violation => leaf(`${name}: got ${got}, want ${localizedFloat(want)}`);
  if (minimum !== undefined && compareDecimal(v, minimum) < 0) add(bound('minimum', minimum));
  if (maximum !== undefined && compareDecimal(v, maximum) > 0) add(bound('maximum', maximum));
  if (exclusiveMinimum !== undefined && compareDecimal(v, exclusiveMinimum) <= 0)
    add(bound('exclusiveMinimum', exclusiveMinimum));
  if (exclusiveMaximum !== undefined && compareDecimal(v, exclusiveMaximum) >= 0)
    add(bound('exclusiveMaximum', exclusiveMaximum));
  if (typeof s.multipleOf === 'number' && !isMultipleOf(v, s.multipleOf)) add(bound('multipleOf', s.multipleOf));
}
