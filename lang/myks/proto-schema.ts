/**
 * prototypes/<p>/proto.k: the prototype's app-data values as the defaults of
 * a myks.App subclass. The `application` scope becomes `schema Application`;
 * where the prototype's file is a ytt schema document, a structured object
 * becomes a schema of its own (named after the last segment of its path,
 * lengthened with the segments above where taken: ServerTls next to Tls), and
 * an array whose item the schema describes gets an element schema named after
 * the array in the singular (ConfigItem where it reads as no plural), so KCL
 * fills every element's defaults as ytt did. A schema keeps `[...str]: any`
 * only where the ytt schema did not close its scope; an element field every
 * stated element sets is required instead of defaulted to the example.
 * `#@schema/validation` bounds become check: items of the schema that owns the
 * field, also those of the environment tree's `_proto/`/`_apps/` schema
 * documents (placement and guards: placed-checks.ts).
 */
import { defaultSatisfies, checksOf } from './checks.js';
import {
  Expr,
  exprLines,
  isIdent,
  isList,
  isMap,
  kclString,
  plainKey,
  toSchemaName,
  type Entry,
  type Value,
} from './kcl-write.js';
import { placeCheck, type SchemaRecord } from './placed-checks.js';
import { elementKeys, statedByEvery } from './stated-elements.js';
import { templateValue, type SourceValues } from './sources.js';

export function singular(name: string): string {
  if (/ies$/.test(name)) return name.slice(0, -3) + 'y';
  if (/(ses|xes|ches|shes)$/.test(name)) return name.slice(0, -2);
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return `${name}Item`;
}

const unwrapMap = (v: Value): Value => (v instanceof Expr && isMap(v.literal) ? v.literal : v);

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

/** What the environment tree says about the prototype's applications (migrate.ts gathers it). */
export interface ProtoEnv {
  /** every data-values file stating values of the prototype's applications (`_proto/<p>/`, `_apps/<app>/`, any level); the validations of its schema documents become checks */
  stated: readonly SourceValues[];
  /** schema documents of the environment tree (env-data, `_proto/`, `_apps/`) declaring keys of the applications' `application` scope: it stays open */
  governing: readonly SourceValues[];
  /** per declaration of one of the prototype's applications, the sources its declaring level carries */
  declarations?: readonly (readonly SourceValues[])[];
  /** env-data schema documents of the levels every environment is under: their validations of an application's scopes become checks */
  envValidated?: readonly SourceValues[];
}

