/**
 * Stage 3: translates parsed YAML nodes to Jsonnet (sequences in sequences.ts,
 * `<<` and `<<+` in merges.ts, documents in file-shape.ts), writing through an
 * Emitter so every node and expression stays on its source line. Mappings
 * become objects (with local keys as object locals, key modifiers as Jsonnet
 * separators, `<<` merges applied by YAML's rules and `<<+` as the parent),
 * sequences become arrays or, with `${for}`/`${if}` items, sums of arrays and
 * comprehensions, scalars become literals, placeholders and expression
 * strings become their Jsonnet code, with `\{` YAML blocks compiled in place.
 * Anchors are recorded with their path so the document can declare them as
 * locals; every rule the spec makes an error throws a located YaklError.
 */
import {
  type Document,
  type Node as YNode,
  type Pair,
  Scalar,
  YAMLMap,
  YAMLSeq,
  isAlias,
  isMap,
  isScalar,
  isSeq,
} from 'yaml';
import type { SourceFile } from '../common/source.js';
import { SourceFile as Source } from '../common/source.js';
import { lex as lexJsonnet } from '../jsonnet/lexer.js';
import { freeVariablesOf, parseAst } from '../jsonnet/index.js';
import { JsonnetError } from '../jsonnet/errors.js';
import { type AnchorInfo, type PathSeg, anchorBindings, collectAnchors } from './anchors.js';
import { Emitter } from './emitter.js';
import { entryIdentity, genExtend, mergeSources } from './merges.js';
import { genSeq } from './sequences.js';
import { fieldName, isSimpleExpression, normalizeCode, singleQuoted } from './jsonnet-text.js';
import { YaklError, errorAt } from './errors.js';
import { type Clause, asClause, matchExpression } from './expression.js';
import { type YamlBlock, scanToClosingBrace } from './jsonnet-scan.js';
import { type KeyMeaning, RESERVED_PREFIX, classifyKey, isLocalName, jsonnetSeparator } from './keys.js';
import { LexError, type LexResult, type PlainExpression, lexYakl } from './lexer.js';
import { parseYamlStream } from './yaml-parse.js';

/** YAML text handed to the lexer, and where it sits in the .yakl file. */
export interface YamlSource {
  text: string;
  /** File offset of text[0]. */
  base: number;
  /** False when the text isn't a verbatim slice of the file (a quoted expression's unescaped code). */
  exact: boolean;
}

export type AnchorMode =
  /** `laterPlus`: a later `x+:` key of the document adds to this value, so counting list items from the end is unsafe. */
  { mode: 'record'; path: PathSeg[]; laterPlus?: boolean } | { mode: 'forbid'; why: string } | { mode: 'copy' };

/** One parsed YAML text (the file or a `\{` block) and what generation learned about it. */
export interface YamlUnit {
  src: YamlSource;
  lex: LexResult;
  docs: Document.Parsed[];
  placeholders: Map<string, PlainExpression>;
}

/** Per document (or block): its anchors. */
export interface DocScope {
  unit: YamlUnit;
  doc: Document.Parsed;
  anchors: Map<string, AnchorInfo>;
}

const YAML11_BOOL = /^(y|n|yes|no|on|off)$/i;
const STR_TAG = 'tag:yaml.org,2002:str';
const MAP_TAG = 'tag:yaml.org,2002:map';
const ALIAS_BUDGET = 10000;

export interface GeneratorHooks {
  /** Called with the Jsonnet code of every expression, for checks such as `$` in file locals. */
  onExpression?: (code: string, fileOffset: number) => void;
}

type KeyInfo =
  | { kind: 'text'; text: string; meaning: KeyMeaning }
  | { kind: 'expr'; code: string; at: number; exact: boolean; clause: Clause | null; identity: string };

export interface Entry {
  pair: Pair;
  key: KeyInfo;
  at: number;
  copied: boolean;
  /** Anchor mode for the value when copied. */
  copyMode?: AnchorMode;
  scope: DocScope;
}

