/**
 * Turns the engine's TemplateError (Go's wording, which can quote the data)
 * into the KuboCD wording: `line L, column C: ` or `in templateHeader, line L,
 * column C: ` followed by the kept message of fail/required/a KuboCD function,
 * or by a fixed category and `message withheld, as it can quote the data`.
 * Invariant: the result holds only template positions, identifiers and Go
 * type names from the template or the engine, never text from the data.
 */

import type { TemplateError } from '../gotemplate/index.js';
import { KubocdError } from './errors.js';
import type { KeptSink } from './functions.js';
import { MAX_TEXT_BYTES, WITHHELD } from './limits.js';

/** Where the templateHeader ends, to tell its lines from the field's. */
export interface HeaderShape {
  /** Newlines in the header. */
  newlines: number;
  /** Whether the header ends with a newline (else its last line is shared with the template's first). */
  endsWithNewline: boolean;
  /** Bytes of the header's last line when it does not end with a newline. */
  lastLineBytes: number;
  /** Whether there is a header at all. */
  present: boolean;
}

export function headerShape(header: string): HeaderShape {
  const newlines = header.split('\n').length - 1;
  const last = header.slice(header.lastIndexOf('\n') + 1);
  return {
    newlines,
    endsWithNewline: header.endsWith('\n'),
    lastLineBytes: Buffer.byteLength(last, 'utf8'),
    present: header.length > 0,
  };
}

/** The prefix naming the place of a parse error reported on `line` (counted from the header's first line). */
export function parsePlace(h: HeaderShape, line: number | undefined): string {
  if (!h.present || line === undefined) return '';
  if (line <= h.newlines) return 'in templateHeader: ';
  if (!h.endsWithNewline && line === h.newlines + 1) return 'in templateHeader or on the first line of the template: ';
  return '';
}

/** `line L, column C` of an execution error, counted from the field or the header (Go's column is 0-based). */
function execPlace(h: HeaderShape, line: number, column0: number): string {
  const col = column0 + 1;
  if (!h.present) return `line ${line}, column ${col}`;
  if (line <= h.newlines) return `in templateHeader, line ${line}, column ${col}`;
  if (!h.endsWithNewline && line === h.newlines + 1) {
    if (column0 < h.lastLineBytes) return `in templateHeader, line ${line}, column ${col}`;
    return `line 1, column ${column0 - h.lastLineBytes + 1}`;
  }
  return `line ${line - h.newlines}, column ${col}`;
}

const TYPE_NAME = String.raw`[\w\[\]{}*. ]{1,64}`;

/** A fixed category for a Go/Sprig execution message; only identifiers and type names are carried over. */
function categoryOf(goMessage: string): string {
  const rest = goMessage.replace(/^template: [^\n]*?executing "[^"]*" at </s, '');
  let m: RegExpExecArray | null;
  if ((m = /error calling (\w+): /.exec(rest))) return `error calling ${m[1]}`;
  if (/range can't iterate over/.test(rest)) return 'range over a value that is not a list or a map';
  if (/to iterate over more than one variable/.test(rest)) return 'range over an integer with two variables';
  if ((m = /wrong number of args for (\w+)/.exec(rest))) return `wrong number of arguments for ${m[1]}`;
  if ((m = new RegExp(`wrong type for value; expected (${TYPE_NAME}); got (${TYPE_NAME})$`).exec(rest)))
    return `wrong type of argument (expected ${m[1]}, got ${m[2]})`;
  if (/invalid value; expected/.test(rest)) return 'missing value for an argument';
  if (/nil pointer evaluating/.test(rest)) return 'field of a null value';
  if ((m = /can't evaluate field (\w+) in type/.exec(rest))) return `field ${m[1]} of a value that is not a map`;
  if (/is not a method but has arguments|can't give argument to non-function|cannot be invoked as function/.test(rest))
    return 'argument given to a value that is not a function';
  if (/template "[^"]*" not defined|no template/.test(rest)) return 'call of an undefined template';
  if (/can't print/.test(rest)) return 'value that cannot be printed';
  if (/expected (integer|bool|string|float); found/.test(rest)) return 'wrong type of constant argument';
  if (/overflows int/.test(rest)) return 'number constant out of range';
  if (/nil is not a command/.test(rest)) return 'nil is not a command';
  if (/is not a defined function/.test(rest)) return 'call of an undefined function';
  return 'execution error';
}

/** The KuboCD error for an execution failure of a template with this header. */
export function rewriteExecError(e: TemplateError, h: HeaderShape, sink: KeptSink): KubocdError {
  if (e.code === 'TPL_LIMIT' && /output exceeds the limit of/.test(e.message))
    return new KubocdError(`the rendered text is larger than ${MAX_TEXT_BYTES} bytes`, 'KUBOCD_LIMIT');
  const place = e.line !== undefined && e.column !== undefined ? `${execPlace(h, e.line, e.column)}: ` : '';
  if (sink.fn !== undefined && sink.message !== undefined) {
    const tail = `error calling ${sink.fn}: ${sink.message}`;
    if (e.message.endsWith(tail))
      return new KubocdError(`${place}${tail}`, e.code === 'TPL_LIMIT' ? 'KUBOCD_LIMIT' : 'KUBOCD_EXEC');
  }
  const overflow = /error calling (\w+): result exceeds the output limit of \d+ bytes$/.exec(e.message);
  if (overflow)
    return new KubocdError(
      `${place}error calling ${overflow[1]}: the result is larger than ${MAX_TEXT_BYTES} bytes`,
      'KUBOCD_LIMIT',
    );
  if (e.code === 'TPL_LIMIT' && /maximum template depth/.test(e.message))
    return new KubocdError(`${place}templates are nested too deeply`, 'KUBOCD_LIMIT');
  return new KubocdError(`${place}${categoryOf(e.message)}, ${WITHHELD}`, 'KUBOCD_EXEC');
}
