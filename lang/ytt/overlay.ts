/**
 * ytt's overlay of one data-values document onto another: map items merge
 * by key, array items append unless `#@overlay/match by=...` says which to
 * merge; `replace`, `remove`, `append`, `insert` and `match-child-defaults`
 * as ytt defines them. Failures nest like ytt's ("Document on line f:2:" /
 * "Map item (key 'a') on line f:3:" / the reason), one level per line.
 */
import { YttError } from './errors.js';
import {
  YArray,
  YArrayItem,
  YDoc,
  YMap,
  YMapItem,
  deepCopy,
  typeName,
  type Annotation,
  type NodeMeta,
  type YValue,
} from './nodes.js';
import { callStarlark } from './starlark/builtins.js';
import { SFunction, SBuiltin, SList, equal, sType, truthy } from './starlark/values.js';

/** An overlay failure: the chain of nodes down to the reason, printed one per line. */
export class OverlayError extends Error {
  constructor(readonly chain: string[]) {
    super(chain.join('\n'));
  }
  wrap(prefix: string): OverlayError {
    return new OverlayError([prefix, ...this.chain]);
  }
  /** ytt's layout: each level indented two spaces under the previous one */
  render(indent = 0): string {
    return this.chain.map((l, i) => ' '.repeat(indent + 2 * i) + l).join('\n');
  }
}

function fail(msg: string): never {
  throw new OverlayError([msg]);
}

const OPS = [
  'overlay/merge',
  'overlay/remove',
  'overlay/replace',
  'overlay/insert',
  'overlay/append',
  'overlay/assert',
];

function ann(meta: NodeMeta, name: string): Annotation | undefined {
  return meta.anns.find((a) => a.name === name);
}
function kwarg(a: Annotation | undefined, name: string): unknown {
  return a?.kwargs.find(([k]) => k === name)?.[1];
}

function whichOp(meta: NodeMeta): string {
  const found = meta.anns.filter((a) => OPS.includes(a.name));
  if (found.length > 1) fail('Expected to find only one overlay operation');
  return found[0]?.name ?? 'overlay/merge';
}

function pos(meta: NodeMeta): string {
  return `line ${meta.where.file}:${meta.where.line}`;
}

interface ChildDefaults {
  expects?: unknown;
  missingOK?: unknown;
  when?: unknown;
}

function childDefaults(meta: NodeMeta, parent: ChildDefaults): ChildDefaults {
  const a = ann(meta, 'overlay/match-child-defaults');
  if (!a) return parent;
  const out: ChildDefaults = { ...parent };
  for (const [k, v] of a.kwargs) {
    if (k === 'expects') out.expects = v;
    else if (k === 'missing_ok') out.missingOK = v;
    else if (k === 'when') out.when = v;
    else fail(`Unknown 'overlay/match-child-defaults' annotation keyword argument '${k}'`);
  }
  return out;
}

class NumMatchError extends Error {
  constructor(
    msg: string,
    readonly conditional: boolean,
  ) {
    super(msg);
  }
}

interface Expects {
  expects?: unknown;
  missingOK?: unknown;
  when?: unknown;
}

