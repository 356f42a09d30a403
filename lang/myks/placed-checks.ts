/**
 * A `#@schema/validation` no generated attribute carries (one of the
 * environment tree's `_proto/`/`_apps/` schema documents, or a value inside a
 * free-form bag of the prototype) becomes a check: item of the schema owning
 * the nearest declared scope on its path, reaching into what is below through
 * guards on every key on the way, so a check never fails on an application
 * that replaced the enclosing scope wholesale or never states the value.
 */
import { checksOf, defaultSatisfies } from './checks.js';
import { exprLines, isIdent, isList, isMap, kclString, type Value } from './kcl-write.js';
import type { SourceValues } from './sources.js';

export interface SchemaRecord {
  name: string;
  /** value path of the scope the schema describes, `[]` for an array's element; '' for the prototype's schema */
  path: string;
  /** attribute lines */
  lines: string[];
  /** declared attribute names */
  attrs: Set<string>;
  checks: string[];
  /** keeps `[...str]: any` */
  open: boolean;
}

const ELEMENT = /^\[\d+\]$/;

function access(segs: readonly string[]): string {
  return (
    segs[0]! +
    segs
      .slice(1)
      .map((s) => (isIdent(s) ? `.${s}` : `[${kclString(s)}]`))
      .join('')
  );
}

/** The value a source states at a dotted path (`a.[0].b`), undefined when it states none. */
function valueAt(v: Value | undefined, segs: readonly string[]): Value | undefined {
  let cur = v;
  for (const s of segs) {
    if (cur === undefined) return undefined;
    if (ELEMENT.test(s)) cur = isList(cur) ? cur.list[Number(s.slice(1, -1))]?.value : undefined;
    else cur = isMap(cur) ? cur.map.find((e) => e.key === s)?.value : undefined;
  }
  return cur;
}

export function placeCheck(
  records: readonly SchemaRecord[],
  src: SourceValues,
  v: { path: string; text: string },
  /** the values of other sources whose statements the check will also see (an env-data validation's) */
  others: readonly ({ map: unknown[] } | undefined)[] = [],
): { warning?: string } {
  const notCarried = (why: string): { warning: string } => ({
    warning: `${src.path}: #@schema/validation ${v.text} at ${v.path} is not carried over${why}; restate it by hand`,
  });
  const raw = v.path.split('.');
  const segs = raw.map((s) => (ELEMENT.test(s) ? '[]' : s));
  let owner: SchemaRecord | undefined;
  let rest: string[] = [];
  for (let k = segs.length - 1; k >= 0 && !owner; k--) {
    const r = records.find((x) => x.path === segs.slice(0, k).join('.'));
    if (r && r.attrs.has(segs[k]!) && !segs.slice(k).includes('[]')) {
      owner = r;
      rest = segs.slice(k);
    }
  }
  if (!owner) return notCarried(' (no generated schema owns the value)');
  const expr = access(rest);
  const c = checksOf(expr, v.path, v.text);
  if (c.checks.length === 0) return notCarried('');
  const stated = valueAt(src.value, raw);
  if (stated !== undefined && stated !== null && !defaultSatisfies(exprLines('', stated, 0).join('\n'), v.text))
    return notCarried(': the value its schema document states does not satisfy it, and KCL checks every instantiation');
  for (const o of others) {
    const x = valueAt(o as Value | undefined, raw);
    if (x !== undefined && x !== null && !defaultSatisfies(exprLines('', x, 0).join('\n'), v.text))
      return notCarried(
        ': a value an application file states does not satisfy it (a level below may replace it), and KCL checks every instantiation',
      );
  }
  const guards =
    rest.length === 1
      ? [`${expr} != Undefined`]
      : rest
          .slice(1)
          .map((s, i) => `${access(rest.slice(0, i + 1))} and ${kclString(s)} in ${access(rest.slice(0, i + 1))}`);
  for (const chk of c.checks) {
    const at = chk.lastIndexOf(', "');
    const [cond, msg] = [chk.slice(0, at), chk.slice(at + 2)];
    const g = cond.endsWith('!= None') ? guards : [...guards, `${expr} != None`];
    owner.checks.push(`${cond} if ${g.join(' and ')}, ${msg}`);
  }
  return c.uncarried.length > 0 ? notCarried(` (${c.uncarried.join(', ')})`) : {};
}
