/**
 * The two operations on a program: check (parse, bind imports, check types,
 * decide VCs, validate components — no inputs needed) and export (check,
 * decode inputs, then evaluate lets and exports in order, then apply the
 * output target). Both return diagnostics instead of throwing; any stray JS
 * exception (a bug) becomes a CLEAT_RUNTIME diagnostic so bad input never
 * crashes the daemon.
 */
import type { JsonValue } from '../common/json.js';
import type { Diagnostic } from '../common/source.js';
import { announcedDefault, type AnnouncedDefault } from './argocd-defaults.js';
import { componentDecls, componentWaves } from './components.js';
import type { CleatLoader, ModuleCtx } from './context.js';
import { CleatCodes, CleatError } from './diagnostics.js';
import { Evaluator } from './evaluator.js';
import { ModuleLoader } from './imports.js';
import { collectInputs, type InputSources } from './inputs.js';
import { normalizePath } from './paths.js';
import type { InputDecl } from './program-types.js';
import { toJsonStream, toYamlStream } from './serialize.js';
import { argocdTarget, fluxTarget, plainTarget, type ComponentOutput, type FluxOptions } from './targets.js';
import { baseOf, showType, type Ty } from './types.js';
import { toJsonValue, type Value } from './value.js';

/** The entry file: an absolute POSIX path inside `loader.root`, and its text. */
export interface CleatSource {
  path: string;
  text: string;
}

export interface InputSummary {
  name: string;
  /** The declared type as Cleat source. */
  type: string;
  hasDefault: boolean;
  /** How Argo CD passes it: lists as array parameters, maps/records as map parameters. */
  collection: 'string' | 'array' | 'map';
  /** The default as Argo CD parameter text, when it evaluates and reads back exactly (argocd-defaults.ts). */
  announcedDefault?: AnnouncedDefault;
}

export interface ComponentSummary {
  name: string;
  after: string[];
  wave: number;
}

export interface CheckResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  inputs: InputSummary[];
  components: ComponentSummary[];
}

export interface ExportOptions {
  /** Output target (default plain). */
  target?: 'plain' | 'argocd' | 'flux';
  /** Text format (default yaml). */
  format?: 'yaml' | 'json';
  flux?: FluxOptions;
}

export type ExportResult =
  | {
      ok: true;
      /** The documents as plain JSON (ints beyond 2^53 lose precision here; `text` is exact). */
      documents: JsonValue[];
      /** The serialized stream (YAML documents or JSON). For flux: the Kustomizations. */
      text: string;
      components: ComponentSummary[];
      /** flux target only: each component's manifests file. */
      files?: { path: string; text: string }[];
    }
  | { ok: false; diagnostics: Diagnostic[] };

interface Checked {
  entry: ModuleCtx;
  diagnostics: Diagnostic[];
  components: ComponentSummary[];
}

function checkInternal(source: CleatSource, loader: CleatLoader): Checked {
  const entry = new ModuleLoader(loader).load(normalizePath(source.path), source.text, true);
  const diagnostics = [...entry.diagnostics];
  const decls = componentDecls(entry.program.items, diagnostics);
  const waves = componentWaves(decls, diagnostics);
  const components = decls.map((d) => ({ name: d.name, after: d.after, wave: waves.get(d.name) ?? 0 }));
  // Report in source order (stable: several errors at one place keep the order they were found in).
  diagnostics.sort((a, b) => (a.span && b.span && a.span.file === b.span.file ? a.span.start - b.span.start : 0));
  return { entry, diagnostics, components };
}

function guard<T>(f: () => T, fallback: (d: Diagnostic[]) => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof CleatError) return fallback([e.toDiagnostic()]);
    const message = e instanceof RangeError ? 'input too deeply nested' : `internal error: ${(e as Error).message}`;
    return fallback([{ code: CleatCodes.RUNTIME, message }]);
  }
}

/** `cleat check`: proves what it can without inputs. */
export function check(source: CleatSource, loader: CleatLoader): CheckResult {
  return guard(
    () => {
      const c = checkInternal(source, loader);
      const inputs = inputDecls(c.entry);
      const ok = c.diagnostics.length === 0;
      const ev = new Evaluator(new Map());
      const pred = inputPredicate(ev, c.entry);
      return {
        ok,
        diagnostics: c.diagnostics,
        inputs: [...inputs.values()].map((d): InputSummary => {
          const collection = collectionOf(d.type);
          // Defaults are evaluated only in a program that checks (evaluation assumes well-typed code).
          const announced = ok ? announcedDefault(c.entry, ev, pred, d.name, collection) : undefined;
          return {
            name: d.name,
            type: showType(d.type),
            hasDefault: d.hasDefault,
            collection,
            ...(announced ? { announcedDefault: announced } : {}),
          };
        }),
        components: c.components,
      };
    },
    (diagnostics) => ({ ok: false, diagnostics, inputs: [], components: [] }),
  );
}

