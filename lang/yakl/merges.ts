/**
 * Fields from elsewhere: `<<` copies fields as YAML merges do (own keys win,
 * an earlier source wins over a later one, keys match as YAML reads them and
 * expression keys by their code), and `<<+` writes its sources in front of the
 * mapping as the parent, each checked at run time to be an object or null.
 */
import { type Node as YNode, type Pair, type YAMLMap, isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { AnchorMode, DocScope, Entry, Generator } from './generator.js';
import { isLocalName } from './keys.js';

export function entryIdentity(en: Entry): string {
  return en.key.kind === 'expr' ? 'e:' + en.key.identity : 's:' + en.key.text;
}

/** `<<: S`: the entries that sources copy in, earlier sources first. */
export function mergeSources(g: Generator, scope: DocScope, pair: Pair, am: AnchorMode): Entry[] {
  const v = pair.value as YNode | null;
  const at = g.nodeAt(scope, v ?? (pair.key as YNode));
  if (v && !isAlias(v) && v.anchor && isLocalName(v.anchor))
    g.fail(at, 'YAKL_ANCHOR_PLACE', `anchor &${v.anchor} is not allowed on the value of <<`);
  const sources: YNode[] = isSeq(v) ? (v.items as YNode[]) : v ? [v] : [];
  const out: Entry[] = [];
  const seen = new Set<string>();
  for (const s of sources) {
    let target: unknown = s;
    let mode: AnchorMode = am.mode === 'copy' ? am : { mode: 'forbid', why: 'inside a merge source' };
    if (isAlias(s)) {
      target = s.resolve(scope.doc);
      mode = { mode: 'copy' };
    }
    if (!isMap(target))
      g.fail(
        g.nodeAt(scope, s),
        'YAKL_MERGE_SOURCE',
        '<< takes aliases to mappings, inline mappings, or a list of those',
      );
    if (!isAlias(s) && (s as YAMLMap).anchor && isLocalName((s as YAMLMap).anchor!)) {
      g.fail(g.nodeAt(scope, s), 'YAKL_ANCHOR_PLACE', 'an anchor is not allowed inside a merge source');
    }
    const entries = sourceEntries(g, scope, target, mode);
    for (const en of entries) {
      const id = entryIdentity(en);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(en);
    }
  }
  return out;
}

function sourceEntries(g: Generator, scope: DocScope, map: YAMLMap, mode: AnchorMode): Entry[] {
  const out: Entry[] = [];
  let nested: Entry[] = [];
  map.items.forEach((pair, i) => {
    const key = g.keyInfo(scope, pair);
    if (key.kind === 'text' && key.meaning.kind === 'merge' && i === 0) {
      nested = mergeSources(g, scope, pair, mode);
      return;
    }
    if (key.kind === 'text' && key.meaning.kind === 'error') g.fail(key.at, 'YAKL_BAD_KEY', key.meaning.reason);
    if (key.kind === 'text' && (key.meaning.kind === 'name' || key.meaning.kind === 'extend')) {
      g.fail(key.at, 'YAKL_MERGE_SOURCE', `a merge source can't hold a ${key.text} key`);
    }
    out.push({ pair, key, at: key.at, copied: true, copyMode: mode, scope });
  });
  const ids = new Set(out.map(entryIdentity));
  return [...out, ...nested.filter((e) => !ids.has(entryIdentity(e)))];
}

/** `<<+: S` written in front of the mapping: `S + {`, each source checked to be an object or null. */
export function genExtend(g: Generator, scope: DocScope, pair: Pair, am: AnchorMode): void {
  const v = pair.value as YNode | null;
  const keyAt = g.nodeAt(scope, pair.key as YNode);
  if (v && !isAlias(v) && v.anchor && isLocalName(v.anchor))
    g.fail(g.nodeAt(scope, v), 'YAKL_ANCHOR_PLACE', `anchor &${v.anchor} is not allowed on the value of <<+`);
  const sourceMode: AnchorMode = am.mode === 'copy' ? am : { mode: 'forbid', why: 'on the value of <<+' };
  if (v === null || v === undefined || (isScalar(v) && v.value === null)) return;
  if (isSeq(v)) {
    g.e.write('std.foldl(function(yakl__a, yakl__b) yakl__b + yakl__a, ');
    g.e.open('[', true);
    for (const item of v.items) {
      genExtendSource(g, scope, item as YNode, keyAt, sourceMode);
      g.e.sep();
    }
    g.e.close(']');
    g.e.write(', {}) + ');
    return;
  }
  genExtendSource(g, scope, v, keyAt, sourceMode);
  g.e.write(' + ');
}

function genExtendSource(g: Generator, scope: DocScope, v: YNode, keyAt: number, mode: AnchorMode): void {
  const target = isAlias(v) ? v.resolve(scope.doc) : v;
  if (isMap(target)) {
    g.genNode(scope, v, mode);
    return;
  }
  if (isScalar(target) && target.value === null) {
    g.e.write('{}');
    return;
  }
  const expr = isScalar(target) ? g.scalarExpression(scope, target) : null;
  if (!expr) {
    g.fail(
      g.nodeAt(scope, v),
      'YAKL_EXTEND_SOURCE',
      '<<+ takes an expression, a mapping, or a list of them (null extends nothing)',
    );
  }
  const line = g.file.position(keyAt).line;
  g.e.write('(local yakl__s = ');
  g.emitExpression(scope, expr.code, expr.at, expr.exact, mode.mode === 'copy');
  g.e.write(
    `; if std.isObject(yakl__s) then yakl__s else if yakl__s == null then {} else error ${JSON.stringify(`<<+ at line ${line} must extend an object or null, got `)} + std.type(yakl__s))`,
  );
}
