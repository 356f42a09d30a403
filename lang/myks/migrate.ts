/**
 * `kubecfg myks migrate`: a legacy ytt data-values repository → the KCL tree
 * of the converter specification (kcl.mod, main.k, prototypes/<p>/proto.k,
 * envs/**\/{env,defaults,app-<name>,apps,patch}.k). Pure: files come through
 * the injected host; the server writes the result. Every leaf is then proved:
 * the tree is evaluated by lang/kcl and compared with what lang/ytt resolves
 * from the legacy files; what the plain conversion does not reproduce (a
 * computed value, ytt's array append, merge-order skew) is frozen as a literal
 * at the leaf, and what still differs is reported by environment and path.
 */
import { evaluateKcl, memoryHost, toPlain as kclPlain } from '../kcl/index.js';
import { myksAppFiles, myksLeafFiles, resolveDataValues, toPlain, type MyksTree } from '../ytt/index.js';
import { DATA_SCHEMA, DATA_SCHEMA_PATH } from './data-schema.js';
import {
  Expr,
  entryLines,
  exprLines,
  fromPlain,
  fromYtt,
  isMap,
  keyRef,
  kclString,
  toIdent,
  toSchemaName,
  type Entry,
} from './kcl-write.js';
import { blockLines, foldEntries, mergeByKey, type AppBlock } from './app-blocks.js';
import { arrayReports } from './array-reports.js';
import { levelDirs } from './level-dirs.js';
import { protoFile, type ProtoEnv } from './proto-schema.js';
import { readSource, type SourceValues } from './sources.js';
import { joinPreludes, libraryOf } from './translate.js';
import { lambdaFiles, type Lambda } from './translate-library.js';
import { levelDerivation } from './translate-level.js';
import { yaml11KeyWarnings } from './yaml11-keys.js';

/** The repository cannot be converted (not a myks repository); says where and why. */
export class MigrateError extends Error {}

export interface MigrateHost {
  read(path: string): string | undefined;
  /** entries of a directory (relative to the repository root, '' is the root), undefined when absent */
  list(dir: string): { name: string; dir: boolean }[] | undefined;
}

export interface Difference {
  env: string;
  app?: string;
  path: string;
  legacy: unknown;
  kcl: unknown;
}

export interface MigrateResult {
  /** path (relative to the repository) → text, in writing order */
  files: Map<string, string>;
  warnings: string[];
  /** readability notes: values converted as the literal ytt resolved */
  notes: string[];
  /** what the written tree still resolves differently (empty: verified) */
  differences: Difference[];
  /** environment leaves compared */
  leaves: string[];
}

const ENV_DATA = /^env-data.*\.yaml$/;
/** the scopes of an application's data values: its own and the engine's */
const APP_SCOPES = new Set(['application', 'argocd', 'helm', 'kbld', 'render', 'yttPkg']);
const APP_DATA = /^app-data.*\.yaml$/;
const TODO = '# TODO(myks migrate): frozen from the legacy-resolved output; replace with a KCL derivation.';
const ORDER = '\u0000order';
const IMPORTS = '\u0000imports';
const DERIVED = '# Derived from the environment data of this leaf (_level), proved against the legacy value.';
const APPS = '\u0000apps';
const SKEW = '# Frozen from the legacy-resolved output: ytt merged these differently (array append, merge order).';

interface AppRef {
  proto: string;
  name: string;
}

const join = (...p: string[]): string => p.filter((x) => x !== '').join('/');

/**
 * A map-valued derivation is written as an override (`labels = _labels`) where ytt merged the map
 * it computed into what the levels above stated: where a leaf shows that the merge mattered (its
 * value is frozen there as merged differently), the conversion is run again with that derivation
 * kept as the literal, which merges as ytt did (docs/myks.md).
 */
export function migrate(host: MigrateHost, repoName: string): MigrateResult {
  const drop = new Set<string>();
  for (;;) {
    const { mapSkews, ...r } = migrateOnce(host, repoName, drop);
    const more = [...mapSkews].filter((k) => !drop.has(k));
    if (more.length === 0) return r;
    more.forEach((k) => drop.add(k));
  }
}

