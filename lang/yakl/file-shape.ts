/**
 * The file level: classifies documents (documents of file locals, a first
 * document naming the file's parent with `<<+`, named documents, unnamed
 * ones) and assembles the file's shape. Without names the file is one
 * document, a list, or null (std.parseYaml's rules, with documents of locals
 * set aside); with a name or a parent it is one object whose fields are the
 * named documents, with the others appended to `unnamed+:` in file order.
 */
import { type Document, type Node as YNode, type Pair, isMap, isScalar } from 'yaml';
import { lex as lexJsonnet } from '../jsonnet/lexer.js';
import { SourceFile } from '../common/source.js';
import { type DocScope, type Entry, Generator, type YamlUnit, fieldName } from './generator.js';
import { type Modifiers, RESERVED_PREFIX, jsonnetSeparator } from './keys.js';

export type FileShape = 'object' | 'list' | 'document' | 'null';

interface DocInfo {
  scope: DocScope;
  root: unknown;
  index: number;
  kind: 'locals' | 'parent' | 'named' | 'unnamed';
  name?: string;
  mods?: Modifiers;
  at: number;
  explicitStart: boolean;
}

export function generateFile(g: Generator, unit: YamlUnit): FileShape {
  const infos = unit.docs.map((doc, index) => classify(g, unit, doc, index));
  const fileLocals = new Map<string, number>();
  for (const d of infos) {
    if (d.kind !== 'locals' && d.kind !== 'parent') continue;
    for (const pair of (d.root as { items: Pair[] }).items) {
      const k = g.keyInfo(d.scope, pair);
      if (k.kind === 'text' && k.meaning.kind === 'local') {
        if (fileLocals.has(k.meaning.name))
          g.fail(
            k.at,
            'YAKL_DUPLICATE_LOCAL',
            `file local ${k.meaning.name} is declared twice; file locals must all differ`,
          );
        fileLocals.set(k.meaning.name, k.at);
      }
    }
  }
  const isObject = infos.some((d) => d.kind === 'named' || d.kind === 'parent');
  if (isObject) {
    generateObjectFile(g, infos);
    return 'object';
  }
  return generateListFile(g, infos);
}

function classify(g: Generator, unit: YamlUnit, doc: Document.Parsed, index: number): DocInfo {
  const scope: DocScope = { unit, doc, anchors: new Map() };
  const root = doc.contents as unknown;
  const at = g.nodeAt(scope, (root as YNode | null) ?? null);
  const explicitStart = Boolean((doc as unknown as { directives?: { docStart?: unknown } }).directives?.docStart);
  const info: DocInfo = { scope, root, index, kind: 'unnamed', at, explicitStart };
  if (!isMap(root)) return info;
  let names = 0;
  let locals = 0;
  let extend = 0;
  for (const pair of root.items) {
    const k = g.keyInfo(scope, pair);
    if (k.kind !== 'text') continue;
    if (k.meaning.kind === 'local') locals++;
    if (k.meaning.kind === 'extend') extend++;
    if (k.meaning.kind === 'name') {
      if (++names > 1) g.fail(k.at, 'YAKL_NAME_TWICE', 'a document has one ^^ key at most');
      info.kind = 'named';
      info.mods = { plus: k.meaning.plus, colons: k.meaning.colons };
      info.name = nameValue(g, scope, pair, k.at);
    }
  }
  const n = root.items.length;
  if (names === 0 && n > 0 && locals === n) {
    if (root.anchor)
      g.fail(
        at,
        'YAKL_ANCHOR_PLACE',
        `anchor &${root.anchor} is not allowed on a document of local keys, which isn't output`,
      );
    info.kind = 'locals';
  } else if (names === 0 && index === 0 && extend === 1 && locals + extend === n && unit.docs.length > 1) {
    info.kind = 'parent';
  }
  return info;
}

