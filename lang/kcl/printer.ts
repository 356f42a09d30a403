/**
 * What `kcl run` prints. YAML follows serde_yaml (KCL's emitter): block
 * style, sequences not indented under their key, a string that would read
 * back as another type single-quoted, a multi-line string as a literal block,
 * anything with control characters double-quoted. JSON is pretty-printed with
 * four spaces. Keys keep insertion order unless sortKeys; private (`_x`) keys
 * and Undefined values are left out; None prints as null unless ignoreNone.
 */
import { floatText } from './text.js';
import { KDict, KFloat, KFunc, KModule, SchemaType, UNDEFINED, type Value } from './value.js';

export interface PrintOptions {
  readonly sortKeys?: boolean;
  readonly ignorePrivate?: boolean;
  readonly ignoreNone?: boolean;
  /** JSON only: spaces per level (0 = one line). */
  readonly indent?: number;
}

function entries(d: KDict, o: PrintOptions): [string, Value][] {
  const out: [string, Value][] = [];
  for (const [k, v] of d.map) {
    if (v === UNDEFINED || v instanceof KFunc || v instanceof SchemaType || v instanceof KModule) continue;
    if (o.ignorePrivate !== false && k.startsWith('_')) continue;
    if (o.ignoreNone && v === null) continue;
    out.push([k, v]);
  }
  if (o.sortKeys) out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return out;
}

function listItems(l: Value[], o: PrintOptions): Value[] {
  if (!l.some((v) => v === UNDEFINED || (o.ignoreNone && v === null))) return l;
  return l.filter((v) => v !== UNDEFINED && !(o.ignoreNone && v === null));
}

/** Rust's shortest float text, as serde emits it (1.0, 0.1, 1e20, 1.5e-7). */
function numberText(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e16 || a < 1e-5)) return v.toExponential().replace('e+', 'e');
  return floatText(v);
}

/**
 * A value as plain JSON data, by the printing rules (private keys, Undefined and functions
 * left out; None as null unless ignoreNone): what a caller compares with values from elsewhere.
 * Floats become numbers, so 1.0 and 1 compare equal.
 */
export function toPlain(v: Value, o: PrintOptions = {}): unknown {
  if (v === null || v === UNDEFINED) return null;
  if (v instanceof KFloat) return v.v;
  if (Array.isArray(v)) return listItems(v, o).map((x) => toPlain(x, o));
  if (v instanceof KDict) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of entries(v, o)) out[k] = toPlain(x, o);
    return out;
  }
  if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  return null;
}

// ---- JSON ----
export function encodeJson(v: Value, o: PrintOptions = {}): string {
  const indent = o.indent ?? 4;
  const walk = (x: Value, depth: number): string => {
    const pad = indent > 0 ? '\n' + ' '.repeat(indent * (depth + 1)) : '';
    const end = indent > 0 ? '\n' + ' '.repeat(indent * depth) : '';
    const sep = indent > 0 ? ',' : ', ';
    if (x === null || x === UNDEFINED) return 'null';
    if (typeof x === 'boolean') return x ? 'true' : 'false';
    if (typeof x === 'number') return String(x);
    if (x instanceof KFloat) return Number.isFinite(x.v) ? numberText(x.v) : 'null';
    if (typeof x === 'string') return JSON.stringify(x);
    if (Array.isArray(x)) {
      const items = listItems(x, o);
      if (items.length === 0) return '[]';
      return `[${items.map((i) => pad + walk(i, depth + 1)).join(sep)}${end}]`;
    }
    if (x instanceof KDict) {
      const es = entries(x, o);
      if (es.length === 0) return '{}';
      return `{${es.map(([k, i]) => `${pad}${JSON.stringify(k)}: ${walk(i, depth + 1)}`).join(sep)}${end}}`;
    }
    return 'null';
  };
  return walk(v, 0);
}

// ---- YAML ----
const NUMBERISH =
  /^[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+|\.inf|\.Inf|\.INF|\.nan|\.NaN|\.NAN)$/;