function checkExpects(e: Expects, matches: NodeMeta[]): void {
  const positions = matches.length
    ? ` (lines: ${matches
        .map((m) => `${m.where.file}:${m.where.line}`)
        .sort()
        .join(', ')})`
    : '';
  const n = matches.length;
  const check = (val: unknown, kw: string): void => {
    if (typeof val === 'number') {
      if (val !== n)
        throw new NumMatchError(
          `Expected number of matched nodes to be ${val}, but was ${n}${positions}`,
          e.when !== undefined,
        );
      return;
    }
    if (typeof val === 'string') {
      const m = /^(\d+)\+$/.exec(val);
      if (!m) fail(`Expected '${val}' to be in format 'i+' where i is an integer`);
      if (n < Number(m[1]))
        throw new NumMatchError(
          `Expected number of matched nodes to be >= ${m[1]}, but was ${n}${positions}`,
          e.when !== undefined,
        );
      return;
    }
    if (val instanceof SList) {
      let last: unknown;
      for (const v of val.items) {
        try {
          check(v, kw);
          return;
        } catch (err) {
          last = err;
        }
      }
      throw last;
    }
    if (val instanceof SFunction || val instanceof SBuiltin) {
      const r = callStarlark(val, [n], []);
      if (typeof r !== 'boolean') fail(`Expected keyword argument '${kw}' to have a function that returns a boolean`);
      if (!r) throw new NumMatchError('Expectation of number of matched nodes failed', e.when !== undefined);
      return;
    }
    fail(
      `Expected 'overlay/match' annotation keyword argument '${kw}' to be either int, string or function, but was ${sType(val)}`,
    );
  };
  const set = [e.expects, e.missingOK, e.when].filter((x) => x !== undefined).length;
  if (set > 1) {
    if (e.expects !== undefined && e.missingOK !== undefined)
      fail("Expected only one of keyword arguments ('expects', 'missing_ok') specified");
    if (e.missingOK !== undefined && e.when !== undefined)
      fail("Expected only one of keyword arguments ('missing_ok', 'when') specified");
    fail("Expected only one of keyword arguments ('when', 'expects') specified");
  }
  if (e.missingOK !== undefined) {
    if (typeof e.missingOK !== 'boolean') fail("Expected keyword argument 'missing_ok' to be a boolean");
    return check(e.missingOK ? new SList([0, 1]) : 1, 'missing_ok');
  }
  if (e.when !== undefined) return check(e.when, 'when');
  if (e.expects !== undefined) return check(e.expects, 'expects');
  check(1, '');
}

function matchAnn(meta: NodeMeta, defaults: ChildDefaults): { by?: unknown; expects: Expects; annotated: boolean } {
  const a = ann(meta, 'overlay/match');
  if (!a) return { expects: { ...defaults }, annotated: false };
  if (a.kwargs.length === 0)
    fail("Expected 'overlay/match' annotation to have at least one keyword argument (by=..., expects=...)");
  const out: { by?: unknown; expects: Expects; annotated: boolean } = { expects: {}, annotated: true };
  for (const [k, v] of a.kwargs) {
    if (k === 'by') out.by = v;
    else if (k === 'expects') out.expects.expects = v;
    else if (k === 'missing_ok') out.expects.missingOK = v;
    else if (k === 'when') out.expects.when = v;
    else fail(`Unknown 'overlay/match' annotation keyword argument '${k}'`);
  }
  // child defaults fill in only when the annotation sets none of the three
  if (out.expects.expects === undefined && out.expects.missingOK === undefined && out.expects.when === undefined)
    out.expects = { ...defaults };
  return out;
}

function mapKeyMatcher(key: string) {
  return (_i: unknown, left: YValue, right: YValue): boolean => {
    const l = left instanceof YMap ? left.get(key) : undefined;
    const r = right instanceof YMap ? right.get(key) : undefined;
    if (!(right instanceof YMap) || !r) fail(`Expected to find map item with key '${key}', but did not`);
    if (!(left instanceof YMap)) fail(`Expected value to be map, but was ${typeName(left)}`);
    if (!l) return false;
    return equal(l.value, r.value);
  };
}

function callMatcher(by: unknown, idxOrKey: unknown, left: YValue, right: YValue): boolean {
  if (typeof by === 'string') return mapKeyMatcher(by)(idxOrKey, left, right);
  if (by instanceof SFunction || by instanceof SBuiltin) return truthy(callStarlark(by, [idxOrKey, left, right], []));
  return fail(
    `Expected 'overlay/match' annotation keyword argument 'by' to be either string (for map key) or function, but was ${sType(by)}`,
  );
}

/** indexes into left.items of the items the match selects */
function mapIndexes(left: YMap, item: YMapItem, defaults: ChildDefaults): number[] | undefined {
  const m = matchAnn(item.meta, defaults);
  const idxs: number[] = [];
  const metas: NodeMeta[] = [];
  left.items.forEach((li, i) => {
    const hit = m.by === undefined ? equal(li.key, item.key) : callMatcher(m.by, li.key, li.value, item.value);
    if (hit) {
      idxs.push(i);
      metas.push(li.meta);
    }
  });
  return expectedIndexes(m.expects, idxs, metas);
}

/**
 * The matched indexes when their count meets `expects`; undefined when a conditional match (`when=`)
 * does not apply; otherwise ytt's match-count error.
 */
function expectedIndexes(
  expects: Parameters<typeof checkExpects>[0],
  idxs: number[],
  metas: NodeMeta[],
): number[] | undefined {
  try {
    checkExpects(expects, metas);
  } catch (e) {
    if (e instanceof NumMatchError) {
      if (e.conditional) return undefined;
      fail(e.message);
    }
    throw e;
  }
  return idxs;
}

