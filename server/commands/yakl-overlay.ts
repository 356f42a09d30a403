/**
 * `--overlay-code` and `--overlay-code-file` for show (and commands reusing
 * its pipeline), with .yakl on either side (yakl.txt "Overlays"):
 *   base + overlay            --overlay-code-file prod.yakl
 *   base + { NAME: overlay }  --overlay-code-file sa=whole.yakl
 * A .yakl file is imported through the `yakl:` scheme, so it is compiled
 * (and cached) like any yakl import. A `.yaml`, `.yml` or `.json` overlay is
 * data, deep-merged as kubecfg composes it: kubecfg.toOverlay of the parsed
 * file, so objects merge recursively and arrays and scalars replace. As in
 * kubecfg, `NAME=FILE` wraps the overlay as `{NAME+: ...}`, a dotted NAME
 * nesting one `+:` field per part (`a.b=f` is `{a+: {b+: f}}`), and so does
 * `--overlay-code NAME=CODE` when NAME is a dotted path of identifiers. A .yakl overlay that is one unnamed
 * document holding apiVersion and kind would, merged into a base without a
 * kind of its own, turn the whole file into that one object: that is refused
 * with the overlay's location, before evaluating the combination.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonValue } from '../../lang/common/json.js';
import type { Gates } from '../../render/features/gates.js';
import type { Engine } from './engine.js';
import type { Flags } from './flags.js';
import { YAKL_SCHEME } from './importer.js';
import { isRemoteLocation } from '../remote-inputs/remote-location.js';
import { YaklOverlayError } from './errors.js';

/** `NAME=FILE`: NAME is a field name without path separators, FILE the overlay. */
const NAMED_OVERLAY = /^([^=/\\]+)=(.+)$/;

/**
 * `NAME=CODE` for --overlay-code, as kubecfg reads it: NAME a dotted path of
 * Jsonnet identifiers (the only names kubecfg's unquoted `{NAME+: CODE}`
 * accepts), directly followed by `=`, which no Jsonnet expression starts with.
 */
const NAMED_CODE = /^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)=([^]*)$/;

export function isYaklFile(path: string): boolean {
  return path.endsWith('.yakl');
}

function verbatim(text: string): string {
  return `@'${text.replace(/'/g, "''")}'`;
}

/** Jsonnet that imports an absolute path, compiled first when it is a .yakl file. */
export function importOf(absPath: string): string {
  return `(import ${verbatim(isYaklFile(absPath) ? YAKL_SCHEME + absPath : absPath)})`;
}

/** The `yakl` gate for .yakl inputs and a .yakl overlay file, checked before any input is read. */
export function requireYaklGate(gates: Gates, flags: Flags, inputs: readonly string[]): void {
  for (const input of inputs) if (isYaklFile(input)) gates.require('yakl', input);
  if (flags.given('overlay-code-file') && isYaklFile(flags.str('overlay-code-file')))
    gates.require('yakl', flags.str('overlay-code-file').replace(NAMED_OVERLAY, '$2'));
}

/** Overlay files read as data (kubecfg: JSON is YAML for this purpose). */
function isDataOverlay(path: string): boolean {
  return /\.(ya?ml|json)$/.test(path);
}

/** The overlay value: Jsonnet/yakl code imported, or data turned into a deep-merge overlay. */
function overlayCodeOf(absPath: string): string {
  if (!isDataOverlay(absPath)) return importOf(absPath);
  return `(import 'internal:///kubecfg.libsonnet').toOverlay(std.parseYaml(importstr ${verbatim(absPath)}))`;
}

/** `{a+: {b+: code}}` for the field path `a.b` of a NAME=FILE overlay. */
export function wrapInFields(fieldPath: string, code: string): string {
  return fieldPath
    .split('.')
    .reverse()
    .reduce((inner, name) => `{ ${JSON.stringify(name)}+: ${inner} }`, code);
}

export interface OverlayFile {
  /** The path as the user wrote it (for messages). */
  given: string;
  abs: string;
  /** Set for `NAME=FILE`: the overlay becomes the field NAME. */
  field?: string;
}

