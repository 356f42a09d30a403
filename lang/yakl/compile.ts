/**
 * The YAKL compiler's entry points (YAML with Jsonnet expressions). Pure: no
 * I/O. compileYakl turns a .yakl file into Jsonnet that keeps every node on
 * its source line, so the Jsonnet engine's errors point into the .yakl file;
 * any bad input throws a YaklError carrying file, line, column and reason.
 */
import { SourceFile } from '../common/source.js';
import { JsonnetError } from '../jsonnet/errors.js';
import { freeVariablesOf, parseAst } from '../jsonnet/index.js';
import { formatJsonnet } from '../jsonnet/fmt/index.js';
import { Emitter } from './emitter.js';
import { normalizeSource } from './encoding.js';
import { YaklError, errorAt } from './errors.js';
import { type FileShape, generateFile } from './file-shape.js';
import { Generator } from './generator.js';

export { YaklError };
export type { FileShape };

/** The line put in front of line 1 when the file reads `kubecfg` without declaring it (RFC06). */
export const KUBECFG_PRELUDE = "local kubecfg = import 'internal:///kubecfg.libsonnet', yakl__kubecfg = kubecfg; ";

export interface CompiledYakl {
  /** Jsonnet code: every YAML node and expression on its source line. */
  jsonnet: string;
  /** What the file evaluates to: an object (it has names or a parent), a list, one document, or null. */
  shape: FileShape;
  /** True when KUBECFG_PRELUDE was added. */
  usesKubecfg: boolean;
}

/** Thrown when the generated code doesn't parse; carries that code for `eval -o jsonnet`. */
export class YaklJsonnetSyntaxError extends YaklError {
  constructor(
    base: YaklError,
    readonly generated: string,
  ) {
    super(base.code, base.reason, base.fileName, base.line, base.column);
  }
}

/** Compiles a .yakl file to Jsonnet. Throws YaklError on bad input (and nothing else). */
export function compileYakl(fileName: string, text: string): CompiledYakl {
  try {
    return compileUnguarded(fileName, text);
  } catch (err) {
    if (err instanceof YaklError) throw err;
    if (err instanceof RangeError) throw new YaklError('YAKL_TOO_DEEP', 'input too deeply nested', fileName, 1, 1);
    throw new YaklError(
      'YAKL_INTERNAL',
      `internal error: ${err instanceof Error ? err.message : String(err)}`,
      fileName,
      1,
      1,
    );
  }
}

/**
 * The Jsonnet of a .yakl file laid out to be read (`eval -o jsonnet`): a field
 * or item per line, YAML comments as `//` comments, internal names visible.
 * Formatted as jsonnetfmt would. Evaluates nothing and needs no imports. Throws YaklError like compileYakl;
 * when an expression doesn't parse, the error is a YaklJsonnetSyntaxError
 * whose `generated` holds the unformatted code to print with it.
 */
export function yaklToReadableJsonnet(fileName: string, text: string): string {
  let readable: CompiledYakl;
  try {
    compileUnguarded(fileName, text, false);
    readable = compileUnguarded(fileName, text, true);
  } catch (err) {
    if (err instanceof YaklError) throw err;
    throw new YaklError(
      'YAKL_INTERNAL',
      `internal error: ${err instanceof Error ? err.message : String(err)}`,
      fileName,
      1,
      1,
    );
  }
  const prelude = readable.usesKubecfg ? KUBECFG_PRELUDE.trimEnd() + '\n' : '';
  const code = prelude + readable.jsonnet.slice(readable.usesKubecfg ? KUBECFG_PRELUDE.length : 0) + '\n';
  try {
    return formatJsonnet(fileName, code);
  } catch {
    // The code parsed above, so the formatter has no reason to fail; if it does, the layout is still readable.
    return code;
  }
}

function compileUnguarded(fileName: string, text: string, readable = false): CompiledYakl {
  const file = normalizeSource(fileName, text);
  const e = new Emitter(1, 1, readable);
  const g = new Generator(file, e);
  const unit = g.parseUnit({ text: file.text, base: 0, exact: true });
  let shape: FileShape;
  try {
    shape = generateFile(g, unit);
  } catch (err) {
    if (err instanceof YaklError && err.code === 'YAKL_JSONNET')
      throw new YaklJsonnetSyntaxError(err, unchecked(file, readable));
    throw err;
  }
  const body = e.toString();
  let usesKubecfg = false;
  // Expressions were parsed one by one; the whole file only needs parsing when some
  // code couldn't be checked alone, or to see whether a `kubecfg` is declared by yakl.
  if (g.needsWholeParse || g.freeInExpressions.has('kubecfg')) {
    try {
      usesKubecfg = freeVariablesOf(parseAst(new SourceFile(fileName, body))).has('kubecfg');
    } catch (err) {
      if (err instanceof JsonnetError) {
        const off = err.span ? err.span.start : 0;
        const p = new SourceFile(fileName, body).position(off);
        const located = errorAt(file, lineColumnOffset(file, p.line, p.column), 'YAKL_JSONNET', err.message);
        throw new YaklJsonnetSyntaxError(located, body);
      }
      throw err;
    }
  }
  return { jsonnet: usesKubecfg ? KUBECFG_PRELUDE + body : body, shape, usesKubecfg };
}

/** The generated code without per-expression checks, to print next to a syntax error. */
function unchecked(file: SourceFile, readable: boolean): string {
  try {
    const e = new Emitter(1, 1, readable);
    const g = new Generator(file, e);
    g.checkExpressions = false;
    generateFile(g, g.parseUnit({ text: file.text, base: 0, exact: true }));
    return e.toString();
  } catch {
    return '';
  }
}

/** The file offset of a line and column, clamped to the line. */
function lineColumnOffset(file: SourceFile, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = file.text.indexOf('\n', offset);
    if (nl < 0) return file.text.length;
    offset = nl + 1;
  }
  const lineLen = file.lineText(line).length;
  return offset + Math.min(column - 1, lineLen);
}
