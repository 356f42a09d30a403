/**
 * A YAML emitter that writes a JSON value exactly as go-yaml v2's Marshal
 * does (encode.go choosing a style per scalar, emitterc.go writing it: the
 * libyaml state machine with best_indent 2 and best_width 80). The emitter
 * state (column, indent stack, whitespace/indention flags) is kept with the
 * same meaning as in emitterc.go so that wrapping of long plain and quoted
 * scalars, the `?` form of long or multi-line keys, block-scalar chomping
 * hints and `- ` placement come out byte for byte.
 * Invariants: only JSON values (no anchors, tags or flow style except the
 * `{}`/`[]` of empty collections); strings are handled as Unicode code
 * points, a lone UTF-16 surrogate becomes U+FFFD as it does on its way
 * through Go's JSON decoder; the output always ends with a newline.
 * The one go-yaml v2 emitter of the project: kubecfg `show -o yaml`, the
 * manifestYaml native and Helm's `toYaml` differ only in key order variant
 * and number text, which are options.
 */

import { resolvesToNonString, isBase60Float } from './resolve.js';
import { sortYamlKeys } from './key-order.js';
import { wellFormed } from '../../common/well-formed.js';
import { analyzeScalar, codePointCount, isBreak, isPrintable, LF, SPACE, utf8Length } from './scalar.js';
import { runes } from '../strconv.js';
import type { ScalarAnalysis } from './scalar.js';

/**
 * What the emitter writes: JSON values, plus bigint for Go integers that a
 * float64 cannot hold (Helm's toYaml of an int64).
 */
export type YamlValue =
  null | boolean | number | bigint | string | YamlValue[] | YamlMapSlice | { [key: string]: YamlValue };

type YamlScalar = null | boolean | number | bigint | string;

/**
 * go-yaml's MapSlice: a mapping in its own order whose keys keep their YAML
 * type (ytt prints a YAML 1.1 key `n:` as the boolean `false:`, an int key as
 * `1:`), which a JS object's string keys cannot say.
 */
export class YamlMapSlice {
  constructor(readonly items: readonly (readonly [YamlScalar, YamlValue])[]) {}
}

export interface YamlEmitOptions {
  /**
   * How a number is written (plain scalar text). Callers differ in how numbers
   * reached go-yaml (a float64 in kubecfg show, a JSON round trip in
   * ghodss/sigs.k8s.io yaml), so the choice is theirs. A bigint is a Go
   * integer and is always written in decimal.
   */
  numberText: (n: number) => string;
  /** Key order variant, see yaml-key-order.ts. */
  digitRunFix: boolean;
  /** Keep the mapping's own key order (a yaml.MapSlice, as ytt prints) instead of sorting. */
  keepKeyOrder?: boolean;
}

const BEST_INDENT = 2;
const BEST_WIDTH = 80;

type ScalarStyle = 'plain' | 'single' | 'double' | 'literal';

interface Scalar {
  /** The text with lone surrogates replaced, and its code points. */
  text: string;
  value: number[];
  requested: ScalarStyle;
  analysis: ScalarAnalysis;
}

class Emitter {
  private out = '';
  private column = 0;
  private whitespace = true;
  private indention = true;
  private indent = -1;
  private readonly indents: number[] = [];
  private mappingContext = false;
  private simpleKeyContext = false;

  constructor(private readonly options: YamlEmitOptions) {}

  document(value: YamlValue): string {
    this.emitNode(value, false, false);
    this.writeIndent(); // implicit document end
    return this.out;
  }

  // ---- low-level writers (put / put_break / write / write_break) ----

