/**
 * One KuboCD template: the templateHeader followed by a field's text, parsed
 * once with the KuboCD profile (a fixed function list: anything else is
 * `function "X" not defined`) and executed any number of times. Each
 * execution works on its own deep copy of the data, renders at most 4 MiB,
 * drops `<no value>` as KuboCD does, and fails with a KubocdError located from
 * the field or the header that never quotes the data.
 */

import { FunctionProfile, TemplateError, TemplateSet, GoFloat, GoObject } from '../gotemplate/index.js';
import { mapSet } from '../gotemplate/value.js';
import { KubocdError } from './errors.js';
import { type DnsPolicy, type KeptSink, kubocdFunctionTable } from './functions.js';
import { type HeaderShape, headerShape, parsePlace, rewriteExecError } from './error-rewrite.js';
import { MAX_TEXT_BYTES } from './limits.js';

export interface TemplateProfileOptions {
  /** Package templates get resolveDNS; Release.spec.parameters does not. */
  packageTemplate: boolean;
  /** resolveDNS policy (default: disabled by platform policy). */
  dns?: DnsPolicy;
}

/** The KuboCD function profile (without Go's builtins, which every template set has). */
export function kubocdProfile(opts: TemplateProfileOptions, sink: KeptSink = {}): FunctionProfile {
  return new FunctionProfile(kubocdFunctionTable(sink, opts.packageTemplate, opts.dns));
}

/** A deep copy of plain data: maps, lists and scalars; typed Go values are immutable and shared. */
export function deepCopy<T>(v: T, depth = 0): T {
  if (v === null || typeof v !== 'object' || v instanceof GoFloat || v instanceof GoObject) return v;
  if (depth > 10000) throw new KubocdError('the data is nested too deeply', 'KUBOCD_LIMIT');
  if (Array.isArray(v)) return v.map((x) => deepCopy(x, depth + 1)) as T;
  if (v instanceof Uint8Array) return new Uint8Array(v) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) mapSet(out, k, deepCopy((v as Record<string, unknown>)[k], depth + 1));
  return out as T;
}

export class KubocdTemplate {
  private constructor(
    private readonly set: TemplateSet,
    private readonly header: HeaderShape,
    private readonly sink: KeptSink,
  ) {}

  /**
   * Parses `header + text`. Throws KubocdError (KUBOCD_PARSE) worded as Go's parse error,
   * prefixed by `in templateHeader: ` (or the shared-line wording) when the line is in the header.
   */
  static compile(text: string, header: string, opts: TemplateProfileOptions): KubocdTemplate {
    const sink: KeptSink = {};
    const set = new TemplateSet('', {
      functions: kubocdProfile(opts, sink),
      missingKey: 'zero',
      maxOutputBytes: MAX_TEXT_BYTES,
    });
    const shape = headerShape(header);
    try {
      set.parse('', header + text);
    } catch (e) {
      if (e instanceof TemplateError)
        throw new KubocdError(
          `${parsePlace(shape, e.line)}${e.message}`,
          e.code === 'TPL_LIMIT' ? 'KUBOCD_LIMIT' : 'KUBOCD_PARSE',
        );
      throw e;
    }
    return new KubocdTemplate(set, shape, sink);
  }

  /** Renders with a private deep copy of `data`. Throws KubocdError. */
  render(data: unknown): string {
    const copy = deepCopy(data);
    this.sink.fn = undefined;
    this.sink.message = undefined;
    let out: string;
    try {
      out = this.set.execute('', copy);
    } catch (e) {
      if (e instanceof TemplateError) throw rewriteExecError(e, this.header, this.sink);
      if (e instanceof KubocdError) throw e;
      throw new KubocdError(
        'internal error while rendering, message withheld, as it can quote the data',
        'KUBOCD_EXEC',
      );
    }
    return out.replaceAll('<no value>', '');
  }
}
