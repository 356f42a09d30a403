/**
 * prototypes/<p>/proto.k: the prototype's app-data values as the defaults of
 * a myks.App subclass. The `application` scope becomes `schema Application`;
 * where the prototype's file is a ytt schema document, a structured object
 * becomes a schema of its own (named after the last segment of its path,
 * lengthened with the segments above where taken: ServerTls next to Tls), and
 * an array whose item the schema describes gets an element schema named after
 * the array in the singular (ConfigItem where it reads as no plural), so KCL
 * fills every element's defaults as ytt did. `#@schema/validation` bounds
 * become check: items of the schema that owns the field. Every schema keeps
 * `[...str]: any`: nothing is closed (docs/myks.md).
 */
import { exprLines, isIdent, isList, isMap, kclString, toSchemaName, type Entry, type Value } from './kcl-write.js';
import { checksOf } from './checks.js';
import { templateValue, type SourceValues } from './sources.js';

export function singular(name: string): string {
  if (/ies$/.test(name)) return name.slice(0, -3) + 'y';
  if (/(ses|xes|ches|shes)$/.test(name)) return name.slice(0, -2);
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return `${name}Item`;
}

function scalarType(v: Value): string {
  // a translated derivation (kcl-write's Expr) has the type of the value ytt resolved
  if (v !== null && typeof v === 'object' && 'literal' in v) return scalarType(v.literal);
  if (v === null) return 'any';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'int';
  if (typeof v === 'string') return 'str';
  if (isMap(v)) return '{str:any}';
  if (isList(v)) {
    const ts = new Set(v.list.map((i) => scalarType(i.value)));
    return ts.size === 1 && !ts.has('any') ? `[${[...ts][0]}]` : '[any]';
  }
  return 'float';
}

interface Ctx {
  srcs: readonly SourceValues[];
  warnings: string[];
  used: Set<string>;
  taken: Set<string>;
  out: string[];
}

function schemaName(ctx: Ctx, path: string[], base: (s: string) => string): string {
  for (let n = 1; n <= path.length; n++) {
    const name = path
      .slice(-n)
      .map((seg, i, a) => (i === a.length - 1 ? base(seg) : seg))
      .map(toSchemaName)
      .join('');
    if (!ctx.taken.has(name)) {
      ctx.taken.add(name);
      return name;
    }
  }
  let i = 2;
  while (ctx.taken.has(`${toSchemaName(path.join('-'))}${i}`)) i++;
  const name = `${toSchemaName(path.join('-'))}${i}`;
  ctx.taken.add(name);
  return name;
}

function lookup(ctx: Ctx, path: string) {
  for (const s of [...ctx.srcs].reverse()) {
    const n = s.byPath.get(path);
    if (n) return { src: s, node: n };
  }
  return undefined;
}