export class Generator {
  private aliasBudget = ALIAS_BUDGET;
  private tmp = 0;
  private aliasAt = -1;
  /** Set when some code could only be checked as part of the whole file (`\{` blocks). */
  needsWholeParse = false;
  /** Free variables of every expression checked on its own. */
  readonly freeInExpressions = new Set<string>();
  /** False to generate without the per-expression syntax check (to show code that doesn't parse). */
  checkExpressions = true;
  hooks: GeneratorHooks = {};

  constructor(
    readonly file: SourceFile,
    readonly e: Emitter,
  ) {}

  fail(at: number, code: string, reason: string): never {
    throw errorAt(this.file, at, code, reason);
  }

  freshName(prefix: string): string {
    return `yakl__${prefix}${++this.tmp}`;
  }

  // ---- units: lexing and parsing a YAML text ----

  parseUnit(src: YamlSource): YamlUnit {
    let lex: LexResult;
    try {
      lex = lexYakl(src.text);
    } catch (err) {
      if (!(err instanceof LexError)) throw err;
      const f = err.failure;
      if (f.jsonnetCode) {
        this.jsonnetParseError(
          src.text.slice(f.jsonnetCode.start, f.jsonnetCode.end),
          this.at(src, f.jsonnetCode.start),
          src.exact,
        );
      }
      this.fail(this.at(src, f.at), f.code, f.reason);
    }
    const docs = parseYamlStream(lex.text);
    const placeholders = new Map<string, PlainExpression>();
    for (const x of lex.expressions) placeholders.set(x.placeholder, x);
    const unit: YamlUnit = { src, lex, docs, placeholders };
    for (const d of docs) {
      const err = d.errors[0];
      if (err) {
        const at = this.at(src, lex.toSource(err.pos[0]));
        const msg = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
        this.fail(at, err.code === 'DUPLICATE_KEY' ? 'YAKL_DUPLICATE_KEY' : 'YAKL_YAML', msg);
      }
    }
    return unit;
  }

  /** File offset of an offset of a unit's source text. */
  at(src: YamlSource, textOffset: number): number {
    return src.exact ? src.base + textOffset : src.base;
  }

  nodeAt(scope: DocScope, node: { range?: [number, number, number] | null } | null | undefined): number {
    const r = node?.range;
    if (!r) return scope.unit.src.base;
    return this.at(scope.unit.src, scope.unit.lex.toSource(r[0]));
  }

  moveTo(offset: number): void {
    const p = this.file.position(offset);
    this.e.moveTo(p.line, p.column);
  }

  /** Reports a Jsonnet syntax error in expression code at its place in the file. */
  jsonnetParseError(code: string, codeAt: number, exact: boolean, fallback?: { code: string; reason: string }): never {
    try {
      parseAst(new Source('<expr>', code));
    } catch (err) {
      if (err instanceof JsonnetError) {
        const off = err.span && exact ? codeAt + err.span.start : codeAt;
        this.fail(off, 'YAKL_JSONNET', err.message);
      }
      throw err;
    }
    this.fail(
      codeAt,
      fallback?.code ?? 'YAKL_UNTERMINATED',
      fallback?.reason ??
        'unterminated expression: ${ has no matching } (a # or // comment runs to the end of the line and swallows a } after it; put the } on the next line or use /* */)',
    );
  }

  // ---- anchors ----

  registerAnchor(scope: DocScope, node: YNode, am: AnchorMode): void {
    const name = node.anchor;
    if (!name || am.mode === 'copy') return;
    if (!isLocalName(name)) return; // stays a plain YAML anchor
    const at = this.nodeAt(scope, node);
    if (name.startsWith(RESERVED_PREFIX))
      this.fail(at, 'YAKL_RESERVED', `names starting with ${RESERVED_PREFIX} are reserved for yakl`);
    if (am.mode === 'forbid') this.fail(at, 'YAKL_ANCHOR_PLACE', `anchor &${name} is not allowed ${am.why}`);
    if (scope.anchors.has(name)) {
      this.fail(
        at,
        'YAKL_DUPLICATE_ANCHOR',
        `anchor &${name} is declared twice in one document; a local can't have two values`,
      );
    }
    scope.anchors.set(name, { name, path: am.path, at });
  }