/**
 * The overlay file named by --overlay-code-file, split into NAME and FILE
 * when so written; a file literally named `a=b.yakl` keeps its meaning when it exists.
 */
function overlayFileOf(flags: Flags, exists: (abs: string) => boolean): OverlayFile {
  const value = flags.str('overlay-code-file');
  const named = NAMED_OVERLAY.exec(value);
  if (named && !exists(overlayLocation(flags, value))) {
    const given = named[2]!;
    return { given, abs: overlayLocation(flags, given), field: named[1]! };
  }
  return { given: value, abs: overlayLocation(flags, value) };
}

/**
 * Where an overlay file is: kubecfg imports the value as a URL, so `file:///abs/x.jsonnet` is that
 * file and an http(s) URL is fetched like any remote import; anything else is a path from the cwd.
 */
function overlayLocation(flags: Flags, value: string): string {
  if (value.startsWith('file://')) {
    try {
      return fileURLToPath(value);
    } catch (err) {
      throw new YaklOverlayError(`--overlay-code-file ${value}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return isRemoteLocation(value) ? value : flags.path(value);
}

export interface OverlayRequest {
  engine: Engine;
  flags: Flags;
  gates: Gates;
  /** The input as the user gave it, and the client's cwd. */
  input: string;
  cwd: string;
  /** File access through the request's DependencyRecorder. */
  exists: (abs: string) => boolean;
  readText: (abs: string) => string;
}

/** Evaluates the input with the overlay the flags give (the caller checked the `overlay` gate). */
export function evaluateOverlaid(req: OverlayRequest): JsonValue {
  const { engine, flags, gates, input, cwd } = req;
  const base = importOf(isRemoteLocation(input) ? input : resolve(cwd, input));
  if (!flags.given('overlay-code-file')) {
    const code = flags.str('overlay-code');
    const named = NAMED_CODE.exec(code);
    const overlay = named ? wrapInFields(named[1]!, `(${named[2]!}\n)`) : `(${code}\n)`;
    return engine.evaluateInline('<overlay>', `${base} + ${overlay}`);
  }
  const overlay = overlayFileOf(flags, req.exists);
  const overlayCode = overlayCodeOf(overlay.abs);
  if (isYaklFile(overlay.abs)) {
    gates.require('yakl', overlay.given);
    if (overlay.field === undefined) checkUnnamedObject(req, overlay, base, overlayCode);
  }
  const code = `${base} + ${overlay.field === undefined ? overlayCode : wrapInFields(overlay.field, overlayCode)}`;
  return engine.evaluateInline('<overlay>', code);
}

/** yakl.txt: "an overlay with apiVersion and kind but no name when the base has no kind of its own". */
function checkUnnamedObject(req: OverlayRequest, overlay: OverlayFile, base: string, overlayCode: string): void {
  if (req.engine.compileYaklFile(overlay.abs).shape !== 'document') return;
  // Only field names are asked for: neither side's field values are evaluated here.
  const probe =
    `local b = ${base}, o = ${overlayCode};\n` +
    `[std.isObject(o) && std.objectHas(o, 'apiVersion') && std.objectHas(o, 'kind'), ` +
    `std.isObject(b) && std.objectHasAll(b, 'kind')]`;
  const [wholeObject, baseHasKind] = req.engine.evaluateInline('<overlay>', probe) as [boolean, boolean];
  if (!wholeObject || baseHasKind) return;
  const source = req.readText(overlay.abs);
  const kindAt = /^kind[ \t]*:/m.exec(source)?.index ?? 0;
  const line = source.slice(0, kindAt).split('\n').length;
  throw new YaklOverlayError(
    `${overlay.given}:${line}:1: the overlay is one document with apiVersion and kind but no name, and ` +
      `${req.input} has no kind of its own: merged into its root it would turn the whole file into that one ` +
      `object. Name the document (^^: NAME) to add it, or add it as a field with ` +
      `--overlay-code-file NAME=${overlay.given}`,
  );
}
