/**
 * Line diff and hunk layout reproducing what kubecfg prints (it uses
 * hexops/gotextdiff: a Myers diff over lines, hunks with 3 lines of context,
 * hunks closer than 6 lines joined). Reproduced quirks, on purpose: edits are
 * stably sorted by (start, end) so an insertion can precede a deletion at
 * the same line, and a joined hunk does not advance the "to" line counter by
 * its context lines, so later hunk headers carry the same numbers kubecfg
 * prints. Invariants: pure; lines keep their trailing "\n" (the last line of
 * a JSON text has none).
 */

export type LineKind = 'delete' | 'insert' | 'equal';

export interface DiffLine {
  readonly kind: LineKind;
  readonly content: string;
}

export interface Hunk {
  readonly fromLine: number;
  readonly toLine: number;
  readonly lines: DiffLine[];
}

export interface LineEdit {
  /** 0-based half-open range of "before" lines replaced. */
  readonly start: number;
  readonly end: number;
  readonly insert: readonly string[];
}

const EDGE = 3;
const GAP = EDGE * 2;

export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
    lines.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** Hunks turning `before` into `after`; empty when the texts are equal. */
export function unifiedHunks(before: string, after: string): Hunk[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const edits = myersEdits(a, b);
  return toHunks(a, edits);
}

/** The line edits (sorted as the reference sorts them) turning a into b; exported for tests. */
export function myersEdits(a: readonly string[], b: readonly string[]): LineEdit[] {
  const M = a.length;
  const N = b.length;
  if (M === 0 && N === 0) return [];
  const offset = M + N;
  const V = new Array<number>(2 * (M + N) + 1).fill(0);
  const trace: number[][] = [];
  search: for (let d = 0; d <= M + N; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && V[k - 1 + offset]! < V[k + 1 + offset]!) ? V[k + 1 + offset]! : V[k - 1 + offset]! + 1;
      let y = x - k;
      while (x < M && y < N && a[x] === b[y]) {
        x++;
        y++;
      }
      V[k + offset] = x;
      if (x === M && y === N) {
        trace.push([...V]);
        break search;
      }
    }
    trace.push([...V]);
  }

  // Walk back to the snake end points, one per step d.
  const snakes: Array<[number, number] | undefined> = new Array(trace.length);
  let x = M;
  let y = N;
  let d = trace.length - 1;
  for (; x > 0 && y > 0 && d > 0; d--) {
    const Vd = trace[d]!;
    snakes[d] = [x, y];
    const k = x - y;
    const kPrev = k === -d || (k !== d && Vd[k - 1 + offset]! < Vd[k + 1 + offset]!) ? k + 1 : k - 1;
    x = Vd[kPrev + offset]!;
    y = x - kPrev;
  }
  if (x >= 0 && y >= 0) snakes[d] = [x, y];

  const edits: LineEdit[] = [];
  let cx = 0;
  let cy = 0;
  for (const snake of snakes) {
    if (snake === undefined) continue;
    const [sx, sy] = snake;
    const delStart = cx;
    while (sx - sy > cx - cy) {
      cx++;
      if (cx === M) break;
    }
    if (cx > delStart) edits.push({ start: delStart, end: cx, insert: [] });
    const insStart = cy;
    while (sx - sy < cx - cy) cy++;
    if (cy > insStart) edits.push({ start: cx, end: cx, insert: b.slice(insStart, cy) });
    while (cx < sx) {
      cx++;
      cy++;
    }
    if (cx >= M && cy >= N) break;
  }
  // Stable sort by (start, end), as the reference does before laying out hunks.
  return edits
    .map((e, i) => ({ e, i }))
    .sort((p, q) => p.e.start - q.e.start || p.e.end - q.e.end || p.i - q.i)
    .map((p) => p.e);
}

function toHunks(lines: readonly string[], edits: readonly LineEdit[]): Hunk[] {
  const hunks: Hunk[] = [];
  let h: { fromLine: number; toLine: number; lines: DiffLine[] } | undefined;
  let last = 0;
  let toLine = 0;
  const addEqual = (start: number, end: number): number => {
    let added = 0;
    for (let i = start; i < end; i++) {
      if (i < 0) continue;
      if (i >= lines.length) return added;
      h!.lines.push({ kind: 'equal', content: lines[i]! });
      added++;
    }
    return added;
  };
  for (const edit of edits) {
    const { start, end } = edit;
    if (h !== undefined && start === last) {
      // contiguous with the previous edit
    } else if (h !== undefined && start <= last + GAP) {
      addEqual(last, start);
    } else {
      if (h !== undefined) {
        addEqual(last, last + EDGE);
        hunks.push(h);
      }
      toLine += start - last;
      h = { fromLine: start + 1, toLine: toLine + 1, lines: [] };
      const delta = addEqual(start - EDGE, start);
      h.fromLine -= delta;
      h.toLine -= delta;
    }
    last = start;
    for (let i = start; i < end; i++) {
      h.lines.push({ kind: 'delete', content: lines[i]! });
      last++;
    }
    for (const line of edit.insert) {
      h.lines.push({ kind: 'insert', content: line });
      toLine++;
    }
  }
  if (h !== undefined) {
    addEqual(last, last + EDGE);
    hunks.push(h);
  }
  return hunks;
}

/**
 * Writes hunks as kubecfg's formatDiff does: `@@ -a,b +c,d @@` headers
 * (counts omitted when 1 or less), optional ANSI colour, and with
 * `omitValues` the values of `"key": "value"` lines replaced by
 * `<omitted>` and context lines dropped.
 */
export function formatHunks(hunks: readonly Hunk[], color: boolean, omitValues: boolean): string {
  let out = '';
  for (const hunk of hunks) {
    let fromCount = 0;
    let toCount = 0;
    for (const l of hunk.lines) {
      if (l.kind !== 'insert') fromCount++;
      if (l.kind !== 'delete') toCount++;
    }
    out += '@@';
    out += fromCount > 1 ? ` -${hunk.fromLine},${fromCount}` : ` -${hunk.fromLine}`;
    out += toCount > 1 ? ` +${hunk.toLine},${toCount}` : ` +${hunk.toLine}`;
    out += ' @@\n';
    for (const l of hunk.lines) {
      const text = omitValues ? l.content.replace(OMIT_KEY_VALUE, '$1: <omitted>') : l.content;
      if (l.kind === 'delete') out += (color ? '\x1b[31m' : '') + '-' + text;
      else if (l.kind === 'insert') out += (color ? '\x1b[32m' : '') + '+' + text;
      else if (!omitValues) out += ' ' + text;
      if (color) out += '\x1b[0m';
      if (!l.content.endsWith('\n')) out += '\n\\ No newline at end of file\n';
    }
  }
  return out;
}

/** kubecfg's pattern for `"key": "value",` lines whose value is hidden with --omit-secrets. */
const OMIT_KEY_VALUE = /"([-._a-zA-Z0-9]+)":\s"([a-zA-Z0-9=+]+)",?/g;
