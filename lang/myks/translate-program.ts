/**
 * A ytt template's code lines read as the statements the converter can
 * translate: `load()`, top-level assignments (possibly spanning lines), `for`
 * loops whose body only appends to lists, `for` loops wrapping YAML nodes,
 * and `def`s whose body is a single `return`. Anything else (an `if` block, a
 * loop doing something else, a def with a YAML body, a list mutated outside a
 * loop) is kept as `other`, with the names it binds or mutates, so what reads
 * them is not translated. ytt closes blocks with `end`; a `.star` file closes
 * them the same way.
 */
import type { SourceLine } from '../ytt/starlark/lexer.js';

/** A comprehension clause: `for v in iter` or `if cond`. */
export type Clause = { v: string; iter: string } | { cond: string };

/** The variables the clauses bind. */
export const clauseVars = (cs: readonly Clause[]): string[] => cs.flatMap((c) => ('v' in c ? [c.v] : []));

export type Stmt =
  | { k: 'load'; module: string; names: { local: string; exported: string }[] }
  | { k: 'assign'; name: string; expr: string; first: number; last: number; lines: number[] }
  | {
      k: 'append';
      /** the `for` (and `if`) blocks around the appends, outermost first */
      clauses: Clause[];
      appends: { target: string; expr: string }[];
      first: number;
      last: number;
    }
  /** `for` (and `if`) blocks around YAML nodes only, outermost first */
  | {
      k: 'loop';
      clauses: Clause[];
      nodes: number[];
      nested?: Extract<Stmt, { k: 'loop' }>[];
      /** an `if`/`elif`/`else` block around YAML nodes: the nodes of each branch (`cond` undefined: `else`) */
      branches?: { cond?: string; nodes: number[] }[];
    }
  | { k: 'def'; name: string; params: string; expr: string }
  | { k: 'other'; names: string[]; text: string; nodes: number[]; first: number; last: number };

/** Bracket depth change of a Starlark line, strings and comments skipped. */
function depthOf(text: string): number {
  let d = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '#') break;
    else if ('([{'.includes(c)) d++;
    else if (')]}'.includes(c)) d--;
  }
  return d;
}

/** Names a statement binds or mutates (`x = `, `x += `, `x.append(`, `x[k] = `). */
function boundNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?:^|\n)\s*([A-Za-z_]\w*)\s*(?:[+\-*/|]?=(?!=)|\[[^\]]*\]\s*=(?!=)|\.(?:append|extend|insert|update|pop|remove|clear|setdefault)\()/g,
  ))
    out.push(m[1]!);
  for (const m of text.matchAll(/\bfor\s+([A-Za-z_]\w*)(?:\s*,\s*([A-Za-z_]\w*))?\s+in\b/g)) {
    out.push(m[1]!);
    if (m[2]) out.push(m[2]);
  }
  const def = /^\s*def\s+([A-Za-z_]\w*)/.exec(text);
  if (def) out.push(def[1]!);
  return out;
}

interface Line {
  text: string;
  line: number;
  node?: number;
  /** the source line of each line of text (a statement spanning lines) */
  lines: number[];
}

const OPENS = /^(for|if|def|while)\b[\s\S]*:$/;

