/**
 * Validates a JSON value against a compiled schema with the keyword order,
 * error tree and message wording of santhosh-tekuri/jsonschema v5 (the
 * library kubecfg's validateJSONSchema uses). Where the library iterates a
 * Go map (properties, patternProperties, additionalProperties names) and so
 * picks a random first error, we iterate keys in codepoint order.
 * Invariant: recursion depth is bounded by MAX_VALIDATE_DEPTH (instance
 * nesting plus schema nesting); past it a ValidationDepthError is thrown.
 */

import type { JsonValue } from '../common/json.js';
import type { CompiledSchema } from './compile-schema.js';
import { draftKnows, jsonTypeName, schemaUrl } from './compile-schema.js';
import { compareDecimal, isMultipleOf } from './decimal.js';
import { goFloat, goSharpV, pointerToken, quoteSingle } from './go-text.js';
import {
  firstDuplicate,
  hasOwn as has,
  isObject,
  jsonEquals,
  numericBounds,
  patternMatches as matches,
  sortedKeys,
  type JsonObject,
} from './json-values.js';

export const MAX_VALIDATE_DEPTH = 500;

export class ValidationDepthError extends Error {}

/** One node of the library's ValidationError tree. */
export interface SchemaViolation {
  keywordLocation: string;
  instanceLocation: string;
  message: string;
  causes: SchemaViolation[];
}

/** The first leaf of the tree, as the library's Error() picks it. */
export function firstLeaf(v: SchemaViolation): SchemaViolation {
  let leaf = v;
  while (leaf.causes.length > 0) leaf = leaf.causes[0]!;
  return leaf;
}

/** kubecfg's text for a violation tree: `jsonschema: '<instance>' does not validate with <url>: <why>`. */
export function violationText(v: SchemaViolation): string {
  const leaf = firstLeaf(v);
  return `jsonschema: ${quoteSingle(leaf.instanceLocation)} does not validate with ${schemaUrl(leaf.keywordLocation)}: ${leaf.message}`;
}

export class Validator {
  private depth = 0;

  constructor(private readonly schema: CompiledSchema) {}

  /** Null when `value` is valid. */
  validateRoot(value: JsonValue): SchemaViolation | null {
    return this.validate('', '', value, '');
  }

  /**
   * `location`: where the schema is in the document; `keywordBase`: the
   * path that led to it through the keywords (the library's keyword
   * location, which goes through `$ref` rather than to its target).
   */
  private validate(location: string, keywordBase: string, v: JsonValue, vloc: string): SchemaViolation | null {
    if (++this.depth > MAX_VALIDATE_DEPTH) {
      throw new ValidationDepthError(
        `validation nested deeper than ${MAX_VALIDATE_DEPTH} levels at ${quoteSingle(vloc)} (${schemaUrl(keywordBase)})`,
      );
    }
    try {
      return this.validateHere(location, keywordBase, v, vloc);
    } finally {
      this.depth--;
    }
  }