  /** True when the tree (not following aliases) has an anchor that becomes a local. */
  hasLocalAnchors(node: unknown): boolean {
    if (!node || typeof node !== 'object') return false;
    const n = node as YNode;
    if (isAlias(n)) return false;
    if ((isScalar(n) || isMap(n) || isSeq(n)) && n.anchor && isLocalName(n.anchor)) return true;
    if (isMap(n)) return n.items.some((p) => this.hasLocalAnchors(p.value) || this.hasLocalAnchors(p.key));
    if (isSeq(n)) return n.items.some((i) => this.hasLocalAnchors(i));
    return false;
  }

  // ---- nodes ----

  genNode(scope: DocScope, node: unknown, am: AnchorMode, opts: { fromEnd?: boolean; docRoot?: boolean } = {}): void {
    if (node === null || node === undefined) {
      this.e.write('null');
      return;
    }
    const n = node as YNode;
    if (isAlias(n)) {
      if (am.mode === 'record' || am.mode === 'forbid') {
        // An alias's own position is fine; only its copy's anchors are ignored.
      }
      const target = n.resolve(scope.doc);
      if (!target) this.fail(this.nodeAt(scope, n), 'YAKL_YAML', `unknown alias *${n.source}`);
      const aliasAt = this.nodeAt(scope, n);
      this.moveTo(aliasAt);
      const outer = this.aliasAt < 0;
      if (outer) this.aliasAt = aliasAt;
      try {
        this.e.flat(() => this.genNode(scope, target, { mode: 'copy' }, opts));
      } finally {
        if (outer) this.aliasAt = -1;
      }
      return;
    }
    if (am.mode === 'copy' && --this.aliasBudget < 0) {
      this.fail(
        this.aliasAt >= 0 ? this.aliasAt : this.nodeAt(scope, n),
        'YAKL_ALIAS_LIMIT',
        `aliases expand to more than ${ALIAS_BUDGET} nodes`,
      );
    }
    if (isScalar(n)) return this.genScalar(scope, n, am);
    if (isMap(n)) return this.genMap(scope, n, am, opts);
    if (isSeq(n)) return this.genSeq(scope, n, am, opts);
    this.fail(this.nodeAt(scope, n), 'YAKL_YAML', 'unsupported YAML node');
  }

  checkCollectionTag(scope: DocScope, node: YAMLMap | YAMLSeq, want: string): void {
    if (node.tag && node.tag !== want) this.rejectTag(scope, node, node.tag);
  }

  private rejectTag(scope: DocScope, node: YNode, tag: string): never {
    const shown = tag.startsWith('tag:yaml.org,2002:') ? '!!' + tag.slice('tag:yaml.org,2002:'.length) : tag;
    this.fail(
      this.nodeAt(scope, node),
      'YAKL_TAG',
      `the tag ${shown} is not supported: meaning lives in data, not tags (only !!str, !!map and !!seq are accepted)`,
    );
  }

  /** The expression a scalar is, with its code and file offset, or null. */
  scalarExpression(scope: DocScope, node: Scalar): { code: string; at: number; exact: boolean } | null {
    const value = node.value;
    if (typeof value !== 'string') return null;
    const { unit } = scope;
    const marker = unit.lex.marker;
    const at = this.nodeAt(scope, node);
    if (value.includes(marker)) {
      const ph = unit.placeholders.get(value);
      if (!ph || node.type !== 'PLAIN') {
        this.fail(
          at,
          'YAKL_LEXER_MISMATCH',
          'an expression is not a whole YAML node here (the YAML parser read it as part of a larger scalar); quote the expression or start a literal with $${',
        );
      }
      return {
        code: unit.src.text.slice(ph.start + 2, ph.end - 1),
        at: this.at(unit.src, ph.start + 2),
        exact: unit.src.exact,
      };
    }
    const isBlock = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED';
    if (isBlock && unit.src.exact && value.trimStart().startsWith('${')) {
      // Block expressions: the code is the block's lines as written, at their place in the file.
      const r = node.range!;
      const s = unit.lex.toSource(r[0]);
      const eEnd = unit.lex.toSource(r[1]);
      const raw = unit.src.text.slice(s, eEnd);
      const nl = raw.indexOf('\n');
      const body = nl < 0 ? '' : raw.slice(nl + 1);
      const m = matchExpression(body);
      if (m.kind === 'expression')
        return { code: m.code, at: this.at(unit.src, s + nl + 1 + m.codeOffset), exact: true };
      if (m.kind === 'error') this.exprError(m, this.at(unit.src, s + nl + 1), true);
    }
    const m = matchExpression(value);
    if (m.kind === 'expression') {
      const quoteShift = node.type === 'QUOTE_SINGLE' || node.type === 'QUOTE_DOUBLE' ? 1 : 0;
      const exactHere = node.type === 'PLAIN' && unit.src.exact;
      return { code: m.code, at: at + quoteShift + (exactHere ? m.codeOffset : 0), exact: exactHere };
    }
    if (m.kind === 'error') this.exprError(m, at, false);
    return null;
  }