function nameValue(g: Generator, scope: DocScope, pair: Pair, keyAt: number): string {
  const v = pair.value as YNode | null;
  const at = v ? g.nodeAt(scope, v) : keyAt;
  if (!isScalar(v) || v.value === null || v.value === undefined) g.fail(at, 'YAKL_NAME', '^^ needs a name: ^^: web');
  if (g.scalarExpression(scope, v))
    g.fail(
      at,
      'YAKL_NAME',
      "a document name is text, never an expression, so the file's shape is known without evaluating it",
    );
  if (typeof v.value !== 'string') {
    g.fail(at, 'YAKL_NAME', `a name that isn't a string must be quoted: ^^: '${String(v.source ?? v.value)}'`);
  }
  const name = v.value;
  const m = /^(.*?)(\+?:*)$/.exec(name)!;
  if (m[2] !== '' && m[1] !== '') {
    g.fail(at, 'YAKL_NAME', `^^: ${name} is an error: the + and colons go on the key, as in ^^${m[2]}: ${m[1]}`);
  }
  if (name === 'unnamed') g.fail(at, 'YAKL_NAME', 'unnamed is reserved: it holds the documents without a name');
  if (name === '') g.fail(at, 'YAKL_NAME', '^^ needs a name: ^^: web');
  return name;
}

function rootPairs(d: DocInfo): Pair[] {
  return (d.root as { items: Pair[] }).items;
}

function generateFileLocals(g: Generator, d: DocInfo, sep: string, checkDollar: boolean): void {
  const prev = g.hooks.onExpression;
  if (checkDollar) {
    g.hooks.onExpression = (code, at) => {
      if (usesDollar(code)) {
        g.fail(
          at,
          'YAKL_DOLLAR_IN_FILE_LOCAL',
          'a file without names has no file object, so $ in a file local means nothing; name a document (^^: x) to make $ the file',
        );
      }
      prev?.(code, at);
    };
  }
  try {
    for (const pair of rootPairs(d)) {
      const k = g.keyInfo(d.scope, pair);
      if (k.kind !== 'text' || k.meaning.kind !== 'local') continue;
      const name = k.meaning.name;
      const v = pair.value as YNode | null;
      if (v === null || v === undefined || (isScalar(v) && v.value === null && v.source === '')) {
        g.fail(k.at, 'YAKL_LOCAL_NO_VALUE', `'&${name}': needs a value; write null for a local holding null`);
      }
      if (name.startsWith(RESERVED_PREFIX))
        g.fail(k.at, 'YAKL_RESERVED', `names starting with ${RESERVED_PREFIX} are reserved for yakl`);
      g.moveTo(k.at);
      g.e.write(`${name} = `);
      g.genNode(d.scope, v, { mode: 'forbid', why: "inside a local key's value, since the value isn't in the output" });
      g.e.write(sep);
    }
  } finally {
    g.hooks.onExpression = prev;
  }
}

function usesDollar(code: string): boolean {
  try {
    return lexJsonnet(new SourceFile('<expr>', code)).some((t) => t.kind === '$');
  } catch {
    return false;
  }
}