interface Ctx {
  srcs: readonly SourceValues[];
  env: ProtoEnv;
  warnings: string[];
  used: Set<string>;
  taken: Set<string>;
  records: SchemaRecord[];
  /** another schema document governs the application scope: nothing under it can be closed */
  openApplication: boolean;
  /** value paths every declaration states on its own level */
  statedByEvery: Set<string>;
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

/** The path is declared by a schema document of the prototype (not left free-form by #@schema/type any=True). */
function declared(ctx: Ctx, path: string): boolean {
  return ctx.srcs.some((s) => {
    const n = s.isSchema ? s.byPath.get(path) : undefined;
    return n !== undefined && !n.anns.some((a) => a.name === 'schema/type');
  });
}

const literalText = (v: Value): string => exprLines('', v, 0).join('\n');

/**
 * One schema record (and those of the schemas it names). `vpath` is its value
 * path with `[]` for an array's element; `scopeTp` the template path of the
 * scope it describes, for closing it.
 */
function genSchema(
  ctx: Ctx,
  name: string,
  path: string[],
  vpath: string[],
  entries: readonly Entry[],
  scopeTp: string,
  elementPath?: string,
): void {
  const lines: string[] = [];
  const rec: SchemaRecord = { name, path: vpath.join('.'), lines, attrs: new Set(), checks: [], open: false };
  ctx.records.push(rec);
  const checks = rec.checks;
  const later: (() => void)[] = [];
  // an element's fields every element the sources state sets are required (the example is dropped)
  const required =
    elementPath === scopeTp && scopeTp.endsWith('.[0]')
      ? elementKeys([...ctx.srcs, ...ctx.env.stated], scopeTp.slice(0, -4))
      : undefined;
  let closed = !ctx.openApplication && declared(ctx, scopeTp);
  for (const x of entries) {
    const p = [...path, x.key];
    // an element's fields are described at the array's item, `.[0]` in the template
    const tp = elementPath ? `${elementPath}.${x.key}` : p.join('.');
    if (!declared(ctx, tp) && !lookup(ctx, tp)?.node.anns.some((a) => a.name === 'schema/type')) closed = false;
    rec.attrs.add(x.key);
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
    // a map-valued derivation the ytt schema describes is a schema of its own, stated as its literal
    const given = schemaDoc ? unwrapMap(x.value) : x.value;
    const value: Value = schemaDoc && isList(given) && !anns.has('schema/default') ? { list: [] } : given;
    const optional = free || value === null;
    let demanded = false;
    if (!free && schemaDoc && isMap(value) && value.map.length > 0 && value.map.every(plainKey)) {
      const sub = schemaName(ctx, p, (s) => s);
      lines.push(`    ${x.key}: ${sub} = ${sub} {}`);
      later.push(() => genSchema(ctx, sub, p, [...vpath, x.key], value.map, tp, elementPath ? tp : undefined));
    } else if (!free && schemaDoc && isList(value) && found && found.node.container === 'array') {
      const item = found.src.template!.nodes.find((k) => k.parent === found.node.id && k.kind === 'arrayitem');
      const shape = item ? templateValue(found.src.template!, item) : undefined;
      if (item && shape && isMap(shape) && shape.map.length > 0 && shape.map.every(plainKey)) {
        const el = schemaName(ctx, p, singular);
        lines.push(...exprLines(`    ${x.key}: [${el}] = `, value, 1));
        later.push(() => genSchema(ctx, el, p, [...vpath, x.key, '[]'], shape.map, `${tp}.[0]`, `${tp}.[0]`));
      } else {
        const t =
          item && shape !== undefined && !isMap(shape) && !isList(shape) ? `[${scalarType(shape)}]` : scalarType(value);
        lines.push(...exprLines(`    ${x.key}: ${t} = `, value, 1));
      }
    } else {
      const t = free ? 'any' : scalarType(value);
      const scalar = !isMap(value) && !isList(value);
      if (required?.has(x.key) && scalar && !optional) lines.push(`    ${x.key}: ${t}`);
      else if (c && c.checks.length > 0 && value !== null && !defaultSatisfies(literalText(value), v!.text)) {
        // demanded without a satisfying default: declared without one; required where every
        // declaration states it, else optional with its check guarded by its presence
        const everywhere = !elementPath && ctx.statedByEvery.has(p.join('.'));
        lines.push(`    ${x.key}${everywhere ? '' : '?'}: ${t}`);
        demanded = !everywhere;
      } else lines.push(...exprLines(`    ${x.key}${optional ? '?' : ''}: ${t} = `, value, 1));
    }
    // a demanded value is absent until a level sets it; a nullable or free one may also be None
    const guard = demanded
      ? ` if ${x.key} != Undefined`
      : optional
        ? ` if ${x.key} != Undefined and ${x.key} != None`
        : '';
    for (const chk of c?.checks ?? []) {
      const at = chk.lastIndexOf(', "');
      const [cond, msg] = [chk.slice(0, at), chk.slice(at + 2)];
      checks.push(cond.endsWith('!= None') ? `${cond}, ${msg}` : `${cond}${guard}, ${msg}`);
    }
  }
  rec.open = !closed;
  for (const f of later) f();
}

const ENGINE_SCOPES = ['proto', 'application', 'argocd', 'helm', 'kbld', 'render', 'yttPkg'];

export function protoFile(
  proto: string,
  srcs: readonly SourceValues[],
  entries: readonly Entry[],
  warnings: string[],
  env: ProtoEnv = { stated: [], governing: [] },
): string {
  const name = toSchemaName(proto);
  const ctx: Ctx = {
    srcs,
    env,
    warnings,
    used: new Set(),
    taken: new Set([name]),
    records: [],
    openApplication: env.governing.length > 0,
    statedByEvery: statedByEvery(env.declarations ?? []),
  };
  const head = ['import myks', '', `schema ${name}(myks.App):`, `    proto: str = ${kclString(proto)}`];
  const top: SchemaRecord = { name, path: '', lines: [], attrs: new Set(ENGINE_SCOPES), checks: [], open: false };
  ctx.records.push(top);
  for (const given of entries) {
    const e = given.key === 'application' ? { ...given, value: unwrapMap(given.value) } : given;
    const note = [...(e.blankBefore ? [''] : []), ...e.comments.map((c) => `    ${c}`)];
    if (e.key === 'application' && isMap(e.value) && e.value.map.every(plainKey)) {
      top.lines.push(...note, '    application: Application = Application {}');
      ctx.taken.add('Application');
      genSchema(ctx, 'Application', ['application'], ['application'], e.value.map, 'application');
    } else if (isIdent(e.key)) {
      top.attrs.add(e.key);
      top.lines.push(
        ...note,
        ...exprLines(`    ${e.key}: ${e.key === 'application' ? 'any' : '{str:any}'} = `, e.value, 1),
      );
    }
  }
  // validations no attribute carried: placed in the schema owning the nearest declared scope
  const pending = [
    ...srcs.flatMap((s) =>
      s.validations.filter((v) => !ctx.used.has(`${s.path}\u0000${v.path}`)).map((v) => ({ s, v })),
    ),
    ...env.stated.filter((s) => s.isSchema).flatMap((s) => s.validations.map((v) => ({ s, v }))),
    ...(env.envValidated ?? []).flatMap((s) =>
      s.validations.filter((v) => ENGINE_SCOPES.includes(v.path.split('.')[0]!)).map((v) => ({ s, v })),
    ),
  ];
  const envValidated = new Set(env.envValidated ?? []);
  const appValues = [...srcs, ...env.stated].map((x) => x.value);
  for (const { s, v } of pending) {
    const r = placeCheck(ctx.records, s, v, envValidated.has(s) ? appValues : []);
    if (r.warning) warnings.push(r.warning);
  }
  const out = [...head];
  for (const r of ctx.records) {
    if (r !== top) out.push('', `schema ${r.name}:`, ...(r.open ? ['    [...str]: any'] : []));
    out.push(...r.lines);
    const checks = [...new Set(r.checks)];
    if (checks.length > 0) out.push('', '    check:', ...checks.map((ch) => `        ${ch}`));
  }
  const trailing = srcs.flatMap((s) => s.trailing);
  return [...out, ...(trailing.length > 0 ? ['', ...trailing] : []), ''].join('\n');
}