/** The statements of a template's program (`#@` lines and node placeholders, in source order). */
export function readProgram(program: readonly SourceLine[]): Stmt[] {
  // statements spanning lines (an open bracket) become one line
  const lines: Line[] = [];
  for (let i = 0; i < program.length; i++) {
    const l = program[i]!;
    if (l.node !== undefined) {
      lines.push({ text: '', line: l.line, node: l.node, lines: [l.line] });
      continue;
    }
    if (l.text.trim() === '') continue;
    let text = l.text.replace(/^\s+/, '');
    let depth = depthOf(text);
    const nos = [l.line];
    while (depth > 0 && i + 1 < program.length && program[i + 1]!.node === undefined) {
      i++;
      const next = program[i]!.text;
      // keep the continuation's indentation relative to the statement's
      text += '\n' + next.replace(/^ /, '');
      nos.push(program[i]!.line);
      depth += depthOf(next);
    }
    lines.push({ text: text.trimEnd(), line: l.line, lines: nos });
  }
  const out: Stmt[] = [];
  const lineEnd = (l: Line): number => l.lines[l.lines.length - 1]!;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.node !== undefined) continue;
    const t = l.text;
    const load = /^load\(\s*("[^"]*"|'[^']*')\s*((?:,\s*(?:[A-Za-z_]\w*\s*=\s*)?(?:"[^"]*"|'[^']*')\s*)*)\)$/.exec(t);
    if (load) {
      const names = [...load[2]!.matchAll(/(?:([A-Za-z_]\w*)\s*=\s*)?("[^"]*"|'[^']*')/g)].map((m) => {
        const exported = m[2]!.slice(1, -1);
        return { local: m[1] ?? exported, exported };
      });
      out.push({ k: 'load', module: load[1]!.slice(1, -1), names });
      continue;
    }
    if (OPENS.test(t)) {
      // the block to its matching `end` (an unclosed one runs to the last line, which it leaves out)
      const end = closingEnd(lines, i);
      const j = end === -1 ? lines.length : end + 1;
      const body = lines.slice(i + 1, j - 1);
      out.push(block(l, body, lineEnd(lines[j - 1] ?? l)));
      i = j - 1;
      continue;
    }
    const assign = /^([A-Za-z_]\w*)\s*=(?!=)\s*([\s\S]+)$/.exec(t);
    if (assign)
      out.push({ k: 'assign', name: assign[1]!, expr: assign[2]!, first: l.line, last: lineEnd(l), lines: l.lines });
    else out.push({ k: 'other', names: boundNames(t), text: t, nodes: [], first: l.line, last: lineEnd(l) });
  }
  return out;
}

/**
 * A `for` block and the blocks nested in it as one clause chain: while the
 * body is exactly one `for` or `if` block, that block is a further clause.
 */
/** The index of the `end` line that closes the block opened at `open` (an OPENS line), or -1 if the lines run out first. */
function closingEnd(lines: readonly Line[], open: number): number {
  let depth = 0;
  for (let j = open; j < lines.length; j++) {
    const x = lines[j]!;
    if (x.node !== undefined) continue;
    if (OPENS.test(x.text)) depth++;
    else if (/^end$/.test(x.text) && --depth === 0) return j;
  }
  return -1;
}

function chain(head: Line, body: Line[]): { clauses: Clause[]; inner: Line[] } | undefined {
  const forHead = /^for\s+([A-Za-z_]\w*)\s+in\s+([\s\S]+):$/.exec(head.text);
  const ifHead = /^if\s+([\s\S]+):$/.exec(head.text);
  if (!forHead && !ifHead) return undefined;
  const clauses: Clause[] = [forHead ? { v: forHead[1]!, iter: forHead[2]! } : { cond: ifHead![1]! }];
  let inner = body;
  for (;;) {
    const first = inner[0];
    if (!first || first.node !== undefined || !OPENS.test(first.text)) break;
    if (closingEnd(inner, 0) !== inner.length - 1) break;
    const f = /^for\s+([A-Za-z_]\w*)\s+in\s+([\s\S]+):$/.exec(first.text);
    const i = /^if\s+([\s\S]+):$/.exec(first.text);
    if (f) clauses.push({ v: f[1]!, iter: f[2]! });
    else if (i) clauses.push({ cond: i[1]! });
    else break;
    inner = inner.slice(1, -1);
  }
  return { clauses, inner };
}

