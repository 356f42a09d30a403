/**
 * YAML output as Helm's toYaml produces it: sigs.k8s.io/yaml, i.e. the value
 * goes through encoding/json (sorted keys, integral floats become ints) and
 * is then written by go-yaml v2's emitter. Reproduced here: block style with
 * 2-space indent and unindented sequences under mapping keys; strings plain
 * when possible, single-quoted when they contain indicators, double-quoted
 * when they would resolve to another type ("true", "1", "2024-01-01") or hold
 * non-printable characters; literal blocks (|, |-) for multi-line strings;
 * folding of plain and quoted scalars at spaces past column 80; floats in
 * Go's shortest %g form. Throws on values JSON cannot encode (NaN, funcs).
 */

import { compareCodepoints } from '../../common/json.js';
import { jsonFloat } from '../sprig/encoding.js';
import { GoObject, kindOf, numberOf } from '../value.js';
import { formatFloat } from '../fmt/float.js';
import { resolvesToNonString } from './yaml-resolve.js';

const BEST_WIDTH = 80;

type YNode =
  { t: 'scalar'; text: string; str: boolean } | { t: 'seq'; items: YNode[] } | { t: 'map'; entries: [string, YNode][] };

/** The value after Go's JSON round trip, as YAML nodes. */
function toNode(v: unknown, depth = 0): YNode {
  if (depth > 10000) throw new Error('json: nesting too deep');
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return { t: 'scalar', text: 'null', str: false };
    case 'bool':
      return { t: 'scalar', text: v ? 'true' : 'false', str: false };
    case 'int':
      return { t: 'scalar', text: String(v), str: false };
    case 'float':
      return { t: 'scalar', text: floatText(numberOf(v)), str: false };
    case 'string':
      return { t: 'scalar', text: v as string, str: true };
    case 'slice':
      if (v instanceof Uint8Array) return { t: 'scalar', text: Buffer.from(v).toString('base64'), str: true };
      return { t: 'seq', items: (v as unknown[]).map((x) => toNode(x, depth + 1)) };
    case 'map': {
      const m = v as Record<string, unknown>;
      return {
        t: 'map',
        entries: Object.keys(m)
          .sort(compareCodepoints)
          .map((k) => [k, toNode(m[k], depth + 1)] as [string, YNode]),
      };
    }
    case 'object': {
      const j = (v as GoObject & { toJSONValue?: () => unknown }).toJSONValue;
      return j ? toNode(j.call(v), depth + 1) : { t: 'map', entries: [] };
    }
    default:
      throw new Error('json: unsupported type: func(...interface {}) (interface {}, error)');
  }
}

/** JSON text of the float, read back by go-yaml v2 (int when it parses as one) and re-emitted. */
function floatText(f: number): string {
  const json = jsonFloat(f);
  if (/^-?\d+$/.test(json)) {
    const b = BigInt(json);
    if (b >= -(1n << 63n) && b < 1n << 64n) return json;
  }
  return formatFloat(Number(json), 'g', -1);
}

interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

function isPrintable(c: number): boolean {
  return (
    c === 0x0a ||
    (c >= 0x20 && c <= 0x7e) ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff) ||
    c >= 0x10000
  );
}

const isBreak = (c: number) => c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;