function generateObjectFile(g: Generator, infos: DocInfo[]): void {
  const parent = infos.find((d) => d.kind === 'parent');
  if (parent) {
    const ext = rootPairs(parent).find((p) => {
      const k = g.keyInfo(parent.scope, p);
      return k.kind === 'text' && k.meaning.kind === 'extend';
    })!;
    g.moveTo(parent.at);
    g.genExtend(parent.scope, ext, { mode: 'forbid', why: 'on the value of <<+' });
  }
  g.e.open('{');
  // The two-key rule across documents: ^^: web with ^^+: web is web: A + B.
  const named = infos.filter((d) => d.kind === 'named');
  const asEntries = new Map<DocInfo, Entry>();
  for (const d of named) {
    asEntries.set(d, {
      pair: null as unknown as Pair,
      key: {
        kind: 'text',
        text: d.name!,
        meaning: { kind: 'field', name: d.name!, plus: d.mods!.plus, colons: d.mods!.colons },
      },
      at: d.at,
      copied: false,
      scope: d.scope,
    });
  }
  const tmp = g.pairFields([...asEntries.values()]);
  // The plain half of a pair is an object local, so both halves' anchors can read the combined field.
  const plainOfPair = new Map<string, string>();
  for (const d of named) {
    const t = tmp.get(asEntries.get(d)!);
    if (t && !d.mods!.plus) plainOfPair.set(t, `yakl__d${d.index + 1}`);
  }
  const unnamed: string[] = [];
  for (const d of infos) {
    if (d.kind === 'locals' || d.kind === 'parent') {
      for (const pair of rootPairs(d)) {
        const k = g.keyInfo(d.scope, pair);
        if (k.kind !== 'text' || k.meaning.kind !== 'local') continue;
        g.moveTo(k.at);
        g.e.write('local ');
        generateOneLocal(g, d, pair, k.meaning.name, k.at);
        g.e.sep();
      }
      continue;
    }
    g.moveTo(d.at);
    if (d.kind === 'named') {
      // A comment above the document's name key goes above the document's field.
      const nameKey = rootPairs(d).find((p) => isScalar(p.key) && /^\^\^/.test(String(p.key.value)))?.key;
      g.e.comment(
        (d.scope.doc.commentBefore ?? '') + (isScalar(nameKey) && nameKey.commentBefore ? nameKey.commentBefore : '') ||
          null,
        false,
      );
      const en = asEntries.get(d)!;
      const t = tmp.get(en);
      if (t === undefined) {
        g.e.write(`${fieldName(d.name!)}${jsonnetSeparator(d.mods!)} `);
        g.genRootValue(d.scope, d.root, false, true);
        g.e.sep();
        continue;
      }
      // ^^: x with ^^+: x is x: A + B, and anchors in either read A + B, as with two keys in a mapping.
      const plain = plainOfPair.get(t)!;
      const combined = `(${plain} + ${t})`;
      g.e.write(`local ${d.mods!.plus ? t : plain} = `);
      g.genRootValue(d.scope, d.root, false, true, { combined, laterPlus: !d.mods!.plus });
      g.e.sep();
      if (!d.mods!.plus) {
        g.e.flat(() => {
          g.e.write(`${fieldName(d.name!)}${jsonnetSeparator(d.mods!)} ${plain} + ${t}`);
          g.e.sep();
        });
      }
      continue;
    }
    const local = `yakl__unnamed${d.index + 1}`;
    unnamed.push(local);
    g.e.write(`local ${local} = `);
    g.genRootValue(d.scope, d.root, false, true);
    g.e.sep();
  }
  g.e.flat(() => {
    if (unnamed.length > 0) {
      g.e.write(`unnamed+: [${unnamed.join(', ')}]`);
      g.e.sep();
    }
    g.e.close('}');
  });
}

function generateOneLocal(g: Generator, d: DocInfo, pair: Pair, name: string, at: number): void {
  const v = pair.value as YNode | null;
  if (v === null || v === undefined || (isScalar(v) && v.value === null && v.source === '')) {
    g.fail(at, 'YAKL_LOCAL_NO_VALUE', `'&${name}': needs a value; write null for a local holding null`);
  }
  g.e.write(`${name} = `);
  g.genNode(d.scope, v, { mode: 'forbid', why: "inside a local key's value, since the value isn't in the output" });
}

function generateListFile(g: Generator, infos: DocInfo[]): FileShape {
  const locals = infos.filter((d) => d.kind === 'locals');
  const docs = infos.filter((d) => d.kind !== 'locals');
  if (locals.length > 0) {
    const firstDoc = docs[0]?.index ?? Infinity;
    g.moveTo(locals[0]!.index < firstDoc ? locals[0]!.at : 0);
    g.e.write('local ');
    let first = true;
    for (const d of locals) {
      const write = (): void => {
        if (!first) g.e.write(', ');
        first = false;
        // Pairs are written as `name = value` separated by commas, the last without one.
        const pairs = rootPairs(d);
        pairs.forEach((pair, i) => {
          const k = g.keyInfo(d.scope, pair);
          if (k.kind !== 'text' || k.meaning.kind !== 'local') return;
          generateFileLocals(g, { ...d, root: { items: [pair] } }, i === pairs.length - 1 ? '' : ', ', true);
        });
      };
      if (d.index < firstDoc) write();
      else g.e.flat(write);
    }
    g.e.write('; ');
  }
  // std.parseYaml's rule: a leading --- makes a list, even of one document.
  const single = docs.length === 1 && !(docs[0]!.explicitStart && docs[0]!.index === 0);
  if (docs.length === 0) {
    g.e.write(locals.length > 0 ? '[]' : 'null');
    return locals.length > 0 ? 'list' : 'null';
  }
  if (single) {
    g.genRootValue(docs[0]!.scope, docs[0]!.root, true, true);
    return 'document';
  }
  g.moveTo(docs[0]!.at);
  g.e.open('[');
  for (const d of docs) {
    g.genRootValue(d.scope, d.root, true, true);
    g.e.sep();
  }
  g.e.close(']');
  return 'list';
}