  private exprError(
    m: { code: string; reason: string; at: number; jsonnetCode?: string },
    at: number,
    exact: boolean,
  ): never {
    if (m.jsonnetCode !== undefined)
      this.jsonnetParseError(m.jsonnetCode, exact ? at + m.at + 2 : at, exact, { code: m.code, reason: m.reason });
    this.fail(exact ? at + m.at : at, m.code, m.reason);
  }

  genScalar(scope: DocScope, node: Scalar, am: AnchorMode): void {
    const at = this.nodeAt(scope, node);
    if (node.type === 'PLAIN' && typeof node.source === 'string' && YAML11_BOOL.test(node.source)) {
      this.fail(
        at,
        'YAKL_YAML11_BOOL',
        `'${node.source}' is a YAML 1.1 boolean: kubectl reads it as a boolean and kustomize as a string; write true or false, or quote it`,
      );
    }
    const expr = this.scalarExpression(scope, node);
    if (node.tag && node.tag !== STR_TAG) this.rejectTag(scope, node, node.tag);
    if (expr) {
      if (node.tag) this.fail(at, 'YAKL_TAG', "!!str can't turn an expression into text; start a literal ${ with $${");
      this.registerAnchor(scope, node, am);
      this.emitExpression(scope, expr.code, expr.at, expr.exact, am.mode === 'copy');
      return;
    }
    this.registerAnchor(scope, node, am);
    this.moveTo(at);
    this.e.write(this.literal(scope, node, at));
  }

  literal(scope: DocScope, node: Scalar, at: number): string {
    const value = node.value;
    if (value === null || value === undefined) return 'null';
    if (typeof value === 'boolean') return String(value);
    if (typeof value === 'number') {
      if (!Number.isFinite(value))
        this.fail(at, 'YAKL_NUMBER', `${node.source ?? value} can't be represented in JSON or Jsonnet`);
      return Object.is(value, -0) ? '-0' : String(value);
    }
    if (typeof value === 'bigint') return String(value);
    if (typeof value === 'string') {
      const m = matchExpression(value);
      const text = m.kind === 'literal' ? m.text : value;
      return this.e.readable ? singleQuoted(text) : JSON.stringify(text);
    }
    this.fail(at, 'YAKL_YAML', 'unsupported scalar value');
    void scope;
  }

  /** Writes expression code, compiling its `\{` YAML blocks in place. */
  emitExpression(scope: DocScope, code: string, at: number, exact: boolean, copy: boolean): void {
    this.hooks.onExpression?.(code, at);
    this.checkReservedDeclarations(code, at, exact);
    const scan = scanToClosingBrace(code + '\n}', 0);
    if (!scan.ok && scan.reason.includes('\\{')) this.fail(exact ? at + scan.at : at, 'YAKL_EXPR', scan.reason);
    if (!scan.ok) this.jsonnetParseError(code, at, exact);
    if (!scan.ok) return;
    if (scan.blocks.length > 0) this.needsWholeParse = true;
    else this.checkSyntax(code, at, exact);
    this.moveTo(at);
    if (this.e.readable && scan.blocks.length === 0 && isSimpleExpression(code)) {
      this.e.write(code.trim());
      return;
    }
    this.e.write('(');
    let prev = 0;
    for (const b of scan.blocks) {
      this.e.write(code.slice(prev, b.open));
      this.genYamlBlock(scope, code, b, at, exact, copy);
      if (exact && !copy) this.moveTo(at + b.close);
      prev = b.close + 1;
    }
    this.e.write(code.slice(prev));
    this.e.write(')');
  }