/** go-yaml's yaml_emitter_analyze_scalar (block context). */
function analyze(s: string): Analysis {
  if (s.length === 0) return { multiline: false, blockPlain: true, singleQuoted: true, block: false };
  const rs = Array.from(s, (c) => c.codePointAt(0)!);
  let blockIndicators = s.startsWith('---') || s.startsWith('...');
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let lineBreaks = false;
  let special = false;
  let precededByWhitespace = true;
  for (let i = 0; i < rs.length; i++) {
    const c = rs[i]!;
    const next = rs[i + 1];
    const followedByWhitespace = next === undefined || next === 0x20 || next === 0x09 || isBreak(next);
    const ch = String.fromCodePoint(c);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      else if ((ch === '?' || ch === ':' || ch === '-') && followedByWhitespace) blockIndicators = true;
    } else if (ch === ':' && followedByWhitespace) blockIndicators = true;
    else if (ch === '#' && precededByWhitespace) blockIndicators = true;
    if (!isPrintable(c)) special = true;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === rs.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === rs.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = c === 0x20 || c === 0x09 || isBreak(c);
  }
  const a: Analysis = { multiline: lineBreaks, blockPlain: true, singleQuoted: true, block: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.blockPlain = false;
  if (trailingSpace) a.block = false;
  if (breakSpace) {
    a.blockPlain = false;
    a.singleQuoted = false;
  }
  if (spaceBreak || special) {
    a.blockPlain = false;
    a.singleQuoted = false;
    a.block = false;
  }
  if (lineBreaks) a.blockPlain = false;
  if (blockIndicators) a.blockPlain = false;
  return a;
}

type Style = 'plain' | 'single' | 'double' | 'literal';

function selectStyle(s: string, simpleKey: boolean): Style {
  const a = analyze(s);
  let style: Style = s.includes('\n') ? 'literal' : resolvesToNonString(s) ? 'double' : 'plain';
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain') {
    if (!a.blockPlain) style = 'single';
    if (s.length === 0 && simpleKey) style = 'single';
  }
  if (style === 'single' && !a.singleQuoted) style = 'double';
  if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
  return style;
}

class Writer {
  out = '';
  column = 0;
  /** Just wrote a line break (so an indent needs no new one). */
  atBreak = true;

  write(s: string): void {
    for (const c of s) {
      this.out += c;
      if (c === '\n') {
        this.column = 0;
        this.atBreak = true;
      } else {
        this.column++;
        this.atBreak = false;
      }
    }
  }

  indent(n: number): void {
    if (!(this.atBreak && this.column === 0)) this.write('\n');
    this.write(' '.repeat(Math.max(n, 0)));
    this.atBreak = false;
  }
}

function escapeDouble(c: number): string {
  switch (c) {
    case 0:
      return '\\0';
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 9:
      return '\\t';
    case 0x0a:
      return '\\n';
    case 0x0b:
      return '\\v';
    case 0x0c:
      return '\\f';
    case 0x0d:
      return '\\r';
    case 0x1b:
      return '\\e';
    case 0x22:
      return '\\"';
    case 0x5c:
      return '\\\\';
    case 0x85:
      return '\\N';
    case 0xa0:
      return '\\_';
    case 0x2028:
      return '\\L';
    case 0x2029:
      return '\\P';
  }
  const h = c.toString(16).toUpperCase();
  if (c <= 0xff) return '\\x' + h.padStart(2, '0');
  if (c <= 0xffff) return '\\u' + h.padStart(4, '0');
  return '\\U' + h.padStart(8, '0');
}

