/**
 * Runs a ytt YAML template: its code lines and YAML nodes form one Starlark
 * program (blocks closed by `end`); every node placeholder that runs creates
 * the node in the output, with its annotations evaluated in the scope of that
 * moment. A `def` whose body holds YAML nodes is a template function: calling
 * it returns the fragment those nodes build.
 */
import { YttError, type Where } from './errors.js';
import {
  SFloat,
  YArray,
  YArrayItem,
  YDoc,
  YMap,
  YMapItem,
  deepCopy,
  type Annotation,
  type NodeMeta,
  type YValue,
} from './nodes.js';
import type { TemplateFile, TemplateNode } from './parse.js';
import { setCaller } from './starlark/builtins.js';
import { Interp, Scope, type Host } from './starlark/interp.js';
import { tokenize } from './starlark/lexer.js';
import { Parser, type Expr } from './starlark/parser.js';
import { textPieces, textProgram } from './text-template.js';
import { SBuiltin, SDict, SFunction, SList, SStruct, STuple, repr, sType } from './starlark/values.js';

export interface ModuleLoader {
  /** the exported names of module `spec` loaded from file `from` */
  load(spec: string, from: string, where: Where): Map<string, unknown>;
}

type Instance = YDoc | YMapItem | YArrayItem;

interface Fragment {
  root: YMap | YArray | undefined;
  opened: Set<number>;
}

/** Evaluates a template file; returns its output documents and its module globals. */
export function runTemplate(file: TemplateFile, loader: ModuleLoader): { docs: YDoc[]; globals: Map<string, unknown> } {
  const docs: YDoc[] = [];
  const current = new Map<number, Instance>();
  const fragments: Fragment[] = [];
  const host: Host = {
    load: (spec, where) => loader.load(spec, file.path, where),
    node: (id, scope) => emit(file.nodes[id]!, scope),
    beginFragment: () => fragments.push({ root: undefined, opened: new Set() }),
    endFragment: () => fragments.pop()!.root ?? null,
  };
  const interp = new Interp(host);
  setCaller((f, a, k) => interp.call(f, a, k, { file: file.path, line: 0, column: 0 }));

  const evalCode = (text: string, where: Where, scope: Scope): unknown => {
    const expr = parseExpr(text, where);
    return interp.eval(expr, scope);
  };

  const evalAnns = (n: TemplateNode, scope: Scope): Annotation[] =>
    n.anns.map((a) => {
      const ann: Annotation = { name: a.name, args: [], kwargs: [], text: a.text, where: a.where };
      if (a.text !== '') {
        const call = parseExpr(`__ann(${a.text})`, { ...a.where, column: a.where.column + 2 + a.name.length - 6 });
        if (call.k !== 'call') throw new YttError(a.where, `Expected annotation arguments, got '${a.text}'`);
        for (const arg of call.args) {
          const v = interp.eval(arg.value, scope);
          if (arg.name) ann.kwargs.push([arg.name, v]);
          else ann.args.push(v);
        }
      }
      return ann;
    });

  function valueOf(n: TemplateNode, scope: Scope, textTemplated: boolean): YValue {
    if (n.code) {
      if (n.container)
        throw new YttError(n.code.where, 'Expected a node with code to have no YAML value (a map or array was given)');
      return toYaml(evalCode(n.code.text, n.code.where, scope), n.code.where);
    }
    if (n.container === 'map') return new YMap();
    if (n.container === 'array') return new YArray();
    let v = n.scalar ?? null;
    if (typeof v === 'string' && textTemplated) v = textTemplate(v, n.where, scope);
    return v;
  }

  /** #@yaml/text-templated-strings applies to the annotated node and everything below it */
  const templated = (n: TemplateNode): boolean => {
    for (let m: TemplateNode | undefined = n; m; m = m.parent >= 0 ? file.nodes[m.parent] : undefined)
      if (m.anns.some((a) => a.name === 'yaml/text-templated-strings')) return true;
    return false;
  };

  function emit(n: TemplateNode, scope: Scope): void {
    const anns = evalAnns(n, scope);
    const textTemplated = templated(n);
    const meta: NodeMeta = {
      anns: anns.filter((a) => a.name !== 'yaml/text-templated-strings'),
      comments: n.comments,
      where: n.where,
      blankBefore: n.blankBefore,
    };
    const value = valueOf(n, scope, textTemplated);
    const frag = fragments.at(-1);
    if (n.kind === 'doc') {
      if (frag) throw new YttError(n.where, 'Expected a template function to return map or array items, not documents');
      const d = new YDoc(value, meta);
      docs.push(d);
      current.set(n.id, d);
      return;
    }
    let key = n.key ?? null;
    if (n.kind === 'mapitem' && typeof key === 'string' && textTemplated) key = textTemplate(key, n.where, scope);
    const inst = n.kind === 'mapitem' ? new YMapItem(key, value, meta) : new YArrayItem(value, meta);
    let container: YValue;
    if (frag && !frag.opened.has(n.parent)) {
      if (!frag.root) frag.root = n.kind === 'mapitem' ? new YMap() : new YArray();
      container = frag.root;
    } else {
      const parent = current.get(n.parent);
      if (!parent)
        throw new YttError(
          n.where,
          'Expected the enclosing YAML node to have been created (a for/if block around a parent node?)',
        );
      container = parent.value;
    }
    if (frag) frag.opened.add(n.id);
    if (n.kind === 'mapitem') {
      if (!(container instanceof YMap))
        throw new YttError(
          n.where,
          `Expected a map to add a map item to, but was ${container instanceof YArray ? 'array' : 'scalar'}`,
        );
      if (container.get(key)) throw new YttError(n.where, `Found duplicate key ${repr(key)} in map`);
      container.items.push(inst as YMapItem);
    } else {
      if (!(container instanceof YArray))
        throw new YttError(
          n.where,
          `Expected an array to add an array item to, but was ${container instanceof YMap ? 'map' : 'scalar'}`,
        );
      container.items.push(inst);
    }
    current.set(n.id, inst);
  }

  function textTemplate(s: string, where: Where, scope: Scope): string {
    if (!s.includes('(@')) return s;
    const pieces = textPieces(s, where);
    let out = '';
    const vars = new Map<string, unknown>([
      [
        '__ytt_tt_text',
        new SBuiltin('__ytt_tt_text', (args) => {
          out += (pieces[args[0] as number] as { text: string }).text;
          return null;
        }),
      ],
      [
        '__ytt_tt_emit',
        new SBuiltin('__ytt_tt_emit', (args, _kw, w) => {
          const v = args[0];
          if (typeof v !== 'string')
            throw new YttError(
              w,
              `cannot set non-string value (${sType(v)}), consider using str(...) to convert to string`,
            );
          out += v;
          return null;
        }),
      ],
    ]);
    const program = textProgram(pieces, where, '__ytt_tt_emit', '__ytt_tt_text');
    interp.exec(new Parser(tokenize(program, false), true).parseFile(), new Scope(vars, scope, false));
    return out;
  }

  const toks = tokenize(file.program, false);
  const stmts = new Parser(toks, true).parseFile();
  const globals = new Map<string, unknown>();
  interp.exec(stmts, new Scope(globals, undefined, true));
  return { docs, globals };
}