function migrateOnce(
  host: MigrateHost,
  repoName: string,
  dropMaps: ReadonlySet<string>,
): MigrateResult & { mapSkews: Set<string> } {
  const mapSkews = new Set<string>();
  /** the map-valued derivations of `srcs` at or above one of `paths`, or all of them */
  const mapSkew = (srcs: readonly SourceValues[], paths?: readonly (readonly (string | number)[])[]): void => {
    for (const src of srcs)
      for (const m of src.mapDerived ?? [])
        if (!paths || paths.some((p) => p.join('.') === m || p.join('.').startsWith(`${m}.`)))
          mapSkews.add(`${src.path}\u0000${m}`);
  };
  const warnings: string[] = [];
  const notes: string[] = [];
  const tree: MyksTree = {
    list: (d) => host.list(d)?.map((e) => e.name),
    isDir: (p) => {
      const i = p.lastIndexOf('/');
      return host.list(p.slice(0, Math.max(i, 0)))?.some((e) => e.name === p.slice(i + 1) && e.dir) === true;
    },
  };
  const read = (p: string): string | undefined => (p === DATA_SCHEMA_PATH ? DATA_SCHEMA : host.read(p));
  const files = (dir: string, re: RegExp): string[] =>
    (host.list(dir) ?? [])
      .filter((e) => !e.dir && re.test(e.name))
      .map((e) => e.name)
      .sort()
      .map((n) => join(dir, n));

  // the environment tree: every directory under envs/ not starting with `_`
  if (!host.list('envs')) throw new MigrateError('envs: no such directory (not a myks repository?)');
  const levels: string[] = [];
  const children = new Map<string, string[]>();
  const walk = (d: string): void => {
    levels.push(d);
    const kids = (host.list(d) ?? []).filter((e) => e.dir && !e.name.startsWith('_')).map((e) => join(d, e.name));
    kids.sort();
    children.set(d, kids);
    kids.forEach(walk);
  };
  walk('envs');
  const leaves = levels.filter((l) => children.get(l)!.length === 0);
  const parentOf = (l: string): string | undefined => (l === 'envs' ? undefined : l.slice(0, l.lastIndexOf('/')));
  const dirs = levelDirs(levels);
  warnings.push(...dirs.renames);

  const library = myksLeafFiles(tree, 'envs').library;
  const legacyEnv = new Map<string, Record<string, unknown>>();
  const resolveLevel = (l: string): Record<string, unknown> => {
    let v = legacyEnv.get(l);
    if (!v) {
      const lf = myksLeafFiles(tree, l);
      const r = resolveDataValues({
        files: [DATA_SCHEMA_PATH, ...lf.envData],
        reader: { read },
        displayName: (f: string) => f,
        library: lf.library,
      });
      v = (toPlain(r.values) ?? {}) as Record<string, unknown>;
      legacyEnv.set(l, v);
    }
    return v;
  };
  const appsOf = (l: string): AppRef[] => {
    const env = resolveLevel(l).environment as { applications?: { proto: string; name?: string }[] } | undefined;
    return (env?.applications ?? []).map((a) => ({ proto: a.proto, name: a.name || a.proto }));
  };

  // What ytt resolves for one application of a leaf: the freeze step and the proof both read it.
  const legacyApps = new Map<string, Record<string, unknown>>();
  const resolveApp = (l: string, a: AppRef): Record<string, unknown> => {
    const key = `${l}\0${a.proto}\0${a.name}`;
    let v = legacyApps.get(key);
    if (!v) {
      const af = myksAppFiles(tree, l, a.proto, a.name);
      v = normalize(
        toPlain(
          resolveDataValues({
            files: [DATA_SCHEMA_PATH, ...af.envData, ...af.appData],
            reader: { read },
            displayName: (f: string) => f,
            library: af.library,
            modules: { '@myks:data.lib.yaml': { env_data: resolveLevel(l) } },
          }).values,
        ) as Record<string, unknown>,
      );
      legacyApps.set(key, v);
    }
    return v;
  };

  const sources = new Map<string, SourceValues>();
  const source = (p: string): SourceValues => {
    let s = sources.get(p);
    if (!s) {
      s = readSource({ read, library, dropMaps }, p);
      sources.set(p, s);
      if (s.kind === 'resolved' && s.untranslated !== 0)
        notes.push(
          `${p}: ${s.untranslated ?? 'its'} computed value(s) converted as the literal ytt resolved (not translated to KCL)`,
        );
      if (s.template) warnings.push(...yaml11KeyWarnings(s.template));
      if (s.kind === 'skipped') warnings.push(`${p}: not converted (${s.reason}); its values are frozen at each leaf`);
      for (const c of [...s.comments, ...s.trailing])
        if (/renovate/i.test(c))
          warnings.push(`${p}: carries a Renovate marker (${c.trim()}); update its pattern for KCL`);
      for (const c of [...s.comments, ...s.trailing])
        if (/app-data|env-data|\.ytt\.yaml|_apps\//.test(c))
          warnings.push(`${p}: a carried comment names a legacy file: ${c.trim()}`);
      // a prototype's, _proto/'s and _apps/' validations become checks in proto.k (or warn there)
      if (!p.startsWith('prototypes/') && !/(^|\/)_(proto|apps)\//.test(p))
        for (const v of s.validations) {
          const why = envValidationGap(p, v.path);
          if (why !== undefined)
            warnings.push(
              `${p}: #@schema/validation ${v.text} at ${v.path} is not carried over${why}; restate it by hand`,
            );
        }
    }
    return s;
  };

  // An env-data schema document's validation of an application's values (`application.*`, an engine
  // scope) reaches every application its level reaches: from a level every leaf is under, it is a
  // check of every prototype's schemas (proto-schema.ts); undefined when it is carried so.
  const reachesAll = (level: string): boolean => leaves.every((x) => x === level || x.startsWith(`${level}/`));
  const envValidationGap = (p: string, path: string): string | undefined => {
    if (!APP_SCOPES.has(path.split('.')[0]!))
      return ' (an environment value: the KCL tree holds environment data in plain dicts, and a check: block needs the schema that owns the field)';
    if (!reachesAll(p.slice(0, p.lastIndexOf('/'))))
      return ' (a level not every environment is under: as a check in proto.k it would apply to the applications of every environment)';
    return undefined;
  };
  const lambdas: Lambda[] = []; // the ytt library lambdas the translated derivations call
  const clashNote = (p: string): void => {
    const note = `${p}: its derivations are kept as the literals ytt resolved (another file of the package binds its prelude names differently)`;
    if (!notes.includes(note)) notes.push(note);
  };
  // prototypes
  const protoNames = new Set<string>((host.list('prototypes') ?? []).filter((e) => e.dir).map((e) => e.name));
  for (const l of levels) for (const a of appsOf(l)) protoNames.add(a.proto);
  // what the environment tree states about a prototype's applications: its elements make fields
  // required, its schema documents keep the application scope open and add checks
  const protoEnv = (p: string): ProtoEnv => {
    const names = new Set(
      levels.flatMap((l) =>
        appsOf(l)
          .filter((a) => a.proto === p)
          .map((a) => a.name),
      ),
    );
    const stated = levels.flatMap((l) =>
      [join(l, '_proto', p), ...[...names].map((n) => join(l, '_apps', n))].flatMap((d) => files(d, APP_DATA)),
    );
    const envSchemas = levels.flatMap((l) => files(l, ENV_DATA)).map(source);
    const governs = (s: SourceValues): boolean =>
      s.isSchema && [...s.byPath.keys()].some((k) => k.startsWith('application.'));
    // each application's declaring level carries what the levels above said about it
    const declarations = levels.flatMap((l) => {
      const parent = parentOf(l);
      const known = new Set(parent ? appsOf(parent).map((a) => a.name) : []);
      return appsOf(l)
        .filter((a) => a.proto === p && !known.has(a.name))
        .map((a) =>
          levelsOf(l)
            .flatMap((x) => [...files(join(x, '_proto', p), APP_DATA), ...files(join(x, '_apps', a.name), APP_DATA)])
            .map(source),
        );
    });
    return {
      stated: stated.map(source),
      governing: [...stated.map(source), ...envSchemas].filter(governs),
      declarations,
      envValidated: levels
        .filter(reachesAll)
        .flatMap((l) => files(l, ENV_DATA))
        .map(source)
        .filter((s) => s.isSchema),
    };
  };
  const protoIdent = new Map<string, string>();
  const out = new Map<string, string>();
  for (const p of [...protoNames].sort()) {
    const id = toIdent(p);
    protoIdent.set(p, id);
    if (id !== p)
      warnings.push(`prototypes/${p}: renamed to prototypes/${id} (a KCL package name must be an identifier)`);
    const srcs = schemaFirst(files(join('prototypes', p), APP_DATA).map(source));
    // the prototype's derivations: module-level variables of its package, above the schema
    const pre = joinPreludes(srcs, new Map());
    pre.clashes.forEach(clashNote);
    lambdas.push(...pre.lambdas);
    const head = [
      ...pre.imports.map((i) => `${i}\n`),
      ...(pre.lines.length > 0 ? ['\n', ...pre.lines.map((x) => `${x}\n`)] : []),
    ];
    out.set(
      `prototypes/${id}/proto.k`,
      protoFile(p, srcs, mergeEntries(pre.values.map((v) => v?.map ?? [])), warnings, protoEnv(p)).replace(
        /^import myks\n\n/,
        `import myks\n${head.join('')}${pre.lines.length > 0 ? '' : '\n'}`,
      ),
    );
  }
  const protoAlias = (p: string): string => {
    const id = protoIdent.get(p)!;
    return id === 'myks' || id === 'parent' ? `proto_${id}` : id;
  };
  const protoImport = (p: string): string => {
    const id = protoIdent.get(p)!;
    const alias = protoAlias(p);
    return alias === id ? `import prototypes.${id}` : `import prototypes.${id} as ${alias}`;
  };

  // levels
  const appFiles = new Map<string, { imports: Set<string>; prelude?: string[]; blocks: AppBlock[] }>();
  const appsK = new Map<string, Map<string, { line: string; imp: string; schema: string }>>();
  const levelOrder = new Map<string, string[]>();
  const computedAt = new Map<string, string[]>(); // level → computed env paths of its files
  for (const l of levels) {
    const parent = parentOf(l);
    const envSources = schemaFirst(files(l, ENV_DATA).map(source));
    computedAt.set(
      l,
      envSources.flatMap((s) => s.computed),
    );
    // the level's files share one namespace: env.k's derivations first, so an application file's clashing helper gets its prefix
    const levelBound = new Map<string, string>();
    const envPre = joinPreludes(envSources, levelBound);
    envPre.clashes.forEach(clashNote);
    const known = new Set(parent ? appsOf(parent).map((a) => a.name) : []);
    const levelApps = appsOf(l);
    const applines: string[] = [];
    const appImports = new Set<string>();
    const inAppsK: string[] = [];
    for (const a of levelApps) {
      const declared = !known.has(a.name);
      // the declaring level also carries what the levels above said about the application
      // before it was declared (legacy order: every _proto/ level, then every _apps/ level)
      const from = declared ? levelsOf(l) : [l];
      const vals = [
        ...from.flatMap((x) => schemaFirst(files(join(x, '_proto', a.proto), APP_DATA).map(source))),
        ...from.flatMap((x) => schemaFirst(files(join(x, '_apps', a.name), APP_DATA).map(source))),
      ];
      const pre = joinPreludes(vals, levelBound, toIdent(a.name));
      pre.clashes.forEach(clashNote);
      const entries = mergeEntries(pre.values.map((v) => v?.map ?? []));
      if (declared && entries.length === 0) {
        applines.push(`    ${keyRef(a.name)} = ${protoAlias(a.proto)}.${toSchemaName(a.proto)} {}`);
        appImports.add(protoImport(a.proto));
        inAppsK.push(a.name);
        continue;
      }
      if (entries.length === 0) continue;
      const body: AppBlock = {
        name: a.name,
        ...(declared ? { schema: `${protoAlias(a.proto)}.${toSchemaName(a.proto)}` } : {}),
        entries,
      };
      lambdas.push(...pre.lambdas);
      const f = {
        imports: new Set(['import myks', ...(declared ? [protoImport(a.proto)] : []), ...pre.imports]),
        prelude: pre.lines,
        blocks: [body],
      };
      appFiles.set(join(l, `app-${a.name}.k`), f);
    }
    appsK.set(l, new Map(inAppsK.map((n, i) => [n, { line: applines[i]!, imp: [...appImports][0]!, schema: '' }])));
    for (const n of inAppsK) {
      const proto = levelApps.find((a) => a.name === n)!.proto;
      Object.assign(appsK.get(l)!.get(n)!, {
        imp: protoImport(proto),
        schema: `${protoAlias(proto)}.${toSchemaName(proto)}`,
      });
    }
    levelOrder.set(
      l,
      levelApps.map((a) => a.name),
    );

    // env.k
    const lines: string[] = ['import myks'];
    if (parent) lines.push(`import ${dirs.pkg(parent)} as parent`);
    lines.push(IMPORTS, '');
    const parts: string[][] = [];
    lines.push(...envPre.lines);
    const imports = new Set(envPre.imports);
    lambdas.push(...envPre.lambdas);
    for (const [i, s] of envSources.entries()) {
      const value = envPre.values[i];
      const entries = (value?.map ?? []).flatMap((e) => envEntry(e, s.path, warnings));
      if (entries.length > 0) parts.push(entryLines(entries, 1));
    }
    const base = parent ? 'parent.level' : '_defaults';
    if (parts.length === 0) lines.push(`_level = ${base}`);
    else {
      lines.push(`_level = ${base} | {`);
      parts.forEach((p, i) => {
        if (i > 0) lines.push('} | {');
        lines.push(...p);
      });
      lines.push('}');
    }
    const trailing = envSources.flatMap((s) => s.trailing);
    lines.push('_apps: myks.Apps {}', '');
    const isLeaf = children.get(l)!.length === 0;
    lines.push(ORDER);
    lines.push(
      isLeaf
        ? `env = myks.finalize(myks.with_apps(_level | _patch, ${APPS}))`
        : `level = myks.with_apps(_level, ${APPS})`,
    );
    if (trailing.length > 0) lines.push('', ...trailing);
    out.set(
      join(l, 'env.k'),
      lines.join('\n').replace(`\n${IMPORTS}`, [...imports].map((i) => `\n${i}`).join('')) + '\n',
    );
    if (isLeaf) out.set(join(l, 'patch.k'), '_patch = {}\n');
  }
  // the library lambdas called (and, while a leaf proves its derivations, those it tries)
  const lib = libraryOf({ read, library });
  const libFiles = new Set<string>();
  const writeLib = (trying: readonly Lambda[] = []): void => {
    for (const p of libFiles) out.delete(p);
    libFiles.clear();
    for (const [p, text] of lambdaFiles([...lambdas, ...trying])) {
      out.set(p, text);
      libFiles.add(p);
    }
  };
  writeLib();
  // the engine's defaults, stated once at the root
  const defaults = resolveDataValues({ files: [DATA_SCHEMA_PATH], reader: { read } });
  const defaultsValue = fromYtt(defaults.values) as { map: Entry[] };
  out.set(
    'envs/defaults.k',
    [
      "# The engine's data defaults (myks's data schema), which every level inherits.",
      ...exprLines('_defaults = ', { map: defaultsValue.map.filter((e) => e.key !== 'environment') }, 0),
      '',
    ].join('\n'),
  );
  out.set(
    'kcl.mod',
    `[package]\nname = ${JSON.stringify(toIdent(repoName))}\nedition = "v0.11.0"\nversion = "0.0.1"\n\n[dependencies]\nmyks = "0.1.0"\n`,
  );
  const leafAlias = (l: string): string => toIdent(dirs.kclPath(l).split('/').slice(1).join('_') || 'root');
  const leafId = (l: string): string => {
    const id = (resolveLevel(l).environment as { id?: string } | undefined)?.id;
    return id || l.split('/').slice(1).join('/');
  };
  out.set(
    'main.k',
    [
      '"""The entry point myks evaluates: every environment of the tree."""',
      ...leaves.map((l) => `import ${dirs.pkg(l)} as ${leafAlias(l)}`),
      '',
      'environments = {',
      ...leaves.map((l) => `    ${kclString(leafId(l))} = ${leafAlias(l)}.env`),
      '}',
      '',
    ].join('\n'),
  );

  const render = (): Map<string, string> => {
    const all = new Map(out);
    for (const l of levels) {
      const k = appsK.get(l)!;
      if (k.size > 0)
        all.set(
          join(l, 'apps.k'),
          [...new Set(['import myks', ...[...k.values()].map((x) => x.imp)])].sort().join('\n') +
            ['', '', '_apps: myks.Apps {', ...[...k.values()].map((x) => x.line), '}', ''].join('\n'),
        );
      // The accumulator unifies in file-name order; where that is not the order the
      // legacy files list the applications in, the level states it.
      const withFile = [...appFiles.keys()]
        .filter((p) => p.startsWith(`${l}/app-`) && !p.slice(l.length + 1).includes('/'))
        .sort();
      const natural = [...withFile.map((p) => p.slice(l.length + 5, -2)), ...k.keys()];
      const legacyOrder = levelOrder.get(l)!.filter((n) => natural.includes(n));
      const ordered = natural.join('\0') !== legacyOrder.join('\0');
      const envK = all.get(join(l, 'env.k'))!;
      all.set(
        join(l, 'env.k'),
        envK
          .replace(
            `${ORDER}\n`,
            ordered ? `_ordered = {n: _apps[n] for n in [${legacyOrder.map(kclString).join(', ')}]}\n` : '',
          )
          .replace(APPS, ordered ? '_ordered' : '_apps'),
      );
    }
    for (const [p, f] of appFiles)
      all.set(
        p,
        [
          ...[...f.imports].sort(),
          '',
          ...(f.prelude ?? []),
          ...f.blocks.flatMap((b) => ['_apps: myks.Apps {', ...blockLines(b), '}', '']),
        ].join('\n'),
      );
    return new Map([...all].map(([p, t]) => [dirs.rename(p), t]));
  };

  // prove every leaf, freezing what the plain conversion does not reproduce
  const differences: Difference[] = [];
  const evaluateLeaf = (l: string): { env: Record<string, unknown>; apps: Record<string, Record<string, unknown>> } => {
    const all = render();
    const mem: Record<string, string> = {};
    for (const [p, t] of all) mem[`/repo/${p}`] = t;
    mem['/repo/__verify__.k'] =
      `import ${dirs.pkg(l)} as leaf\nimport myks\n\nenv = leaf.env\napps = {n: myks.app_values(leaf.env, n) for n in leaf.env.applications}\n`;
    const r = evaluateKcl(memoryHost(mem), { paths: ['/repo/__verify__.k'] });
    return kclPlain(r.value) as { env: Record<string, unknown>; apps: Record<string, Record<string, unknown>> };
  };
  // every source a leaf reads: where the leaf does not evaluate, its map-valued derivations go first
  const leafSources = (l: string): SourceValues[] => [
    ...levelsOf(l).flatMap((x) => files(x, ENV_DATA).map(source)),
    ...appsOf(l).flatMap((a) => myksAppFiles(tree, l, a.proto, a.name).appData.map(source)),
  ];
  for (const l of leaves) {
    const legacy = normalize(resolveLevel(l));
    // a legacy application ytt rejects is refused with ytt's message, before the tree is judged
    for (const a of appsOf(l)) resolveApp(l, a);
    const computed = levelsOf(l).flatMap((x) => computedAt.get(x) ?? []);
    let got: ReturnType<typeof evaluateLeaf>;
    try {
      got = evaluateLeaf(l);
    } catch (err) {
      differences.push({ env: leafId(l), path: '', legacy: null, kcl: `does not evaluate: ${(err as Error).message}` });
      mapSkew(leafSources(l));
      continue;
    }
    const envDiffs = diff(legacy, withoutApps(got.env));
    const frozen = envDiffs.filter((d) => d.missingOrChanged);
    if (frozen.length > 0) out.set(join(l, 'patch.k'), patchFile(frozen, computed));
    else dropEmptyPatch(out, l);
    const skewed = frozen.filter((d) => !isComputed(d.path, computed)).map((d) => d.path.join('.'));
    mapSkew(
      levelsOf(l).flatMap((x) => files(x, ENV_DATA).map(source)),
      frozen.filter((d) => !isComputed(d.path, computed)).map((d) => d.path),
    );
    if (skewed.length > 0)
      warnings.push(
        `${join(l, 'patch.k')}: ytt merged ${skewed.join(', ')} differently (array append, merge order); frozen at the leaf`,
      );
    // applications, against the leaf as patched
    try {
      got = evaluateLeaf(l);
    } catch (err) {
      differences.push({ env: leafId(l), path: '', legacy: null, kcl: `does not evaluate: ${(err as Error).message}` });
      mapSkew(leafSources(l));
      continue;
    }
    for (const a of appsOf(l)) {
      const af = myksAppFiles(tree, l, a.proto, a.name);
      const appComputed = af.appData.flatMap((p) => source(p).computed);
      const legacyApp = resolveApp(l, a);
      const ds = diff(legacyApp, got.apps[a.name] ?? {}).filter((d) => d.missingOrChanged);
      if (ds.length === 0) continue;
      const p = join(l, `app-${a.name}.k`);
      const f = appFiles.get(p) ?? { imports: new Set(['import myks']), blocks: [] };
      // frozen values join the declaration this level states (the later block wins)
      const decl = appsK.get(l)!.get(a.name);
      if (decl) {
        f.blocks.unshift({ name: a.name, schema: decl.schema, entries: [] });
        f.imports.add(decl.imp);
        appsK.get(l)!.delete(a.name);
      }
      const computed = ds.filter((d) => isComputed(d.path, appComputed));
      const skew = ds.filter((d) => !isComputed(d.path, appComputed));
      mapSkew(
        af.appData.map(source),
        skew.map((d) => d.path),
      );
      const skewedApp = skew.map((d) => d.path.join('.'));
      if (skewedApp.length > 0)
        warnings.push(
          `${p}: ytt merged ${skewedApp.join(', ')} of ${a.name} differently (array append, merge order); frozen at the leaf`,
        );
      // a value derived from the environment is stated as its derivation where this leaf proves it
      const derived = new Map<string, string>();
      const calls = new Map<string, Lambda[]>(); // the library lambdas each derivation calls
      for (const d of computed) {
        const e = levelDerivation(af.appData.map(source), d.path, lib);
        if (e !== undefined) derived.set(d.path.join('.'), e.expr);
        if (e !== undefined) calls.set(d.path.join('.'), e.lambdas);
      }
      const hadLib = f.imports.has(`import ${lib.pkg}`);
      const base = f.blocks.map((b) => ({ ...b }));
      const apply = (): void => {
        const todo = computed.filter((d) => !derived.has(d.path.join('.')));
        const done = computed.filter((d) => derived.has(d.path.join('.')));
        f.blocks = base.map((b) => ({ ...b }));
        // what has nothing left to do goes into the declaration or override the level states anyway
        if (skew.length > 0 || done.length > 0) {
          let own = f.blocks.find((b) => b.note === undefined);
          if (!own) f.blocks.unshift((own = { name: a.name, entries: [] }));
          own.entries = foldEntries(own.entries, [
            ...freezeEntries(skew, SKEW),
            ...freezeEntries(done, DERIVED, derived),
          ]);
        }
        if (todo.length > 0) f.blocks.push({ name: a.name, entries: freezeEntries(todo), note: TODO });
        const used = [...derived.keys()].flatMap((k) => calls.get(k) ?? []);
        if (used.length > 0) f.imports.add(`import ${lib.pkg}`);
        else if (!hadLib) f.imports.delete(`import ${lib.pkg}`);
        writeLib(used);
      };
      apply();
      appFiles.set(p, f);
      if (derived.size > 0) {
        try {
          const still = diff(legacyApp, evaluateLeaf(l).apps[a.name] ?? {}).map((d) => d.path.join('.'));
          for (const k of [...derived.keys()])
            if (still.some((x) => x === k || x.startsWith(`${k}.`))) derived.delete(k);
        } catch {
          derived.clear();
        }
        apply();
        lambdas.push(...[...derived.keys()].flatMap((k) => calls.get(k) ?? []));
      }
    }
    let final: ReturnType<typeof evaluateLeaf>;
    try {
      final = evaluateLeaf(l);
    } catch (err) {
      differences.push({ env: leafId(l), path: '', legacy: null, kcl: `does not evaluate: ${(err as Error).message}` });
      mapSkew(leafSources(l));
      continue;
    }
    for (const d of diff(legacy, withoutApps(final.env)))
      differences.push({ env: leafId(l), path: d.path.join('.'), legacy: d.legacy, kcl: d.kcl });
    for (const a of appsOf(l)) {
      const legacyApp = resolveApp(l, a);
      for (const d of diff(legacyApp, final.apps[a.name] ?? {}))
        differences.push({ env: leafId(l), app: a.name, path: d.path.join('.'), legacy: d.legacy, kcl: d.kcl });
    }
  }
  warnings.push(
    ...arrayReports(
      leaves.flatMap((l) => [
        {
          what: `environment ${leafId(l)}`,
          levels: levelsOf(l).map((x) => ({ level: x, files: files(x, ENV_DATA).map(source) })),
          resolved: resolveLevel(l),
        },
        ...appsOf(l).map((a) => ({
          what: `${leafId(l)} application ${a.name}`,
          levels: [join('prototypes', a.proto), ...levelsOf(l)].map((x) => ({
            level: x,
            files: (x.startsWith('prototypes/')
              ? files(x, APP_DATA)
              : [...files(join(x, '_proto', a.proto), APP_DATA), ...files(join(x, '_apps', a.name), APP_DATA)]
            ).map(source),
          })),
        })),
      ]),
    ),
  );
  if (
    levels.some((l) =>
      Object.keys((resolveLevel(l).environment ?? {}) as object).some((k) => k !== 'id' && k !== 'applications'),
    )
  )
    warnings.push(
      'environment.* extras: the engine owns only environment.id and environment.applications; other keys are carried as data',
    );
  // a carried comment naming a prototype directory by the name the converter renamed stops being true
  const renamed = [...protoIdent].filter(([p, id]) => p !== id).map(([p]) => p);
  for (const [p, s] of sources)
    for (const c of [...s.comments, ...s.trailing])
      for (const r of renamed)
        if (new RegExp(`(^|[^\\w-])${r.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`).test(c))
          warnings.push(`${p}: a carried comment names the renamed prototype directory ${r}: ${c.trim()}`);
  warnings.push(
    'mapping key order: KCL prints mapping keys sorted while ytt kept file order; a template dumping a whole subtree renders its keys in another order',
  );
  return {
    files: render(),
    warnings: [...new Set(warnings)],
    notes,
    differences,
    leaves: leaves.map(leafId),
    mapSkews,
  };
}

/** Within one directory ytt merges the schema documents before the data values: a schema's defaults never win over a value file that sorts before it. */
function schemaFirst(srcs: SourceValues[]): SourceValues[] {
  return [...srcs.filter((s) => s.isSchema), ...srcs.filter((s) => !s.isSchema)];
}

function levelsOf(l: string): string[] {
  const parts = l.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** environment.applications as the engine regenerates it: every entry named. */
function normalize(v: Record<string, unknown>): Record<string, unknown> {
  const env = v.environment as { applications?: { proto: string; name?: string }[] } | undefined;
  if (!env?.applications) return v;
  return {
    ...v,
    environment: { ...env, applications: env.applications.map((a) => ({ proto: a.proto, name: a.name || a.proto })) },
  };
}

function withoutApps(v: Record<string, unknown>): Record<string, unknown> {
  const { applications: _a, ...rest } = v;
  return rest;
}

interface Diff {
  path: string[];
  legacy: unknown;
  kcl: unknown;
  /** the KCL side lacks or changes the value (a freeze can state it); false: KCL has a key ytt has not */
  missingOrChanged: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function diff(legacy: unknown, kcl: unknown, path: string[] = []): Diff[] {
  if (isObj(legacy) && isObj(kcl)) {
    const out: Diff[] = [];
    for (const k of Object.keys(legacy))
      if (!(k in kcl)) out.push({ path: [...path, k], legacy: legacy[k], kcl: undefined, missingOrChanged: true });
      else out.push(...diff(legacy[k], kcl[k], [...path, k]));
    for (const k of Object.keys(kcl))
      if (!(k in legacy)) out.push({ path: [...path, k], legacy: undefined, kcl: kcl[k], missingOrChanged: false });
    return out;
  }
  return canon(legacy) === canon(kcl) ? [] : [{ path, legacy, kcl, missingOrChanged: true }];
}

/** JSON with every mapping's keys sorted: KCL prints keys in its own order, ytt in file order (a warned difference). */
function canon(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (isObj(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

function isComputed(path: string[], computed: readonly string[]): boolean {
  const p = path.join('.');
  return computed.some((c) => c === p || p.startsWith(`${c}.`) || c.startsWith(`${p}.`) || c.startsWith(`${p}.[`));
}

/** Each frozen path as one (dotted) entry stating the legacy value. */
function freezeEntries(ds: readonly Diff[], note?: string, derived: ReadonlyMap<string, string> = new Map()): Entry[] {
  return ds.map((d) => {
    const expr = derived.get(d.path.join('.'));
    const leaf: Entry = {
      key: d.path.at(-1)!,
      value: expr === undefined ? fromPlain(d.legacy) : new Expr(expr, fromPlain(d.legacy)),
      comments: note ? [note] : [],
      blankBefore: false,
    };
    let e = leaf;
    for (let i = d.path.length - 2; i >= 0; i--)
      e = { key: d.path[i]!, value: { map: [e] }, comments: [], blankBefore: false };
    return e;
  });
}

function patchFile(ds: readonly Diff[], computed: readonly string[]): string {
  const todo = ds.filter((d) => isComputed(d.path, computed));
  const skew = ds.filter((d) => !isComputed(d.path, computed));
  const lines = ['# Environment values frozen from the legacy-resolved output.', '_patch = {'];
  if (todo.length > 0) lines.push(`    ${TODO}`, ...entryLines(freezeEntries(todo), 1));
  if (skew.length > 0) lines.push(`    ${SKEW}`, ...entryLines(freezeEntries(skew), 1));
  lines.push('}', '');
  return lines.join('\n');
}

/** environment.applications is the engine's: regenerated from the tree, so not carried. */
function envEntry(e: Entry, path: string, warnings: string[]): Entry[] {
  if (e.key !== 'environment' || !isMap(e.value)) return [e];
  const rest = e.value.map.filter((x) => x.key !== 'applications');
  for (const x of rest)
    if (x.key !== 'id')
      warnings.push(
        `${path}: environment.${x.key} is not the engine's (it owns only environment.id and environment.applications); carried as data`,
      );
  return rest.length > 0 ? [{ ...e, value: { map: rest } }] : [];
}

/** Entries of several files stating values for one scope, later files winning key by key. */
function mergeEntries(lists: readonly Entry[][]): Entry[] {
  return lists.reduce<Entry[]>(
    (out, list) =>
      mergeByKey(out, list, (prev, e) => ({ ...e, comments: e.comments.length > 0 ? e.comments : prev.comments })),
    [],
  );
}

/** A leaf with nothing frozen gets no patch.k (the spec writes it only when needed), and its env.k no `| _patch`. */
function dropEmptyPatch(out: Map<string, string>, leaf: string): void {
  out.delete(join(leaf, 'patch.k'));
  const envPath = join(leaf, 'env.k');
  const env = out.get(envPath);
  if (env !== undefined) out.set(envPath, env.replace('myks.with_apps(_level | _patch, ', 'myks.with_apps(_level, '));
}