const RESERVED = new Set(['', '~', 'null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** A string serde_yaml single-quotes because it would read back as null, a bool or a number. */
function readsAsOther(s: string): boolean {
  return RESERVED.has(s) || NUMBERISH.test(s);
}

function hasSpecial(s: string): boolean {
  // By UTF-16 unit (no string iterator): printable ASCII first; a surrogate pair is a code point above
  // the BMP (fine), a lone surrogate is special.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a) continue;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0xfeff || c === 0xfffe || c === 0xffff) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/** Words, paths and image references: plain unless they read as another type. */
const SIMPLE = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;

function plainAllowed(s: string): boolean {
  if (SIMPLE.test(s)) return !RESERVED.has(s);
  if (s === '' || readsAsOther(s)) return false;
  if (s.startsWith('---') || s.startsWith('...')) return false;
  if (/^\s|\s$/.test(s)) return false;
  const first = s[0]!;
  if ('#,[]{}&*!|>\'"%@`'.includes(first)) return false;
  if ((first === '-' || first === '?' || first === ':') && (s.length === 1 || /\s/.test(s[1]!))) return false;
  if (/: |:$| #/.test(s)) return false;
  if (s.includes('\n')) return false;
  return true;
}

function doubleQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 0) out += '\\0';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\v') out += '\\v';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\x1b') out += '\\e';
    else if (c === 0x85) out += '\\N';
    else if (c === 0xa0) out += '\\_';
    else if (c === 0x2028) out += '\\L';
    else if (c === 0x2029) out += '\\P';
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) out += '\\x' + c.toString(16).toUpperCase().padStart(2, '0');
    else if (c === 0xfeff || (c >= 0xd800 && c <= 0xdfff)) out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/** A one-line scalar (keys, and strings that are not literal blocks). */
function scalarString(s: string): string {
  if (hasSpecial(s) || s.includes('\n')) return doubleQuoted(s);
  if (plainAllowed(s)) return s;
  return `'${s.replace(/'/g, "''")}'`;
}

function literalAllowed(s: string): boolean {
  return s.includes('\n') && !hasSpecial(s) && !/ \n/.test(s) && !/[ \t]$/.test(s.replace(/\n+$/, '')) && !/\t/.test(s);
}

function literalBlock(s: string, indent: number): string {
  const pad = ' '.repeat(indent);
  const trailing = /\n*$/.exec(s)![0].length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const indicator = s.startsWith(' ') || s.startsWith('\n') ? '2' : '';
  const body = trailing === 0 ? s : s.slice(0, s.length - (chomp === '+' ? 0 : 1));
  const lines = body.split('\n');
  if (chomp === '+') lines.pop();
  return `|${indicator}${chomp}\n` + lines.map((l) => (l === '' ? '' : pad + l)).join('\n') + '\n';
}

function scalarText(v: Value): string {
  if (v === null || v === UNDEFINED) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return String(v);
  if (v instanceof KFloat) {
    if (Number.isNaN(v.v)) return '.nan';
    if (!Number.isFinite(v.v)) return v.v > 0 ? '.inf' : '-.inf';
    return numberText(v.v);
  }
  if (typeof v === 'string') return scalarString(v);
  return 'null';
}

const join = (prefix: string, text: string): string => (prefix ? `${prefix} ${text}` : text);

/** Whether a dict entry is printed. */
function shown(k: string, v: Value, o: PrintOptions): boolean {
  if (v === UNDEFINED || v instanceof KFunc || v instanceof SchemaType || v instanceof KModule) return false;
  if (o.ignorePrivate !== false && k.charCodeAt(0) === 95 /* _ */) return false;
  return !(o.ignoreNone && v === null);
}

/** The printed keys of a dict, sorted (with sortKeys; otherwise the writer walks the entries). */
function shownKeys(d: KDict, o: PrintOptions): string[] {
  const out: string[] = [];
  d.map.forEach((v, k) => {
    if (shown(k, v, o)) out.push(k);
  });
  if (o.sortKeys) out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return out;
}

/** Whether a dict prints any key (no list of them made). */
function anyShown(d: KDict, o: PrintOptions): boolean {
  for (let i = 0; i < d.size; i++) if (shown(d.keyAt(i), d.valueAt(i), o)) return true;
  return false;
}

const PADS: string[] = [];
function pad(n: number): string {
  return (PADS[n] ??= ' '.repeat(n));
}

export function encodeYaml(v: Value, o: PrintOptions = {}): string {
  const out: string[] = [];
  // Keys and many values repeat across a tree (every application has `replicas:`): quote each once.
  const scalars = new Map<string, string>();
  const scalarOf = (s: string): string => {
    let t = scalars.get(s);
    if (t === undefined) scalars.set(s, (t = scalarString(s)));
    return t;
  };
  // `    key:` lines, per indent: made once per output, not once per dict.
  const keyLines: Map<string, string>[] = [];
  const keyLine = (indent: number, k: string): string => {
    const lines = (keyLines[indent] ??= new Map());
    let t = lines.get(k);
    if (t === undefined) lines.set(k, (t = pad(indent) + scalarOf(k) + ':'));
    return t;
  };
  /** Writes `x` as the value after `prefix` (a `key:` or `-`), at `indent` for nested lines. */
  const value = (prefix: string, x: Value, indent: number): void => {
    if (x instanceof KDict) {
      if (!anyShown(x, o)) out.push(join(prefix, '{}'));
      else mapping(x, indent, prefix);
      return;
    }
    if (Array.isArray(x)) {
      const items = listItems(x, o);
      if (items.length === 0) out.push(join(prefix, '[]'));
      else seq(items, indent, prefix);
      return;
    }
    if (typeof x === 'string') {
      if (literalAllowed(x)) out.push(join(prefix, literalBlock(x, indent + 2).replace(/\n$/, '')));
      else out.push(join(prefix, scalarOf(x)));
      return;
    }
    out.push(join(prefix, scalarText(x)));
  };
  /** One `key: value` of a mapping; the first key of an inline mapping continues `prefix`. */
  const entry = (k: string, x: Value, indent: number, inlinePrefix: string | undefined): void => {
    const key = inlinePrefix !== undefined ? `${inlinePrefix} ` + scalarOf(k) + ':' : keyLine(indent, k);
    if (x instanceof KDict) {
      if (anyShown(x, o)) mapping(x, indent + 2, key);
      else out.push(`${key} {}`);
    } else if (Array.isArray(x)) {
      const items = listItems(x, o);
      if (items.length > 0) {
        out.push(key);
        seq(items, indent, '');
      } else out.push(`${key} []`);
    } else value(key, x, indent);
  };
  /** A mapping (at least one key shown) whose first line may continue `prefix` (`- ` of a sequence item). */
  const mapping = (d: KDict, indent: number, prefix: string): void => {
    const inline = prefix.endsWith('-');
    if (!inline && prefix) out.push(prefix);
    let first = inline;
    if (o.sortKeys) {
      for (const k of shownKeys(d, o)) {
        entry(k, d.map.get(k)!, indent, first ? prefix : undefined);
        first = false;
      }
      return;
    }
    // Entries read off the dict in order: no list of keys per dict.
    for (let i = 0; i < d.size; i++) {
      const k = d.keyAt(i);
      const x = d.valueAt(i);
      if (!shown(k, x, o)) continue;
      entry(k, x, indent, first ? prefix : undefined);
      first = false;
    }
  };
  const seq = (items: Value[], indent: number, prefix: string): void => {
    const p = pad(indent);
    const inline = prefix.endsWith('-');
    if (!inline && prefix) out.push(prefix);
    for (let i = 0; i < items.length; i++) {
      const x = items[i]!;
      const dash = i === 0 && inline ? `${prefix} -` : `${p}-`;
      if (x instanceof KDict) {
        if (anyShown(x, o)) mapping(x, indent + 2, dash);
        else out.push(`${dash} {}`);
      } else if (Array.isArray(x)) {
        const inner = listItems(x, o);
        if (inner.length > 0) seq(inner, indent + 2, dash);
        else out.push(`${dash} []`);
      } else value(dash, x, indent);
    }
  };
  if (v instanceof KDict) {
    if (anyShown(v, o)) mapping(v, 0, '');
    else value('', v, 0);
  } else if (Array.isArray(v) && listItems(v, o).length > 0) seq(listItems(v, o), 0, '');
  else value('', v, 0);
  return out.join('\n') + '\n';
}