function parseExpr(text: string, where: Where): Expr {
  const toks = tokenize([{ text, file: where.file, line: where.line, column: where.column }], false);
  const p = new Parser(toks, true);
  const e = p.exprList();
  const rest = toks.find(
    (t, i) => i > 0 && t.kind !== 'newline' && t.kind !== 'eof' && toks.indexOf(t) >= (p as unknown as { p: number }).p,
  );
  if (rest) throw new YttError(rest.where, `syntax error: unexpected '${rest.text}'`);
  return e;
}

/** A Starlark value as YAML: dicts and structs become maps, lists and tuples arrays, fragments are copied. */
export function toYaml(v: unknown, where: Where): YValue {
  if (
    v === null ||
    v === undefined ||
    typeof v === 'boolean' ||
    typeof v === 'number' ||
    typeof v === 'string' ||
    v instanceof SFloat
  )
    return v ?? null;
  if (v instanceof YMap || v instanceof YArray) return deepCopy(v);
  const meta = (): NodeMeta => ({ anns: [], comments: [], where });
  if (v instanceof SList || v instanceof STuple)
    return new YArray(v.items.map((x) => new YArrayItem(toYaml(x, where), meta())));
  if (v instanceof SDict)
    return new YMap(
      v.entries().map(([k, x]) => {
        if (
          k !== null &&
          typeof k !== 'string' &&
          typeof k !== 'number' &&
          typeof k !== 'boolean' &&
          !(k instanceof SFloat)
        )
          throw new YttError(where, `Expected map key to be a scalar, but was ${sType(k)}`);
        return new YMapItem(k, toYaml(x, where), meta());
      }),
    );
  if (v instanceof SStruct) return new YMap([...v.fields].map(([k, x]) => new YMapItem(k, toYaml(x, where), meta())));
  if (v instanceof SFunction || v instanceof SBuiltin)
    throw new YttError(where, `Unable to convert value: ${sType(v)} ${repr(v)}`);
  throw new YttError(where, `Unable to convert value of type ${sType(v)}`);
}
