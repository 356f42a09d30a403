/**
 * What tab completion offers for a flag's value or a positional argument,
 * per command (`show -o` is yaml|json, `features -o` table|json): the
 * catalog's fixed values, the tables the catalog cannot hold (feature names,
 * shells), values asked of the daemon at TAB time (kubeconfig contexts,
 * cluster namespaces), files, or nothing (free text such as `--gc-tag`).
 */
import type { CommandSpec, FlagSpec } from '../protocol/index.js';

/**
 * The feature gates `--features` accepts. The registry lives in render/, which the CLI may not
 * import; a test checks that this list is the registry's.
 */
export const FEATURE_NAMES: readonly string[] = [
  'eval',
  'traceback',
  'pack',
  'httpd',
  'overlay',
  'yakl',
  'kustomize-import',
  'binary-import',
  'knit',
  'cleat',
];

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** What the shell asks the CLI for at TAB time: `kubecfg __complete contexts|namespaces -- WORDS...`. */
export type DynamicValues = 'contexts' | 'namespaces';

export type ValueSource =
  | { kind: 'words'; words: readonly string[] }
  | { kind: 'dynamic'; what: DynamicValues }
  | { kind: 'files' }
  | { kind: 'none' };

/** The completion of `flag`'s value on the command `path` (`[]` for global flags before a command). */
export function flagValueSource(path: readonly string[], flag: FlagSpec): ValueSource {
  if (flag.values) return { kind: 'words', words: flag.values };
  if (flag.name === 'features') return { kind: 'words', words: FEATURE_NAMES };
  if (path.join(' ') === 'completion' && flag.name === 'shell') return { kind: 'words', words: SHELLS };
  if (flag.filename) return { kind: 'files' };
  // kubocd render's own --context names files (the catalog says so above); the global one a kubeconfig context.
  if (flag.name === 'context') return { kind: 'dynamic', what: 'contexts' };
  if (flag.name === 'namespace') return { kind: 'dynamic', what: 'namespaces' };
  return { kind: 'none' };
}

/** The completion of a positional argument of `cmd`. */
export function argSource(path: readonly string[], cmd: CommandSpec): ValueSource {
  if (path.join(' ') === 'completion') return { kind: 'words', words: SHELLS };
  if (cmd.args === 'none') return { kind: 'none' };
  return { kind: 'files' };
}