  private validateHere(location: string, keywordBase: string, v: JsonValue, vloc: string): SchemaViolation | null {
    const s = this.schema.node(location);
    const violation = (keyword: string, message: string, causes: SchemaViolation[] = []): SchemaViolation => ({
      keywordLocation: keyword === '' ? keywordBase : `${keywordBase}/${keyword}`,
      instanceLocation: vloc,
      message,
      causes,
    });
    const sub = (keyword: string, child: JsonValue, childLoc: string): SchemaViolation | null =>
      this.validate(`${location}/${keyword}`, `${keywordBase}/${keyword}`, child, childLoc);
    const inPlace = (keyword: string): SchemaViolation | null => sub(keyword, v, vloc);

    if (typeof s === 'boolean') return s ? null : violation('', 'not allowed');
    if (!isObject(s)) return null;
    const version = this.schema.version;
    const has = (o: JsonObject, key: string): boolean =>
      Object.prototype.hasOwnProperty.call(o, key) && draftKnows(version, key);
    const errors: SchemaViolation[] = [];
    const refTarget = this.schema.refTarget(location);

    const refOnly = refTarget !== undefined && version < 2019;
    if (!refOnly) {
      const types = (has(s, 'type') ? (Array.isArray(s.type) ? s.type : [s.type]) : []) as string[];
      if (types.length > 0) {
        const actual = jsonTypeName(v);
        const ok = types.some((t) => t === actual || (t === 'integer' && typeof v === 'number' && Number.isInteger(v)));
        if (!ok) return violation('type', `expected ${types.join(' or ')}, but got ${actual}`);
      }
      if (has(s, 'const') && !jsonEquals(v, s.const!)) {
        const c = s.const!;
        errors.push(
          violation('const', typeof c === 'object' && c !== null ? 'const failed' : `value must be ${goSharpV(c)}`),
        );
      }
      if (has(s, 'enum')) {
        const options = s.enum as JsonValue[];
        if (options.length > 0 && !options.some((o) => jsonEquals(v, o)))
          errors.push(violation('enum', enumMessage(options)));
      }
      if (isObject(v)) this.objectKeywords(s, v, vloc, violation, sub, inPlace, errors);
      else if (Array.isArray(v)) this.arrayKeywords(s, v, vloc, violation, sub, errors);
      else if (typeof v === 'string') stringKeywords(s, v, violation, errors);
      else if (typeof v === 'number') numberKeywords(s, v, version, violation, errors);
    }

    if (refTarget !== undefined) {
      const err = this.validate(refTarget, `${keywordBase}/$ref`, v, vloc);
      if (err) {
        const causes = err.message === '' ? err.causes : [err];
        errors.push(
          violation('$ref', `doesn't validate with ${quoteSingle(refTarget === '' ? '#' : '#' + refTarget)}`, causes),
        );
      }
    }
    if (!refOnly) this.applicators(s, violation, inPlace, errors);

    if (errors.length === 0) return null;
    if (errors.length === 1) return errors[0]!;
    return violation('', '', errors); // the library's wrapper with an empty message
  }

  private objectKeywords(
    s: JsonObject,
    v: JsonObject,
    vloc: string,
    violation: (keyword: string, message: string, causes?: SchemaViolation[]) => SchemaViolation,
    sub: (keyword: string, child: JsonValue, childLoc: string) => SchemaViolation | null,
    inPlace: (keyword: string) => SchemaViolation | null,
    errors: SchemaViolation[],
  ): void {
    const count = Object.keys(v).length;
    if (typeof s.minProperties === 'number' && count < s.minProperties) {
      errors.push(
        violation('minProperties', `minimum ${s.minProperties} properties allowed, but found ${count} properties`),
      );
    }
    if (typeof s.maxProperties === 'number' && count > s.maxProperties) {
      errors.push(
        violation('maxProperties', `maximum ${s.maxProperties} properties allowed, but found ${count} properties`),
      );
    }
    if (Array.isArray(s.required)) {
      const missing = (s.required as string[]).filter((name) => !has(v, name)).map(quoteSingle);
      if (missing.length > 0) errors.push(violation('required', `missing properties: ${missing.join(', ')}`));
    }
    const evaluated = new Set<string>();
    const push = (e: SchemaViolation | null): void => {
      if (e) errors.push(e);
    };
    if (isObject(s.properties)) {
      for (const name of sortedKeys(s.properties)) {
        if (!has(v, name)) continue;
        evaluated.add(name);
        push(sub(`properties/${pointerToken(name)}`, v[name]!, `${vloc}/${pointerToken(name)}`));
      }
    }
    if (has(s, 'propertyNames') && this.schema.version >= 6) {
      for (const name of sortedKeys(v)) push(sub('propertyNames', name, `${vloc}/${pointerToken(name)}`));
    }
    if (isObject(s.patternProperties)) {
      for (const pattern of sortedKeys(s.patternProperties)) {
        for (const name of sortedKeys(v)) {
          if (!matches(pattern, name)) continue;
          evaluated.add(name);
          push(sub(`patternProperties/${pointerToken(pattern)}`, v[name]!, `${vloc}/${pointerToken(name)}`));
        }
      }
    }
    if (has(s, 'additionalProperties')) {
      const extra = sortedKeys(v).filter((name) => !evaluated.has(name));
      if (s.additionalProperties === false) {
        if (extra.length > 0) {
          errors.push(
            violation('additionalProperties', `additionalProperties ${extra.map(quoteSingle).join(', ')} not allowed`),
          );
        }
      } else if (s.additionalProperties !== true) {
        for (const name of extra) push(sub('additionalProperties', v[name]!, `${vloc}/${pointerToken(name)}`));
      }
    }
    const requiredIf = (keyword: string, deps: JsonObject): void => {
      for (const name of sortedKeys(deps)) {
        if (!has(v, name)) continue;
        const dep = deps[name]!;
        if (!Array.isArray(dep)) {
          push(inPlace(`${keyword}/${pointerToken(name)}`));
          continue;
        }
        dep.forEach((needed, i) => {
          if (typeof needed === 'string' && !has(v, needed)) {
            errors.push(
              violation(
                `${keyword}/${pointerToken(name)}/${i}`,
                `property ${quoteSingle(needed)} is required, if ${quoteSingle(name)} property exists`,
              ),
            );
          }
        });
      }
    };
    const version = this.schema.version;
    if (isObject(s.dependencies)) requiredIf('dependencies', s.dependencies);
    if (version >= 2019 && isObject(s.dependentRequired)) requiredIf('dependentRequired', s.dependentRequired);
    if (version >= 2019 && isObject(s.dependentSchemas)) {
      for (const name of sortedKeys(s.dependentSchemas)) {
        if (has(v, name)) push(inPlace(`dependentSchemas/${pointerToken(name)}`));
      }
    }
  }