function arrayIndexes(left: YArray, item: YArrayItem, defaults: ChildDefaults): number[] | undefined {
  const m = matchAnn(item.meta, defaults);
  if (!m.annotated) return [];
  if (m.by === undefined) fail("Expected 'overlay/match' annotation keyword argument 'by' to be specified");
  const idxs: number[] = [];
  const metas: NodeMeta[] = [];
  left.items.forEach((li, i) => {
    if (callMatcher(m.by, i, li.value, item.value)) {
      idxs.push(i);
      metas.push(li.meta);
    }
  });
  return expectedIndexes(m.expects, idxs, metas);
}

function replaceValue(meta: NodeMeta, left: YValue | undefined, right: YValue): YValue {
  const a = ann(meta, 'overlay/replace');
  const via = kwarg(a, 'via');
  if (via !== undefined) {
    if (!(via instanceof SFunction || via instanceof SBuiltin))
      fail(`Expected 'overlay/replace' annotation keyword argument 'via' to be function, but was ${sType(via)}`);
    return toYamlLoose(callStarlark(via, [left ?? null, right], []), meta);
  }
  return deepCopy(right);
}

let toYamlLoose: (v: unknown, meta: NodeMeta) => YValue = () => null;
/** set by the template layer (which owns Starlark → YAML conversion) */
export function setToYaml(f: (v: unknown, meta: NodeMeta) => YValue): void {
  toYamlLoose = f;
}

/** Overlays `right` onto `left` in place; true when left should take right's value (scalars). */
function apply(left: YValue, right: YValue, defaults: ChildDefaults): boolean {
  if (right instanceof YMap) {
    if (!(left instanceof YMap)) fail(`Expected map, but was ${typeName(left)}`);
    for (const orig of right.items) {
      const item = new YMapItem(orig.key, deepCopy(orig.value), orig.meta);
      try {
        const op = whichOp(item.meta);
        switch (op) {
          case 'overlay/merge':
            mergeMapItem(left, item, defaults);
            break;
          case 'overlay/remove': {
            const idxs = mapIndexes(left, item, defaults);
            if (idxs) left.items = left.items.filter((_, i) => !idxs.includes(i));
            break;
          }
          case 'overlay/replace': {
            const idxs = mapIndexes(left, item, defaults);
            if (!idxs) break;
            for (const i of idxs)
              left.items[i] = new YMapItem(
                item.key,
                replaceValue(item.meta, left.items[i]!.value, item.value),
                item.meta,
              );
            if (idxs.length === 0 && truthy(kwarg(ann(item.meta, 'overlay/replace'), 'or_add') ?? false))
              left.items.push(new YMapItem(item.key, replaceValue(item.meta, undefined, item.value), item.meta));
            break;
          }
          case 'overlay/assert': {
            const idxs = mapIndexes(left, item, defaults);
            for (const i of idxs ?? []) apply(left.items[i]!.value, item.value, childDefaults(item.meta, defaults));
            break;
          }
          default:
            fail(
              `Found @${op} on map item (${item.meta.where.file}:${item.meta.where.line}); only array items can be annotated with @${op}`,
            );
        }
      } catch (e) {
        if (e instanceof OverlayError) throw e.wrap(`Map item (key '${String(item.key)}') on ${pos(item.meta)}:`);
        throw e;
      }
    }
    return false;
  }
  if (right instanceof YArray) {
    if (!(left instanceof YArray)) fail(`Expected array, but was ${typeName(left)}`);
    for (const orig of right.items) {
      const item = new YArrayItem(deepCopy(orig.value), orig.meta);
      try {
        const op = whichOp(item.meta);
        switch (op) {
          case 'overlay/merge': {
            const idxs = arrayIndexes(left, item, defaults);
            if (idxs)
              mergeMatched(left.items, item, idxs, childDefaults(item.meta, defaults), (li) => ({
                ...li.meta,
                where: item.meta.where,
              }));
            break;
          }
          case 'overlay/remove': {
            const idxs = arrayIndexes(left, item, defaults);
            if (idxs) left.items = left.items.filter((_, i) => !idxs.includes(i));
            break;
          }
          case 'overlay/replace': {
            const idxs = arrayIndexes(left, item, defaults);
            if (!idxs) break;
            for (const i of idxs)
              left.items[i] = new YArrayItem(replaceValue(item.meta, left.items[i]!.value, item.value), item.meta);
            if (idxs.length === 0 && truthy(kwarg(ann(item.meta, 'overlay/replace'), 'or_add') ?? false))
              left.items.push(new YArrayItem(replaceValue(item.meta, undefined, item.value), item.meta));
            break;
          }
          case 'overlay/insert': {
            const idxs = arrayIndexes(left, item, defaults);
            if (!idxs) break;
            const a = ann(item.meta, 'overlay/insert')!;
            const before = truthy(kwarg(a, 'before') ?? false);
            const after = truthy(kwarg(a, 'after') ?? false);
            if (before === after)
              fail("Expected 'overlay/insert' annotation to have 'before' or 'after' keyword argument set to true");
            const out: YArrayItem[] = [];
            left.items.forEach((li, i) => {
              if (idxs.includes(i)) {
                const ins = new YArrayItem(replaceValue(item.meta, li.value, item.value), item.meta);
                if (before) out.push(ins);
                out.push(li);
                if (after) out.push(ins);
              } else out.push(li);
            });
            left.items = out;
            break;
          }
          case 'overlay/append':
            left.items.push(item);
            break;
          case 'overlay/assert': {
            const idxs = arrayIndexes(left, item, defaults);
            for (const i of idxs ?? []) apply(left.items[i]!.value, item.value, childDefaults(item.meta, defaults));
            break;
          }
        }
      } catch (e) {
        if (e instanceof OverlayError) throw e.wrap(`Array item on ${pos(item.meta)}:`);
        throw e;
      }
    }
    return false;
  }
  return true;
}

