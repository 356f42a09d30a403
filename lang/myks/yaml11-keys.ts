/**
 * YAML 1.1 keys: ytt reads its files as YAML 1.1, so a data-values key such
 * as `n:`, `y:`, `yes:`, `on:` or `off:` is a boolean, and `~:` or `null:` is
 * null. ytt keeps such a key as it read it: it prints it `false:` (its
 * `--data-values-inspect` does, and so does a plain template), and it cannot
 * hand it to a template reading `@ytt:data` (it panics: a struct key must be
 * a string). KCL keys are strings, so the converted tree states the key ytt
 * printed, quoted (`"false" = 1`: kcl-write.ts never writes it bare); the
 * values resolve the same. The letter the file wrote is lost on both sides,
 * which is what the warning tells the user.
 */
import type { TemplateFile } from '../ytt/index.js';

/** One warning per key of `t` that YAML 1.1 reads as a boolean or null. */
export function yaml11KeyWarnings(t: TemplateFile): string[] {
  const lines = t.text.split('\n');
  const out: string[] = [];
  for (const n of t.nodes) {
    if (n.kind !== 'mapitem' || (typeof n.key !== 'boolean' && n.key !== null)) continue;
    const line = lines[n.where.line - 1] ?? '';
    const written = /^\s*(?:-\s+)?([^:#]*?)\s*:(?:\s|$)/.exec(line.slice(Math.max(n.where.column - 1, 0)))?.[1];
    const as = n.key === null ? 'null' : String(n.key);
    out.push(
      `${t.path}:${n.where.line}:${n.where.column}: key ${written ?? as} is YAML 1.1's ${n.key === null ? 'null' : `boolean ${as}`}: ` +
        `ytt holds it as the key ${as} (and a template reading @ytt:data fails on it), the KCL tree as the string key "${as}"; ` +
        `quote it in the legacy file ("${written ?? as}") if the key is meant as written`,
    );
  }
  return out;
}