/** One schema; returns nothing, appends its lines (and those of the schemas it names) to ctx.out. */
function genSchema(ctx: Ctx, name: string, path: string[], entries: readonly Entry[], elementPath?: string): void {
  const lines = ['', `schema ${name}:`, '    [...str]: any'];
  const checks: string[] = [];
  const later: (() => void)[] = [];
  for (const x of entries) {
    const p = [...path, x.key];
    // an element's fields are described at the array's item, `.[0]` in the template
    const tp = elementPath ? `${elementPath}.${x.key}` : p.join('.');
    const found = lookup(ctx, tp);
    const anns = new Set(found?.node.anns.map((a) => a.name) ?? []);
    const free = anns.has('schema/nullable') || anns.has('schema/type');
    const schemaDoc = found?.src.isSchema === true;
    if (x.blankBefore) lines.push('');
    lines.push(...x.comments.map((c) => `    ${c}`));
    const v = found ? found.src.validations.find((vv) => vv.path === tp) : undefined;
    const c = v ? checksOf(x.key, p.join('.'), v.text) : undefined;
    if (v) ctx.used.add(`${found!.src.path}\u0000${v.path}`);
    if (c && c.uncarried.length > 0)
      ctx.warnings.push(
        `${found!.src.path}: #@schema/validation ${c.uncarried.join(', ')} at ${p.join('.')} is not carried over; restate it by hand`,
      );
    // a schema array declares its item's type and defaults to [] (unless #@schema/default says otherwise)
    const value: Value = schemaDoc && isList(x.value) && !anns.has('schema/default') ? { list: [] } : x.value;
    let demanded = false;
    if (!free && schemaDoc && isMap(value) && value.map.length > 0 && value.map.every((e) => isIdent(e.key))) {
      const sub = schemaName(ctx, p, (s) => s);
      lines.push(`    ${x.key}: ${sub} = ${sub} {}`);
      later.push(() => genSchema(ctx, sub, p, value.map, elementPath ? tp : undefined));
    } else if (!free && schemaDoc && isList(value) && found && found.node.container === 'array') {
      const item = found.src.template!.nodes.find((k) => k.parent === found.node.id && k.kind === 'arrayitem');
      const shape = item ? templateValue(found.src.template!, item) : undefined;
      if (item && shape && isMap(shape) && shape.map.length > 0 && shape.map.every((e) => isIdent(e.key))) {
        const el = schemaName(ctx, p, singular);
        lines.push(...exprLines(`    ${x.key}: [${el}] = `, value, 1));
        later.push(() => genSchema(ctx, el, p, shape.map, `${tp}.[0]`));
      } else {
        const t =
          item && shape !== undefined && !isMap(shape) && !isList(shape) ? `[${scalarType(shape)}]` : scalarType(value);
        lines.push(...exprLines(`    ${x.key}: ${t} = `, value, 1));
      }
    } else {
      const t = free ? 'any' : scalarType(value);
      demanded = c?.demands === true && (value === '' || (isList(value) && value.list.length === 0));
      if (demanded) lines.push(`    ${x.key}?: ${t}`);
      else lines.push(...exprLines(`    ${x.key}${t === 'any' || value === null ? '?' : ''}: ${t} = `, value, 1));
    }
    const optional = demanded || free || value === null;
    const guard = optional ? ` if ${x.key} != Undefined and ${x.key} != None` : '';
    for (const chk of c?.checks ?? []) {
      const at = chk.lastIndexOf(', "');
      const [cond, msg] = [chk.slice(0, at), chk.slice(at + 2)];
      checks.push(cond.endsWith('!= None') ? `${cond}, ${msg}` : `${cond}${guard}, ${msg}`);
    }
  }
  if (checks.length > 0) lines.push('', '    check:', ...checks.map((ch) => `        ${ch}`));
  ctx.out.push(...lines);
  for (const f of later) f();
}

export function protoFile(
  proto: string,
  srcs: readonly SourceValues[],
  entries: readonly Entry[],
  warnings: string[],
): string {
  const name = toSchemaName(proto);
  const ctx: Ctx = { srcs, warnings, used: new Set(), taken: new Set([name]), out: [] };
  const lines = ['import myks', '', `schema ${name}(myks.App):`, `    proto: str = ${kclString(proto)}`];
  for (const e of entries) {
    const note = [...(e.blankBefore ? [''] : []), ...e.comments.map((c) => `    ${c}`)];
    if (e.key === 'application' && isMap(e.value) && e.value.map.every((x) => isIdent(x.key))) {
      lines.push(...note, '    application: Application = Application {}');
      ctx.taken.add('Application');
      genSchema(ctx, 'Application', ['application'], e.value.map);
    } else if (isIdent(e.key)) {
      lines.push(
        ...note,
        ...exprLines(`    ${e.key}: ${e.key === 'application' ? 'any' : '{str:any}'} = `, e.value, 1),
      );
    }
  }
  for (const s of srcs)
    for (const v of s.validations)
      if (!ctx.used.has(`${s.path}\u0000${v.path}`))
        warnings.push(`${s.path}: #@schema/validation ${v.text} at ${v.path} is not carried over; restate it by hand`);
  const trailing = srcs.flatMap((s) => s.trailing);
  return [...lines, ...ctx.out, ...(trailing.length > 0 ? ['', ...trailing] : []), ''].join('\n');
}