function writeScalar(w: Writer, s: string, style: Style, indent: number, allowBreaks: boolean): void {
  const rs = Array.from(s, (c) => c.codePointAt(0)!);
  const space = (i: number) => rs[i] === 0x20;
  switch (style) {
    case 'plain': {
      let spaces = false;
      for (let i = 0; i < rs.length; i++) {
        if (space(i)) {
          if (allowBreaks && !spaces && w.column > BEST_WIDTH && !space(i + 1)) w.indent(indent);
          else w.write(' ');
          spaces = true;
        } else {
          w.write(String.fromCodePoint(rs[i]!));
          spaces = false;
        }
      }
      return;
    }
    case 'single': {
      w.write("'");
      let spaces = false;
      for (let i = 0; i < rs.length; i++) {
        const c = rs[i]!;
        if (space(i)) {
          if (allowBreaks && !spaces && w.column > BEST_WIDTH && i !== 0 && i !== rs.length - 1 && !space(i + 1))
            w.indent(indent);
          else w.write(' ');
          spaces = true;
        } else {
          w.write(c === 0x27 ? "''" : String.fromCodePoint(c));
          spaces = false;
        }
      }
      w.write("'");
      return;
    }
    case 'double': {
      w.write('"');
      let spaces = false;
      for (let i = 0; i < rs.length; i++) {
        const c = rs[i]!;
        if (!isPrintable(c) || c === 0xfeff || isBreak(c) || c === 0x22 || c === 0x5c) {
          w.write(escapeDouble(c));
          spaces = false;
        } else if (c === 0x20) {
          if (allowBreaks && !spaces && w.column > BEST_WIDTH && i !== 0 && i !== rs.length - 1) {
            w.indent(indent);
            if (space(i + 1)) w.write('\\');
          } else w.write(' ');
          spaces = true;
        } else {
          w.write(String.fromCodePoint(c));
          spaces = false;
        }
      }
      w.write('"');
      return;
    }
    case 'literal': {
      let hint = '';
      if (rs[0] === 0x20 || isBreak(rs[0]!)) hint += '2';
      const last = rs[rs.length - 1]!;
      if (!isBreak(last)) hint += '-';
      else if (rs.length === 1 || isBreak(rs[rs.length - 2]!)) hint += '+';
      w.write('|' + hint + '\n');
      let breaks = true;
      for (let i = 0; i < rs.length; i++) {
        const c = rs[i]!;
        if (isBreak(c)) {
          w.write('\n');
          breaks = true;
        } else {
          if (breaks) {
            w.write(' '.repeat(indent));
            breaks = false;
          }
          w.write(String.fromCodePoint(c));
        }
      }
      return;
    }
  }
}

function emitScalar(w: Writer, n: { text: string; str: boolean }, indent: number, simpleKey: boolean): void {
  if (!n.str) {
    w.write(n.text);
    return;
  }
  writeScalar(w, n.text, selectStyle(n.text, simpleKey), indent, !simpleKey);
}

/**
 * Emits node n whose first token goes at the current position.
 * `indent` is the column of the enclosing collection's entries (-1 at the root).
 */
function emitNode(w: Writer, n: YNode, indent: number, inMapValue: boolean): void {
  const inner = indent < 0 ? 0 : indent;
  if (n.t === 'scalar') {
    emitScalar(w, n, indent < 0 ? 2 : indent + 2, false);
    return;
  }
  if (n.t === 'seq') {
    if (n.items.length === 0) {
      w.write('[]');
      return;
    }
    // go-yaml v2 does not indent a sequence that is a mapping value.
    const at = indent < 0 ? 0 : inMapValue ? indent : indent + 2;
    n.items.forEach((item, i) => {
      if (i > 0 || inMapValue) w.indent(at);
      w.write('-');
      emitEntryValue(w, item, at, false);
    });
    return;
  }
  if (n.entries.length === 0) {
    w.write('{}');
    return;
  }
  const at = indent < 0 ? 0 : indent + 2;
  n.entries.forEach(([k, v], i) => {
    if (i > 0 || inMapValue) w.indent(at);
    emitScalar(w, { text: k, str: true }, at + 2, true);
    w.write(':');
    emitEntryValue(w, v, at, true);
  });
  void inner;
}

/** The value after "key:" or "-" written at column `at`. */
function emitEntryValue(w: Writer, v: YNode, at: number, isMapValue: boolean): void {
  if (v.t === 'scalar' || (v.t === 'seq' && v.items.length === 0) || (v.t === 'map' && v.entries.length === 0)) {
    w.write(' ');
    if (v.t === 'scalar') emitScalar(w, v, at + 2, false);
    else emitNode(w, v, at, false);
    return;
  }
  if (isMapValue) {
    emitNode(w, v, at, true);
    return;
  }
  // A collection inside a sequence item starts on the same line as "- ".
  w.write(' ');
  emitNode(w, v, at, false);
}

/** yaml.Marshal output (with its trailing newline). Throws on values JSON cannot encode. */
export function marshalYaml(v: unknown): string {
  const w = new Writer();
  emitNode(w, toNode(v), -1, false);
  if (!w.atBreak) w.write('\n');
  return w.out;
}
