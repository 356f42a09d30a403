/**
 * Jsonnet errors and their go-jsonnet rendering. A JsonnetError is either
 * static (lexing, parsing, analysis: one location) or runtime (a message and
 * a stack trace, innermost frame first). Locations print as go-jsonnet's
 * LocationRange.String: 1-based lines, columns counted in UTF-8 bytes, the end
 * column exclusive (`f:1:1-6`, `f:(1:1)-(2:3)`, `f:2:1` for a point).
 */
import type { SourceFile, Span } from '../common/source.js';
import { utf8ByteLength } from '../common/utf8.js';
import { KubecfgError } from '../common/errors.js';

export interface TraceFrame {
  /** Where the frame was when the error happened, or a message such as "During evaluation". */
  span: Span | string;
  /** The frame's context: `$`, `function <f>`, `object <anonymous>`, `thunk from <...>`. */
  name: string;
}

export interface FormatOptions {
  /** go-jsonnet's pretty mode (used by its testdata goldens): separators and source excerpts. */
  pretty?: boolean;
  /** Crop the trace to this many frames (go-jsonnet CLI: 20, testdata: 9); 0 = no cropping. */
  maxFrames?: number;
}

export class JsonnetError extends KubecfgError {
  readonly code: 'JSONNET_STATIC' | 'JSONNET_RUNTIME';
  readonly kind: 'static' | 'runtime';
  /** Static errors: where. */
  readonly span: Span | undefined;
  /** Runtime errors: outermost frame first (printed innermost first, as go-jsonnet). */
  readonly trace: TraceFrame[];

  constructor(kind: 'static' | 'runtime', message: string, span: Span | undefined, trace: TraceFrame[] = []) {
    super(message);
    this.name = 'JsonnetError';
    this.kind = kind;
    this.code = kind === 'static' ? 'JSONNET_STATIC' : 'JSONNET_RUNTIME';
    this.span = span;
    this.trace = trace;
  }

  override describe(): string {
    return this.format().trimEnd();
  }

  /** The text go-jsonnet's `jsonnet` command prints for this error. */
  format(options: FormatOptions = {}): string {
    const pretty = options.pretty ?? false;
    const maxFrames = options.maxFrames ?? 20;
    if (this.kind === 'static') {
      const where = this.span ? formatSpan(this.span) + ' ' : '';
      return `${where}${this.message}\n${showCode(this.span)}`;
    }
    return `RUNTIME ERROR: ${this.message}\n${formatTrace(this.trace, pretty, maxFrames)}`;
  }
}

/** Thrown by an Importer when a file cannot be found or is not allowed. */
export class ImportError extends KubecfgError {
  readonly code = 'JSONNET_IMPORT';
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

export function staticError(message: string, file: SourceFile, start: number, end: number): JsonnetError {
  return new JsonnetError('static', message, { file, start, end });
}

interface Loc {
  line: number;
  column: number;
}

/** 1-based line and UTF-8 byte column (go-jsonnet's convention). */
function locate(file: SourceFile, offset: number): Loc {
  const p = file.position(offset);
  const lineText = file.lineText(p.line);
  const prefix = lineText.slice(0, p.column - 1);
  return { line: p.line, column: utf8ByteLength(prefix) + 1 };
}

export function formatSpan(span: Span): string {
  const b = locate(span.file, span.start);
  const e = locate(span.file, span.end);
  const prefix = span.file.name ? span.file.name + ':' : '';
  if (b.line === e.line) {
    if (b.column === e.column) return `${prefix}${b.line}:${b.column}`;
    return `${prefix}${b.line}:${b.column}-${e.column}`;
  }
  return `${prefix}(${b.line}:${b.column})-(${e.line}:${e.column})`;
}

function showCode(span: Span | string | undefined): string {
  if (span === undefined || typeof span === 'string') return '\n';
  const f = span.file;
  const bLine = f.position(span.start).line;
  const eLine = f.position(span.end).line;
  const lines: string[] = [];
  for (let l = bLine; l <= eLine; l++) lines.push(f.lineText(l));
  return `\n${lines.join('\n')}\n\n`;
}

function formatFrame(frame: TraceFrame, pretty: boolean): string {
  const where = typeof frame.span === 'string' ? frame.span : formatSpan(frame.span);
  let s = `\t${where}\t${frame.name}\n`;
  if (pretty) s += showCode(frame.span);
  return s;
}

function formatTrace(frames: TraceFrame[], pretty: boolean, maxFrames: number): string {
  const maxAbove = Math.floor(maxFrames / 2);
  const maxBelow = maxFrames - maxAbove;
  const sz = frames.length;
  let out = '';
  for (let i = 0; i < sz; i++) {
    if (pretty) out += '-------------------------------------------------\n';
    if (maxFrames > 0 && i >= maxAbove && i < sz - maxBelow) {
      out += pretty ? `\t... (skipped ${sz - maxAbove - maxBelow} frames)\n` : '\t...\n';
      i = sz - maxBelow - 1;
    } else {
      out += formatFrame(frames[sz - i - 1]!, pretty);
    }
  }
  return out;
}