  private put(ch: string): void {
    this.out += ch;
    this.column++;
  }
  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }
  private writeChar(cp: number): void {
    this.out += String.fromCodePoint(cp);
    this.column++;
  }
  private writeBreakChar(cp: number): void {
    if (cp === LF) this.putBreak();
    else {
      this.writeChar(cp);
      this.column = 0;
    }
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }
  private popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(
    indicator: string,
    needWhitespace: boolean,
    isWhitespace: boolean,
    isIndention: boolean,
  ): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    for (const ch of indicator) this.put(ch);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  // ---- nodes ----

  private emitNode(value: YamlValue, mapping: boolean, simpleKey: boolean, scalar?: Scalar): void {
    this.mappingContext = mapping;
    this.simpleKeyContext = simpleKey;
    if (Array.isArray(value)) this.emitSequence(value);
    else if (value instanceof YamlMapSlice) this.emitMapping(value);
    else if (value !== null && typeof value === 'object') this.emitMapping(value);
    else this.emitScalar(scalar ?? this.scalarOf(value));
  }

  private emitSequence(items: YamlValue[]): void {
    if (items.length === 0) {
      this.emptyFlow('[', ']');
      return;
    }
    this.increaseIndent(false, this.mappingContext && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.emitNode(item, false, false);
    }
    this.popIndent();
  }

  private emitMapping(obj: YamlMapSlice | { [key: string]: YamlValue }): void {
    const slice = obj instanceof YamlMapSlice;
    const keys: YamlScalar[] = slice
      ? obj.items.map(([k]) => k)
      : this.options.keepKeyOrder
        ? Object.keys(obj)
        : sortYamlKeys(Object.keys(obj), this.options.digitRunFix);
    if (keys.length === 0) {
      this.emptyFlow('{', '}');
      return;
    }
    this.increaseIndent(false, false);
    for (const [idx, key] of keys.entries()) {
      this.writeIndent();
      const keyScalar = this.scalarOf(key);
      const simple = !keyScalar.analysis.multiline && utf8Length(keyScalar.value) <= 128;
      if (simple) {
        this.emitNode(key, true, true, keyScalar);
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.emitNode(key, true, false, keyScalar);
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.emitNode(slice ? obj.items[idx]![1] : obj[key as string]!, true, false);
    }
    this.popIndent();
  }

  private emptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.increaseIndent(true, false);
    this.popIndent();
    this.writeIndicator(close, false, false, false);
  }

  /** encode.go: the style go-yaml asks for, before the emitter's own checks. */
  private scalarOf(value: YamlScalar): Scalar {
    let text: string;
    let requested: ScalarStyle = 'plain';
    if (value === null) text = 'null';
    else if (typeof value === 'boolean') text = value ? 'true' : 'false';
    else if (typeof value === 'number') text = this.options.numberText(value);
    else if (typeof value === 'bigint') text = value.toString();
    else {
      text = value;
      const canUsePlain = !resolvesToNonString(value) && !isBase60Float(value);
      if (value.includes('\n')) requested = 'literal';
      else requested = canUsePlain ? 'plain' : 'double';
    }
    const cps = runes(text);
    return { text: wellFormed(text), value: cps, requested, analysis: analyzeScalar(cps) };
  }

  /** yaml_emitter_select_scalar_style + process_scalar. */
  private emitScalar(s: Scalar): void {
    let style = s.requested;
    const a = s.analysis;
    if (this.simpleKeyContext && a.multiline) style = 'double';
    if (style === 'plain') {
      if (!a.blockPlainAllowed) style = 'single';
      if (s.value.length === 0 && this.simpleKeyContext) style = 'single';
    }
    if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
    if (style === 'literal' && (!a.blockAllowed || this.simpleKeyContext)) style = 'double';

    this.increaseIndent(true, false);
    const allowBreaks = !this.simpleKeyContext;
    switch (style) {
      case 'plain':
        this.writePlain(s, allowBreaks);
        break;
      case 'single':
        this.writeSingleQuoted(s.value, allowBreaks);
        break;
      case 'double':
        this.writeDoubleQuoted(s.value, allowBreaks);
        break;
      case 'literal':
        this.writeLiteral(s);
        break;
    }
    this.popIndent();
  }

  /** Writes text that holds no line break in one step. */
  private writeRun(text: string, codePoints: number): void {
    this.out += text;
    this.column += codePoints;
  }

  private writePlain(s: Scalar, allowBreaks: boolean): void {
    const v = s.value;
    if (!this.whitespace) this.put(' ');
    // A plain scalar has no line breaks; it can only wrap at a space past column 80.
    if (!allowBreaks || this.column + v.length <= BEST_WIDTH + 1 || !s.text.includes(' ')) {
      this.writeRun(s.text, v.length);
      this.whitespace = false;
      this.indention = false;
      return;
    }
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (c === SPACE) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && v[i + 1] !== SPACE) this.writeIndent();
        else this.writeChar(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === LF) this.putBreak();
        this.writeBreakChar(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.writeChar(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingleQuoted(v: number[], allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (c === SPACE) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < v.length - 1 && v[i + 1] !== SPACE)
          this.writeIndent();
        else this.writeChar(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === LF) this.putBreak();
        this.writeBreakChar(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 0x27) this.put("'");
        this.writeChar(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDoubleQuoted(v: number[], allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    // libyaml's is_bom looks at the start of the whole value, so a leading BOM escapes every character.
    const startsWithBom = v[0] === 0xfeff;
    let spaces = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (!isPrintable(c) || startsWithBom || isBreak(c) || c === 0x22 || c === 0x5c) {
        this.put('\\');
        this.writeEscape(c);
        spaces = false;
      } else if (c === SPACE) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < v.length - 1) {
          this.writeIndent();
          if (v[i + 1] === SPACE) this.put('\\');
        } else this.writeChar(c);
        spaces = true;
      } else {
        this.writeChar(c);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeEscape(c: number): void {
    const named: Record<number, string> = {
      0x00: '0',
      0x07: 'a',
      0x08: 'b',
      0x09: 't',
      0x0a: 'n',
      0x0b: 'v',
      0x0c: 'f',
      0x0d: 'r',
      0x1b: 'e',
      0x22: '"',
      0x5c: '\\',
      0x85: 'N',
      0xa0: '_',
      0x2028: 'L',
      0x2029: 'P',
    };
    const name = named[c];
    if (name !== undefined) {
      this.put(name);
      return;
    }
    const [letter, width] = c <= 0xff ? ['x', 2] : c <= 0xffff ? ['u', 4] : ['U', 8];
    this.put(letter);
    for (const ch of c.toString(16).toUpperCase().padStart(width, '0')) this.put(ch);
  }

  private writeLiteral(s: Scalar): void {
    const v = s.value;
    this.writeIndicator('|', true, false, false);
    // Block scalar hints: an explicit indent when the text starts with a space or break, then chomping.
    if (v[0] === SPACE || isBreak(v[0])) this.writeIndicator(String(BEST_INDENT), false, false, false);
    let chomp = '';
    if (v.length === 0 || !isBreak(v[v.length - 1])) chomp = '-';
    else if (v.length === 1 || isBreak(v[v.length - 2])) chomp = '+';
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    // Lines between break characters are written whole, each after its indent.
    const text = s.text;
    let runStart = 0;
    const flushRun = (end: number): void => {
      if (end > runStart) {
        this.writeIndent();
        const run = text.slice(runStart, end);
        this.writeRun(run, codePointCount(run));
        this.indention = false;
      }
    };
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (!isBreak(c)) continue;
      flushRun(i);
      this.writeBreakChar(c);
      this.indention = true;
      runStart = i + 1;
    }
    flushRun(text.length);
  }
}

/** go-yaml v2 `Marshal(value)`: one YAML document without a leading `---`. */
export function marshalYaml(value: YamlValue, options: YamlEmitOptions): string {
  return new Emitter(options).document(value);
}