/** `if c:` nodes `elif d:` nodes `else:` nodes: the branches, when nothing else is in the block. */
function ifElse(head: Line, body: readonly Line[]): { cond?: string; nodes: number[] }[] | undefined {
  const first = /^if\s+([\s\S]+):$/.exec(head.text);
  if (!first || !body.some((l) => l.node === undefined)) return undefined;
  const out: { cond?: string; nodes: number[] }[] = [{ cond: first[1]!, nodes: [] }];
  for (const l of body) {
    if (l.node !== undefined) {
      out[out.length - 1]!.nodes.push(l.node);
      continue;
    }
    const elif = /^elif\s+([\s\S]+):$/.exec(l.text);
    if (elif && out[out.length - 1]!.cond !== undefined) out.push({ cond: elif[1]!, nodes: [] });
    else if (/^else\s*:$/.test(l.text) && out[out.length - 1]!.cond !== undefined) out.push({ nodes: [] });
    else return undefined;
  }
  return out;
}

/** The blocks among YAML nodes, when each is a loop of nodes; undefined otherwise. */
function nestedLoops(lines: readonly Line[]): Extract<Stmt, { k: 'loop' }>[] | undefined {
  const out: Extract<Stmt, { k: 'loop' }>[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.node !== undefined) continue;
    if (!OPENS.test(l.text)) return undefined;
    const end = closingEnd(lines, i);
    if (end === -1) return undefined;
    const j = end + 1;
    const sub = block(l, lines.slice(i + 1, j - 1), l.line);
    if (sub.k !== 'loop') return undefined;
    out.push(sub);
    i = j - 1;
  }
  return out;
}

function block(head: Line, body: Line[], last: number): Stmt {
  const code = body.filter((b) => b.node === undefined);
  const nodes = body.filter((b) => b.node !== undefined).map((b) => b.node!);
  const ch = chain(head, body);
  if (ch && nodes.length > 0 && ch.inner.every((x) => x.node !== undefined))
    return { k: 'loop', clauses: ch.clauses, nodes };
  const branches = ifElse(head, body);
  if (branches) return { k: 'loop', clauses: [], nodes, branches };
  // loops inside the items the loop yields (a sequence inside an item, looped over too)
  const nested = ch && nodes.length > 0 ? nestedLoops(ch.inner) : undefined;
  if (ch && nested) return { k: 'loop', clauses: ch.clauses, nodes, nested };
  if (ch && 'v' in ch.clauses[0]! && nodes.length === 0 && ch.inner.length > 0) {
    const appends = ch.inner.map((c) => {
      const m = /^([A-Za-z_]\w*)\.append\(([\s\S]+)\)$/.exec(c.text);
      return m && depthOf(m[2]!) === 0 ? { target: m[1]!, expr: m[2]! } : undefined;
    });
    const targets = appends.map((a) => a?.target);
    // each list appended once, and nothing in the loop reading a list it builds
    const reads = [...ch.clauses.map((c) => ('v' in c ? c.iter : c.cond)), ...appends.map((a) => a?.expr ?? '')].join(
      '\n',
    );
    if (
      appends.every((a) => a !== undefined) &&
      new Set(targets).size === targets.length &&
      !targets.some((x) => new RegExp(`(?<![\\w.])${x}(?!\\w)`).test(reads))
    )
      return {
        k: 'append',
        clauses: ch.clauses,
        appends: appends as { target: string; expr: string }[],
        first: head.line,
        last,
      };
  }
  const def = /^def\s+([A-Za-z_]\w*)\(([^)]*)\):$/.exec(head.text);
  if (def && nodes.length === 0 && code.length === 1) {
    const ret = /^return\s+([\s\S]+)$/.exec(code[0]!.text);
    if (ret) return { k: 'def', name: def[1]!, params: def[2]!, expr: ret[1]! };
  }
  const names = [head, ...code].flatMap((x) => boundNames(x.text));
  return { k: 'other', names, text: [head, ...code].map((x) => x.text).join('\n'), nodes, first: head.line, last };
}

/** A `.star` file's program: all of it is code (ytt's Starlark closes blocks with `end` there too). */
export function starProgram(text: string, file: string): SourceLine[] {
  return text
    .split('\n')
    .map((t, i) => ({ text: t, file, line: i + 1, column: 1 }))
    .filter((l) => l.text.trim() !== '' && !l.text.trim().startsWith('#'));
}