  /**
   * Parses one expression's code (cheaper than parsing the whole generated
   * file, whose YAML-made parts are valid by construction) and collects its
   * free variables, so the caller knows whether `kubecfg` may be read.
   */
  checkSyntax(code: string, at: number, exact: boolean): void {
    if (!this.checkExpressions) return;
    let ast;
    try {
      ast = parseAst(new Source(this.file.name, code));
    } catch (err) {
      if (err instanceof JsonnetError)
        this.fail(err.span && exact ? at + err.span.start : at, 'YAKL_JSONNET', err.message);
      throw err;
    }
    for (const v of freeVariablesOf(ast)) this.freeInExpressions.add(v);
  }

  /** Jsonnet code may read yakl__ names but not declare them (`local`, `for`, `name =`). */
  private checkReservedDeclarations(code: string, at: number, exact: boolean): void {
    if (!code.includes(RESERVED_PREFIX)) return;
    let toks;
    try {
      toks = lexJsonnet(new Source('<expr>', code));
    } catch {
      return; // syntax errors are reported with the whole file
    }
    toks.forEach((t, i) => {
      if (t.kind !== 'IDENTIFIER' || !t.data.startsWith(RESERVED_PREFIX)) return;
      const prev = toks[i - 1]?.kind;
      const next = toks[i + 1];
      const declares = prev === 'local' || prev === 'for' || (next?.kind === 'OPERATOR' && next.data === '=');
      if (declares)
        this.fail(
          exact ? at + t.start : at,
          'YAKL_RESERVED',
          `names starting with ${RESERVED_PREFIX} are reserved for yakl; don't declare ${t.data}`,
        );
    });
  }

  private genYamlBlock(
    scope: DocScope,
    code: string,
    b: YamlBlock,
    codeAt: number,
    exact: boolean,
    copy: boolean,
  ): void {
    const src: YamlSource = {
      text: code.slice(b.contentStart, b.contentEnd),
      base: exact ? codeAt + b.contentStart : codeAt,
      exact,
    };
    const unit = this.parseUnit(src);
    if (unit.docs.length > 1) this.fail(this.at(src, 0), 'YAKL_BLOCK_DOCS', 'a \\{ block holds a single YAML document');
    const doc = unit.docs[0];
    if (!doc || doc.contents === null) {
      this.e.write('null');
      return;
    }
    const inner: DocScope = { unit, doc, anchors: new Map() };
    this.genRootValue(inner, doc.contents, true);
    void scope;
    void copy;
  }

  /**
   * A document's or block's root value, wrapped so its anchors become locals.
   * `combined` is the value the anchors read when the document is one half of
   * a `^^: x` / `^^+: x` pair (the field before overlays, as two keys in a
   * mapping); `laterPlus` marks the plain half, whose lists a later + key extends.
   */
  genRootValue(
    scope: DocScope,
    root: unknown,
    parens: boolean,
    docRoot = false,
    pair: { combined?: string; laterPlus?: boolean } = {},
  ): void {
    const mode: AnchorMode = { mode: 'record', path: [], ...(pair.laterPlus ? { laterPlus: true } : {}) };
    if (!this.hasLocalAnchors(root)) {
      this.genNode(scope, root, mode, { docRoot });
      return;
    }
    this.moveTo(this.nodeAt(scope, root as YNode));
    this.e.write(parens ? '(local yakl__root = ' : 'local yakl__root = ');
    this.genNode(scope, root, mode, { docRoot });
    this.e.flat(() => {
      const binds = anchorBindings(scope.anchors.values(), pair.combined ?? 'yakl__root');
      this.e.write(binds.length > 0 ? `, ${binds.join(', ')}; yakl__root` : '; yakl__root');
      if (parens) this.e.write(')');
    });
  }

