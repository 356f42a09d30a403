/**
 * YaklError: the one error type the YAKL compiler throws for bad input. It
 * always carries the file name and a 1-based line and column of the source
 * .yakl file (never of an intermediate text), a stable YAKL_* code, and the
 * reason in the spec's wording.
 */
import type { SourceFile } from '../common/source.js';
import { KubecfgError } from '../common/errors.js';

export class YaklError extends KubecfgError {
  constructor(
    readonly code: string,
    readonly reason: string,
    readonly fileName: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${fileName}:${line}:${column}: ${reason}`);
    this.name = 'YaklError';
  }
}

/** A YaklError at an offset of the (normalized) source file. */
export function errorAt(file: SourceFile, offset: number, code: string, reason: string): YaklError {
  const p = file.position(Math.max(0, Math.min(offset, file.text.length)));
  return new YaklError(code, reason, file.name, p.line, p.column);
}