  private arrayKeywords(
    s: JsonObject,
    v: JsonValue[],
    vloc: string,
    violation: (keyword: string, message: string, causes?: SchemaViolation[]) => SchemaViolation,
    sub: (keyword: string, child: JsonValue, childLoc: string) => SchemaViolation | null,
    errors: SchemaViolation[],
  ): void {
    const push = (e: SchemaViolation | null): void => {
      if (e) errors.push(e);
    };
    if (typeof s.minItems === 'number' && v.length < s.minItems) {
      errors.push(violation('minItems', `minimum ${s.minItems} items required, but found ${v.length} items`));
    }
    if (typeof s.maxItems === 'number' && v.length > s.maxItems) {
      errors.push(violation('maxItems', `maximum ${s.maxItems} items required, but found ${v.length} items`));
    }
    const duplicate = s.uniqueItems === true ? firstDuplicate(v) : undefined;
    if (duplicate)
      errors.push(violation('uniqueItems', `items at index ${duplicate[0]} and ${duplicate[1]} are equal`));
    const version = this.schema.version;
    let prefix: number;
    let rest: string | undefined;
    if (version < 2020 && Array.isArray(s.items)) {
      prefix = s.items.length;
      rest = has(s, 'additionalItems') && s.additionalItems !== false ? 'additionalItems' : undefined;
      for (let i = 0; i < Math.min(prefix, v.length); i++) push(sub(`items/${i}`, v[i]!, `${vloc}/${i}`));
      if (s.additionalItems === false && v.length > prefix) {
        errors.push(violation('additionalItems', `only ${prefix} items are allowed, but found ${v.length} items`));
      }
    } else if (version < 2020) {
      prefix = 0;
      rest = has(s, 'items') ? 'items' : undefined;
    } else {
      prefix = Array.isArray(s.prefixItems) ? s.prefixItems.length : 0;
      for (let i = 0; i < Math.min(prefix, v.length); i++) push(sub(`prefixItems/${i}`, v[i]!, `${vloc}/${i}`));
      rest = has(s, 'items') ? 'items' : undefined;
    }
    if (rest !== undefined) for (let i = prefix; i < v.length; i++) push(sub(rest, v[i]!, `${vloc}/${i}`));

    if (has(s, 'contains') && version >= 6) {
      const causes: SchemaViolation[] = [];
      let matched = 0;
      v.forEach((item, i) => {
        const err = sub('contains', item, `${vloc}/${i}`);
        if (err) causes.push(err);
        else matched++;
      });
      const min = version >= 2019 && typeof s.minContains === 'number' ? s.minContains : 1;
      if (matched < min) errors.push(violation('minContains', `valid must be >= ${min}, but got ${matched}`, causes));
      if (version >= 2019 && typeof s.maxContains === 'number' && matched > s.maxContains) {
        errors.push(violation('maxContains', `valid must be <= ${s.maxContains}, but got ${matched}`));
      }
    }
  }