function mergeMapItem(left: YMap, item: YMapItem, defaults: ChildDefaults): void {
  const idxs = mapIndexes(left, item, defaults);
  if (!idxs) return;
  mergeMatched(left.items, item, idxs, childDefaults(item.meta, defaults), (li) => ({
    ...li.meta,
    where: item.meta.where,
    comments: item.meta.comments.length ? item.meta.comments : li.meta.comments,
  }));
}

/**
 * ytt's merge of one map or array item: with no match it is appended; each matched item has
 * the new value merged into it, or, where apply() says replace, takes the new value and the
 * metadata `replacedMeta` gives.
 */
function mergeMatched<I extends YMapItem | YArrayItem>(
  items: I[],
  item: I,
  idxs: readonly number[],
  cd: ChildDefaults,
  replacedMeta: (matched: I) => NodeMeta,
): void {
  if (idxs.length === 0) {
    items.push(item);
    return;
  }
  for (const i of idxs) {
    const li = items[i]!;
    if (li.value === null || apply(li.value, item.value, cd)) {
      li.value = item.value;
      li.meta = replacedMeta(li);
    }
  }
}

/** Overlays data-values document `right` onto `left` (ytt's exact-match document overlay). */
export function overlayDocument(left: YDoc, right: YDoc): YDoc {
  const result = new YDoc(deepCopy(left.value), left.meta);
  try {
    const op = whichOp({
      ...right.meta,
      anns: right.meta.anns.filter((a) => a.name !== 'data/values' && a.name !== 'data/values-schema'),
    });
    if (op === 'overlay/replace') {
      result.value = deepCopy(right.value);
      return result;
    }
    if (op !== 'overlay/merge') fail(`Overlay op ${op} is not supported on document`);
    if (result.value === null) {
      result.value = deepCopy(right.value);
      return result;
    }
    if (apply(result.value, right.value, childDefaults(right.meta, {}))) result.value = deepCopy(right.value);
  } catch (e) {
    if (e instanceof OverlayError) throw e.wrap(`Document on ${pos(right.meta)}:`);
    throw e;
  }
  return result;
}

/** Drops overlay annotations from a merged tree (ytt does the same after each overlay). */
export function stripOverlayAnns(v: YValue): void {
  const items = v instanceof YMap || v instanceof YArray ? v.items : [];
  for (const it of items) {
    if (it.meta.anns.some((a) => a.name.startsWith('overlay/')))
      it.meta = { ...it.meta, anns: it.meta.anns.filter((a) => !a.name.startsWith('overlay/')) };
    stripOverlayAnns(it.value);
  }
}

export { YttError };