  // ---- keys ----

  keyInfo(scope: DocScope, pair: Pair): KeyInfo & { at: number } {
    const key = pair.key as YNode | null;
    if (key === null || key === undefined)
      return { kind: 'text', text: '', meaning: classifyKey(''), at: this.nodeAt(scope, pair.value as YNode) };
    const at = this.nodeAt(scope, key);
    if (!isScalar(key)) this.fail(at, 'YAKL_COMPLEX_KEY', 'keys must be scalars; complex keys (? [a, b]) are rejected');
    if (key.anchor && isLocalName(key.anchor)) {
      this.fail(
        at,
        'YAKL_ANCHOR_PLACE',
        `anchor &${key.anchor} is on a key; an anchor for the whole document or value goes on its own line`,
      );
    }
    if (key.tag && key.tag !== STR_TAG) this.rejectTag(scope, key, key.tag);
    if (key.type === 'PLAIN' && typeof key.source === 'string' && YAML11_BOOL.test(key.source)) {
      this.fail(
        at,
        'YAKL_YAML11_BOOL',
        `'${key.source}' is a YAML 1.1 boolean: kubectl reads it as a boolean and kustomize as a string; write true or false, or quote it`,
      );
    }
    const expr = this.scalarExpression(scope, key);
    if (expr) {
      if (key.tag) this.fail(at, 'YAKL_TAG', "!!str can't turn an expression into text; start a literal ${ with $${");
      return {
        kind: 'expr',
        code: expr.code,
        at: expr.at,
        exact: expr.exact,
        clause: asClause(expr.code),
        identity: normalizeCode(expr.code),
      };
    }
    const v = key.value;
    let text: string;
    if (v === null || v === undefined) text = key.source === '' ? '' : 'null';
    else if (typeof v === 'string') {
      const m = matchExpression(v);
      text = m.kind === 'literal' ? m.text : v;
      if (m.kind === 'literal')
        return { kind: 'text', text, meaning: { kind: 'field', name: text, plus: false, colons: 0 }, at };
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) this.fail(at, 'YAKL_NUMBER', `${key.source ?? v} can't be a field name`);
      text = String(v);
    } else text = String(v);
    return { kind: 'text', text, meaning: classifyKey(text), at };
  }

  // ---- mappings ----

  genMap(scope: DocScope, map: YAMLMap, am: AnchorMode, opts: { docRoot?: boolean }): void {
    this.checkCollectionTag(scope, map, MAP_TAG);
    this.registerAnchor(scope, map, am);
    const mapAt = this.nodeAt(scope, map);
    const copying = am.mode === 'copy';
    const childMode = (seg: string, forbidWhy?: string): AnchorMode =>
      copying
        ? am
        : forbidWhy
          ? { mode: 'forbid', why: forbidWhy }
          : am.mode === 'forbid'
            ? am
            : { ...am, path: [...am.path, { field: seg }] };

    const own: Entry[] = [];
    let extendPair: Pair | null = null;
    let extendIndex = -1;
    let mergeEntries: Entry[] = [];
    let mergeAt = -1;
    map.items.forEach((pair, index) => {
      const key = this.keyInfo(scope, pair);
      if (key.kind === 'expr' && key.clause) {
        this.fail(
          key.at,
          'YAKL_CLAUSE_KEY',
          `\${${key.clause.kind}} is a list item, not a mapping key: a mapping gets fields from elsewhere only through <<+ (for a condition: <<+: \${if c then {...}})`,
        );
      }
      if (key.kind === 'text') {
        const m = key.meaning;
        if (m.kind === 'error') this.fail(key.at, 'YAKL_BAD_KEY', m.reason);
        if (m.kind === 'merge') {
          if (index !== 0)
            this.fail(key.at, 'YAKL_MERGE_FIRST', '<< must be the very first key of its mapping, and appear once');
          mergeAt = key.at;
          mergeEntries = this.mergeSources(scope, pair, am);
          return;
        }
        if (m.kind === 'extend') {
          extendPair = pair;
          extendIndex = index;
          return;
        }
        if (m.kind === 'name' && !opts.docRoot) {
          this.fail(
            key.at,
            'YAKL_NAME_PLACE',
            'a ^^ key names a document: it is only allowed among the top-level keys of a document',
          );
        }
        if (m.kind === 'name') return;
      }
      own.push({ pair, key, at: key.at, copied: false, scope });
    });

    if (!copying)
      this.checkKeysDontReadInnerAnchors(
        map,
        own.map((en) => en.key),
      );
    // Own keys win over merged ones; an earlier source wins over a later one (already applied).
    const ownIds = new Set(own.map((e) => entryIdentity(e)));
    const merged = mergeEntries.filter((e) => !ownIds.has(entryIdentity(e)));
    const entries = [...merged, ...own];
    const localNames = new Set<string>();
    for (const en of own) {
      if (en.key.kind === 'text' && en.key.meaning.kind === 'local') {
        const name = en.key.meaning.name;
        if (localNames.has(name))
          this.fail(en.at, 'YAKL_DUPLICATE_LOCAL', `local &${name} is declared twice in one mapping`);
        localNames.add(name);
        const v = en.pair.value as YNode | null;
        if (
          v === null ||
          v === undefined ||
          (isScalar(v) && v.value === null && v.source === '' && v.type === 'PLAIN')
        ) {
          this.fail(en.at, 'YAKL_LOCAL_NO_VALUE', `'&${name}': needs a value; write null for a local holding null`);
        }
      }
    }
    const plusTmp = this.pairFields(entries);

    this.moveTo(mapAt);
    if (extendPair) {
      const inOrder = extendIndex === 0 || (extendIndex === 1 && mergeAt >= 0);
      const ext = extendPair;
      const write = (): void => this.genExtend(scope, ext, am);
      if (inOrder) write();
      else this.e.flat(write);
    }
    this.e.open('{', map.flow);
    for (const en of entries) {
      const emit = (): void => this.genEntry(scope, en, plusTmp, childMode);
      if (en.copied) this.e.flat(emit);
      else if (copying)
        emit(); // copies made by aliases have no comments
      else {
        if (isScalar(en.pair.key)) this.e.comment(en.pair.key.commentBefore, false);
        emit();
        const v = en.pair.value as YNode | null;
        if (v) this.e.comment((v as Scalar).comment ?? (isScalar(en.pair.key) ? en.pair.key.comment : undefined), true);
      }
    }
    this.e.close('}');
  }

  /**
   * Jsonnet needs a mapping's key expressions (and a list's clauses) to build
   * it, and an anchor's local reads the node from it: a key that reads an
   * anchor of a node inside would loop forever, so it's an error.
   */
  checkKeysDontReadInnerAnchors(
    container: YAMLMap | YAMLSeq,
    keys: { kind: string; code?: string; at?: number; clause?: Clause | null }[],
  ): void {
    const exprKeys = keys.filter((k) => k.kind === 'expr' && k.code !== undefined);
    if (exprKeys.length === 0) return;
    const inner = new Set<string>();
    collectAnchors(container, inner);
    if (inner.size === 0) return;
    for (const k of exprKeys) {
      const code = k.clause
        ? k.clause.kind === 'for'
          ? `[null ${k.clause.code}]`
          : `if ${k.clause.cond} then null`
        : k.code!;
      let free: Set<string>;
      try {
        free = freeVariablesOf(parseAst(new Source('<key>', code)));
      } catch {
        continue; // the syntax error is reported with the whole file
      }
      for (const name of free) {
        if (inner.has(name)) {
          this.fail(
            k.at ?? 0,
            'YAKL_ANCHOR_IN_KEY',
            `this key reads ${name}, the local of anchor &${name} on a node inside the same ${isMap(container) ? 'mapping' : 'list'}; Jsonnet needs the key to build it. Declare the value with a local key, '&${name}': ..., and use \${${name}} in both places`,
          );
        }
      }
    }
  }

  /** Groups fields by name (the two-key rule); returns the temp local of each `x+:` key joined to an `x:` key. */
  mergeSources(scope: DocScope, pair: Pair, am: AnchorMode): Entry[] {
    return mergeSources(this, scope, pair, am);
  }

  genExtend(scope: DocScope, pair: Pair, am: AnchorMode): void {
    genExtend(this, scope, pair, am);
  }

  genSeq(scope: DocScope, seq: YAMLSeq, am: AnchorMode, opts: { fromEnd?: boolean }): void {
    genSeq(this, scope, seq, am, opts);
  }

  pairFields(entries: Entry[]): Map<Entry, string> {
    const byName = new Map<string, Entry[]>();
    for (const en of entries) {
      if (en.key.kind !== 'text' || en.key.meaning.kind !== 'field') continue;
      const list = byName.get(en.key.meaning.name) ?? [];
      list.push(en);
      byName.set(en.key.meaning.name, list);
    }
    const tmp = new Map<Entry, string>();
    for (const [name, list] of byName) {
      if (list.length === 1) continue;
      const mods = list.map((en) => (en.key as { meaning: { plus: boolean; colons: number } }).meaning);
      const plain = list.filter((_, i) => !mods[i]!.plus);
      const plus = list.filter((_, i) => mods[i]!.plus);
      const second = list[1]!;
      if (list.length > 2 || plain.length !== 1 || plus.length !== 1) {
        this.fail(
          second.at,
          'YAKL_TWO_KEYS',
          `field ${name} has conflicting keys: one name takes at most two keys, one without + (${name}:, ${name}::) and one plain ${name}+:`,
        );
      }
      const plusMods = (plus[0]!.key as { meaning: { colons: number } }).meaning;
      if (plusMods.colons !== 0) {
        this.fail(
          plus[0]!.at,
          'YAKL_TWO_KEYS',
          `with a ${name} key, the + key must be plain ${name}+: (the field takes the other key's visibility)`,
        );
      }
      const t = this.freshName('f');
      tmp.set(plus[0]!, t);
      tmp.set(plain[0]!, t);
    }
    return tmp;
  }

  private genEntry(
    scope: DocScope,
    en: Entry,
    plusTmp: Map<Entry, string>,
    childMode: (seg: string, forbid?: string) => AnchorMode,
  ): void {
    const valueMode = (seg: string, forbid?: string): AnchorMode =>
      en.copyMode ? en.copyMode : childMode(seg, forbid);
    const value = en.pair.value;
    this.moveTo(en.at);
    if (en.key.kind === 'expr') {
      this.e.write('[');
      this.emitExpression(en.scope, en.key.code, en.key.at, en.key.exact, en.copied);
      this.e.write(']: ');
      this.genNode(en.scope, value, valueMode('', 'under a key expression'));
      this.e.sep();
      return;
    }
    const m = en.key.meaning;
    if (m.kind === 'local') {
      if (m.name.startsWith(RESERVED_PREFIX))
        this.fail(en.at, 'YAKL_RESERVED', `names starting with ${RESERVED_PREFIX} are reserved for yakl`);
      this.e.write(`local ${m.name} = `);
      this.genNode(en.scope, value, valueMode('', "inside a local key's value, since the value isn't in the output"));
      this.e.sep();
      return;
    }
    if (m.kind !== 'field') return;
    const t = plusTmp.get(en);
    if (t && m.plus) {
      this.e.write(`local ${t} = `);
      this.genNode(en.scope, value, valueMode(m.name), { fromEnd: true });
      this.e.sep();
      return;
    }
    this.e.write(`${fieldName(m.name)}${jsonnetSeparator(m)} `);
    const mode = valueMode(m.name);
    this.genNode(en.scope, value, t && mode.mode === 'record' ? { ...mode, laterPlus: true } : mode, {
      fromEnd: m.plus,
    });
    if (t) this.e.write(` + ${t}`);
    this.e.sep();
    void scope;
  }
}

export { YaklError, fieldName };
export type { AnchorInfo, PathSeg };
