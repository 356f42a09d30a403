/**
 * The `_apps: myks.Apps {...}` blocks of an app-<name>.k file: the level's
 * declaration of the application (`name = proto.Proto {...}`) or its override
 * (`name: {...}`), and a block of their own for frozen values still marked
 * TODO(myks migrate). Frozen values with nothing left to do are folded into
 * the declaration or override the level states anyway (spec: they "need no
 * block of their own"); the later key wins, as the later block did.
 */
import { Expr, entryLines, isMap, keyRef, type Entry } from './kcl-write.js';

export interface AppBlock {
  name: string;
  /** `proto.Proto`: the block declares the application; otherwise it overrides one declared above */
  schema?: string;
  entries: Entry[];
  /** a comment line above the block (the TODO of frozen computed values) */
  note?: string;
}

export function blockLines(b: AppBlock): string[] {
  const lines = b.note ? [`    ${b.note}`] : [];
  if (b.schema === undefined)
    return [...lines, ...entryLines([{ key: b.name, value: { map: b.entries }, comments: [], blankBefore: false }], 1)];
  if (b.entries.length === 0) return [...lines, `    ${keyRef(b.name)} = ${b.schema} {}`];
  return [...lines, `    ${keyRef(b.name)} = ${b.schema} {`, ...entryLines(b.entries, 2), '    }'];
}

/**
 * `next` written over `base` key by key: maps merge recursively, any other value goes through
 * `replace` (which decides whose comments stay).
 */
export function mergeByKey(
  base: readonly Entry[],
  next: readonly Entry[],
  replace: (prev: Entry, e: Entry) => Entry,
): Entry[] {
  const out = [...base];
  for (const e of next) {
    const i = out.findIndex((x) => x.key === e.key);
    if (i < 0) out.push(e);
    else {
      let prev = out[i]!;
      // a map-valued derivation something is merged into is written as the map ytt resolved
      if (prev.value instanceof Expr && isMap(prev.value.literal) && isMap(e.value))
        prev = { ...prev, value: prev.value.literal };
      out[i] =
        isMap(prev.value) && isMap(e.value)
          ? { ...prev, value: { map: mergeByKey(prev.value.map, e.value.map, replace) } }
          : replace(prev, e);
    }
  }
  return out;
}

/** `frozen` written into `entries`: maps merge key by key, anything else is replaced by the frozen value. */
export function foldEntries(entries: readonly Entry[], frozen: readonly Entry[]): Entry[] {
  return mergeByKey(entries, frozen, (prev, e) => ({
    ...prev,
    value: e.value,
    comments: [...prev.comments, ...e.comments],
  }));
}