function collectionOf(t: Ty): InputSummary['collection'] {
  const b = baseOf(t);
  return b.k === 'list' || b.k === 'tuple' ? 'array' : b.k === 'map' || b.k === 'record' ? 'map' : 'string';
}

function inputDecls(entry: ModuleCtx): Map<string, InputDecl> {
  const out = new Map<string, InputDecl>();
  for (const [name, g] of entry.globals) {
    if (g.kind === 'input') out.set(name, { name, type: g.type, hasDefault: g.decl.default !== undefined });
  }
  return out;
}

/** `cleat export`: check, decode inputs, evaluate, apply the target. */
export function exportProgram(
  source: CleatSource,
  loader: CleatLoader,
  sources: InputSources = {},
  options: ExportOptions = {},
): ExportResult {
  return guard<ExportResult>(
    () => {
      const c = checkInternal(source, loader);
      if (c.diagnostics.length) return { ok: false, diagnostics: c.diagnostics };
      const entry = c.entry;
      const inputs = decodeInputs(entry, sources);
      const ev = new Evaluator(inputs);
      for (const it of entry.program.items) {
        if (it.kind === 'LetDecl') {
          const g = entry.globals.get(it.name);
          if (g) ev.global(entry, it.name, g, it.span);
        }
      }
      const docsByComponent = new Map<string, Value[]>();
      for (const ex of entry.exports) {
        const v = ev.eval(ex.decl.value, { ctx: entry, vars: undefined });
        const name = ex.decl.name ?? 'default';
        const list = docsByComponent.get(name) ?? [];
        if (Array.isArray(v)) list.push(...v);
        else list.push(v);
        docsByComponent.set(name, list);
      }
      const comps: ComponentOutput[] = c.components.map((s) => ({
        ...s,
        documents: docsByComponent.get(s.name) ?? [],
      }));
      const format = options.format ?? 'yaml';
      const stream = (docs: Value[]): string => (format === 'json' ? toJsonStream(docs) : toYamlStream(docs));
      if (options.target === 'flux') {
        const out = fluxTarget(comps, options.flux);
        return {
          ok: true,
          documents: out.kustomizations.map(toJsonValue),
          text: stream(out.kustomizations),
          components: c.components,
          files: out.files.map((f) => ({ path: f.path, text: stream(f.documents) })),
        };
      }
      const docs = options.target === 'argocd' ? argocdTarget(comps) : plainTarget(comps);
      return { ok: true, documents: docs.map(toJsonValue), text: stream(docs), components: c.components };
    },
    (diagnostics) => ({ ok: false, diagnostics }),
  );
}

/** A refinement predicate for input decoding: evaluated with no variables in scope. */
function inputPredicate(ev: Evaluator, entry: ModuleCtx): (t: Extract<Ty, { k: 'refine' }>, v: Value) => boolean {
  const env = { ctx: entry, vars: undefined };
  return (t, v) => {
    try {
      return ev.conformAt(v, t, t.pred.span, '', env) !== undefined;
    } catch (e) {
      if (e instanceof CleatError) return false;
      throw e;
    }
  };
}

/** Checks every input against its type (defaults filled), before any evaluation. */
function decodeInputs(entry: ModuleCtx, sources: InputSources): Map<string, Value> {
  const decls = inputDecls(entry);
  const ev = new Evaluator(new Map());
  const env = { ctx: entry, vars: undefined };
  const pred = inputPredicate(ev, entry);
  const raw = collectInputs(decls, sources, pred);
  const out = new Map<string, Value>();
  for (const [name, d] of decls) {
    const g = entry.globals.get(name);
    if (g?.kind !== 'input') continue;
    let v = raw.get(name);
    if (v === undefined) {
      if (!g.decl.default) {
        throw new CleatError(
          CleatCodes.INPUT,
          `missing input \`${name}\` of type ${showType(d.type)}`,
          g.decl.span,
          name,
        );
      }
      v = ev.eval(g.decl.default, env);
    }
    try {
      out.set(name, ev.conformAt(v, d.type, g.decl.span, name, env));
    } catch (e) {
      if (e instanceof CleatError) {
        throw new CleatError(
          e.code,
          `input \`${name}\` (${showType(d.type)}): ${e.message}`,
          g.decl.span,
          e.path ?? name,
        );
      }
      throw e;
    }
  }
  return out;
}
