/**
 * cobra's "Did you mean this?" for an unknown command: a command is suggested
 * when its name is within Levenshtein distance 2 of what was typed (case
 * ignored) or starts with it, in the catalog's name order.
 */
import type { CommandSpec } from '../protocol/index.js';

function levenshtein(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[t.length]!;
}

const MIN_DISTANCE = 2;

function suggestionsFor(typed: string, commands: readonly CommandSpec[]): string[] {
  const names = commands.map((c) => c.name).sort();
  return names.filter(
    (name) => levenshtein(typed, name) <= MIN_DISTANCE || name.toLowerCase().startsWith(typed.toLowerCase()),
  );
}

/** The text cobra appends to `unknown command "X" for "P"`. */
export function suggestionText(typed: string, commands: readonly CommandSpec[]): string {
  const found = suggestionsFor(typed, commands);
  if (!found.length) return '';
  return `\n\nDid you mean this?\n${found.map((n) => `\t${n}\n`).join('')}`;
}