  private applicators(
    s: JsonObject,
    violation: (keyword: string, message: string, causes?: SchemaViolation[]) => SchemaViolation,
    inPlace: (keyword: string) => SchemaViolation | null,
    errors: SchemaViolation[],
  ): void {
    if (has(s, 'not') && inPlace('not') === null) errors.push(violation('not', 'not failed'));
    if (Array.isArray(s.allOf)) {
      s.allOf.forEach((_, i) => {
        const err = inPlace(`allOf/${i}`);
        if (err) errors.push(violation(`allOf/${i}`, 'allOf failed', [err]));
      });
    }
    if (Array.isArray(s.anyOf)) {
      const causes: SchemaViolation[] = [];
      let matched = false;
      for (let i = 0; i < s.anyOf.length; i++) {
        const err = inPlace(`anyOf/${i}`);
        if (err === null) matched = true;
        else causes.push(err);
      }
      if (!matched) errors.push(violation('anyOf', 'anyOf failed', causes));
    }
    if (Array.isArray(s.oneOf)) {
      const causes: SchemaViolation[] = [];
      let matched = -1;
      for (let i = 0; i < s.oneOf.length; i++) {
        const err = inPlace(`oneOf/${i}`);
        if (err !== null) {
          causes.push(err);
        } else if (matched === -1) {
          matched = i;
        } else {
          errors.push(violation('oneOf', `valid against schemas at indexes ${matched} and ${i}`));
          break;
        }
      }
      if (matched === -1) errors.push(violation('oneOf', 'oneOf failed', causes));
    }
    if (has(s, 'if') && this.schema.version >= 7) {
      if (inPlace('if') === null) {
        const err = has(s, 'then') ? inPlace('then') : null;
        if (err) errors.push(violation('then', 'if-then failed', [err]));
      } else {
        const err = has(s, 'else') ? inPlace('else') : null;
        if (err) errors.push(violation('else', 'if-else failed', [err]));
      }
    }
  }
}

function enumMessage(options: JsonValue[]): string {
  if (options.some((o) => typeof o === 'object' && o !== null)) return 'enum failed';
  if (options.length === 1) return `value must be ${goSharpV(options[0]!)}`;
  return `value must be one of ${options.map(goSharpV).join(', ')}`;
}

function stringKeywords(
  s: JsonObject,
  v: string,
  violation: (keyword: string, message: string) => SchemaViolation,
  errors: SchemaViolation[],
): void {
  const length = [...v].length;
  if (typeof s.minLength === 'number' && length < s.minLength) {
    errors.push(violation('minLength', `length must be >= ${s.minLength}, but got ${length}`));
  }
  if (typeof s.maxLength === 'number' && length > s.maxLength) {
    errors.push(violation('maxLength', `length must be <= ${s.maxLength}, but got ${length}`));
  }
  if (typeof s.pattern === 'string' && !matches(s.pattern, v)) {
    errors.push(violation('pattern', `does not match pattern ${quoteSingle(s.pattern)}`));
  }
}

function numberKeywords(
  s: JsonObject,
  v: number,
  version: number,
  violation: (keyword: string, message: string) => SchemaViolation,
  errors: SchemaViolation[],
): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = numericBounds(s, version);
  const found = goFloat(v);
  if (minimum !== undefined && compareDecimal(v, minimum) < 0) {
    errors.push(violation('minimum', `must be >= ${goFloat(minimum)} but found ${found}`));
  }
  if (exclusiveMinimum !== undefined && compareDecimal(v, exclusiveMinimum) <= 0) {
    errors.push(violation('exclusiveMinimum', `must be > ${goFloat(exclusiveMinimum)} but found ${found}`));
  }
  if (maximum !== undefined && compareDecimal(v, maximum) > 0) {
    errors.push(violation('maximum', `must be <= ${goFloat(maximum)} but found ${found}`));
  }
  if (exclusiveMaximum !== undefined && compareDecimal(v, exclusiveMaximum) >= 0) {
    errors.push(violation('exclusiveMaximum', `must be < ${goFloat(exclusiveMaximum)} but found ${found}`));
  }
  if (typeof s.multipleOf === 'number' && !isMultipleOf(v, s.multipleOf)) {
    errors.push(violation('multipleOf', `${found} not multipleOf ${goFloat(s.multipleOf)}`));
  }
}
