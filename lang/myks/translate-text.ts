/**
 * A ytt text template (`#@yaml/text-templated-strings`) as a KCL string
 * interpolating the same expressions: `a (@= x @) b` → `"a ${_x} b"`. Its
 * `(@ code @)` blocks become expressions interpolated the same way: an
 * `if`/`elif`/`else` block a conditional expression (`"https" if _tls else
 * "http"`), a `for` block a join over a comprehension (`"".join(["- " + h +
 * "\n" for h in _hosts])`), the text and printed values inside them
 * concatenated. An assignment binds its name, for the pieces after it in its
 * block, to its expression. ytt's `(@-`/`-@)` trims are applied before
 * translating. Any other code (a `def`) has no translation: undefined.
 */
import { textPieces, type TextPiece } from '../ytt/index.js';
import { kclString } from './kcl-write.js';
import { oneGroup, toKclExpr } from './translate-expr.js';

type Seg =
  | { text: string }
  | { expr: string }
  | { branches: { cond: string; body: Seg[] }[]; otherwise: Seg[] }
  | { v: string; iter: string; body: Seg[] };

type Refs = ReadonlyMap<string, string>;

/** The pieces as a tree of blocks, translated; undefined where a piece has no translation. */
function segments(pieces: readonly TextPiece[], sc: Refs, bound: ReadonlySet<string>): Seg[] | undefined {
  let i = 0;
  const seq = (outerBound: ReadonlySet<string>, stops: RegExp, outerRefs: Refs): Seg[] | undefined => {
    const out: Seg[] = [];
    // an assignment (`(@ n = len(hosts) @)`) binds its name for the pieces after it, as its expression
    let b = outerBound;
    let r = outerRefs;
    while (i < pieces.length) {
      const p = pieces[i]!;
      if ('text' in p) {
        if (p.text !== '') out.push({ text: p.text });
        i++;
        continue;
      }
      const code = p.code.trim();
      if (p.print) {
        const e = toKclExpr(code, r, b);
        if (e === undefined || e.includes('\n')) return undefined;
        out.push({ expr: e });
        i++;
        continue;
      }
      if (stops.test(code)) return out;
      i++;
      const asg = /^([A-Za-z_]\w*)\s*=(?!=)\s*([\s\S]+)$/.exec(code);
      if (asg) {
        const e = toKclExpr(asg[2]!, r, b);
        if (e === undefined || e.includes('\n')) return undefined;
        r = new Map(r).set(asg[1]!, paren(e));
        b = new Set([...b].filter((x) => x !== asg[1]));
        continue;
      }
      const ifHead = /^if\s+([\s\S]+):$/.exec(code);
      const forHead = /^for\s+([A-Za-z_]\w*)\s+in\s+([\s\S]+):$/.exec(code);
      if (ifHead) {
        const branches: { cond: string; body: Seg[] }[] = [];
        let cond: string | undefined = ifHead[1]!;
        let otherwise: Seg[] = [];
        for (;;) {
          const c = toKclExpr(cond, r, b);
          const body = seq(b, /^(elif\s[\s\S]*|else\s*|end)$|^else\s*:$/, r);
          if (c === undefined || body === undefined || i >= pieces.length) return undefined;
          branches.push({ cond: c, body });
          const stop = (pieces[i++] as { code: string }).code.trim();
          const elif = /^elif\s+([\s\S]+):$/.exec(stop);
          if (elif) {
            cond = elif[1]!;
            continue;
          }
          if (/^else\s*:$/.test(stop)) {
            const rest = seq(b, /^end$/, r);
            if (rest === undefined || i >= pieces.length) return undefined;
            i++;
            otherwise = rest;
          } else if (stop !== 'end') return undefined;
          break;
        }
        out.push({ branches, otherwise });
      } else if (forHead) {
        const iter = toKclExpr(forHead[2]!, r, b);
        const inner = new Set([...b, forHead[1]!]);
        const body = seq(inner, /^end$/, r);
        if (iter === undefined || body === undefined || i >= pieces.length) return undefined;
        i++;
        out.push({ v: forHead[1]!, iter, body });
      } else return undefined;
    }
    return out;
  };
  const all = seq(bound, /^$/, sc);
  return all && i === pieces.length ? all : undefined;
}

/** A block's value as a KCL expression (text and printed values concatenated). */
function blockExpr(s: Exclude<Seg, { text: string } | { expr: string }>): string {
  if ('v' in s) return `"".join([${concat(s.body)} for ${s.v} in ${s.iter}])`;
  const tail = concat(s.otherwise);
  return `(${s.branches.map((b) => `${concat(b.body)} if ${b.cond} else `).join('')}${tail})`;
}

function concat(segs: readonly Seg[]): string {
  if (segs.length === 0) return '""';
  const parts = segs.map((s) => ('text' in s ? kclString(s.text) : 'expr' in s ? paren(s.expr) : blockExpr(s)));
  return parts.join(' + ');
}

/** An operand of `+` that binds looser than `+` is parenthesized. */
function paren(e: string): string {
  return /^[\w.]+(\([^()]*\))?$|^"[^"]*"$/.test(e) || (e.startsWith('(') && e.endsWith(')') && oneGroup(e))
    ? e
    : `(${e})`;
}

/**
 * `a (@= x @) b` → `"a ${_x} b"`; a `"""` string when it spans lines (`"""\` first) or when an
 * interpolated expression holds a string literal (KCL reads `"${f("x")}"` as two strings).
 * Undefined for code with no translation.
 */
export function templateExpr(s: string, sc: Refs, bound: ReadonlySet<string>): string | undefined {
  let pieces: TextPiece[];
  try {
    pieces = textPieces(s, { file: '', line: 0, column: 0 });
  } catch {
    return undefined;
  }
  const segs = segments(pieces, sc, bound);
  if (!segs) return undefined;
  const parts = segs.map((p) => ('text' in p ? p.text : { e: 'expr' in p ? p.expr : blockExpr(p) }));
  const multi = parts.some((p) => typeof p === 'string' && p.includes('\n'));
  const triple = multi || parts.some((p) => typeof p !== 'string' && p.e.includes('"'));
  const lit = (x: string): string =>
    triple
      ? x
          .replace(/\\/g, '\\\\')
          .replace(/"(?="")/g, '\\"')
          .replace(/\$/g, '\\$')
      : kclString(x).slice(1, -1);
  let out = parts.map((p) => (typeof p === 'string' ? lit(p) : '${' + p.e + '}')).join('');
  // a quote next to the closing `"""` would end the string early
  if (triple && out.endsWith('"') && !out.endsWith('\\"')) out = `${out.slice(0, -1)}\\"`;
  if (!triple) return `"${out}"`;
  return multi ? `"""\\\n${out}"""` : `"""${out}"""`;
}
