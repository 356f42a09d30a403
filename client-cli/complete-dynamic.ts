/**
 * `kubecfg __complete contexts|namespaces -- WORDS...`: the hidden command the
 * completion scripts run at TAB time. WORDS are the words typed so far; the
 * flags among them (--kubeconfig, --context, -n, --server ...) choose the
 * kubeconfig and cluster as the finished command would. The daemon answers
 * (complete/values; it is started if needed, as for any command). Prints one
 * value a line, and nothing at all when anything fails: completion must never
 * write an error into the user's prompt. Always exits 0.
 */
import { GLOBAL_FLAGS, Methods, type CompleteResult, type FlagValue } from '../protocol/index.js';
import { parseArgs } from './args.js';
import { ConnectError, rpcCall } from './connection.js';
import { applyEnvFlags } from './env-flags.js';
import { ensureDaemon } from './launcher.js';
import { daemonPaths } from './paths.js';
import { buildCommandParams } from './request.js';

const GLOBAL_NAMES = new Set(GLOBAL_FLAGS.map((f) => f.name));

/** The shell's words as argv: bash splits `--flag=value` into three words; a trailing flag lacks its value. */
function wordsToArgv(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '=' && out.length > 0 && out[out.length - 1]!.startsWith('--')) {
      out[out.length - 1] += '=' + (words[i + 1] ?? '');
      i++;
      continue;
    }
    out.push(w);
  }
  return out;
}

/** The flags of the line typed so far; words that do not parse are dropped from the end until the rest does. */
function flagsOfLine(words: readonly string[]): Record<string, FlagValue> {
  const argv = wordsToArgv(words);
  for (let end = argv.length; end >= 0; end--) {
    try {
      return parseArgs(argv.slice(0, end)).flags;
    } catch {
      // an unfinished flag or an unknown word: try without it
    }
  }
  return {};
}

export async function runDynamicComplete(argv: readonly string[]): Promise<number> {
  const [what, sep, ...words] = argv;
  if ((what !== 'contexts' && what !== 'namespaces') || (sep !== undefined && sep !== '--')) return 0;
  try {
    const flags = applyEnvFlags(flagsOfLine(words), process.env, []);
    const params = buildCommandParams([], onlyGlobal(flags), process.env);
    const paths = daemonPaths();
    const ask = (): Promise<CompleteResult> =>
      rpcCall<CompleteResult>(paths.socket, Methods.complete.method, { what, command: params }, 5000);
    let result: CompleteResult;
    try {
      result = await ask();
    } catch (err) {
      if (!(err instanceof ConnectError)) throw err;
      await ensureDaemon(paths);
      result = await ask();
    }
    for (const v of result.values) process.stdout.write(v + '\n');
  } catch {
    // Silent by design (see above).
  }
  return 0;
}

/** The request is validated as a `diff`'s: flags of other commands (show's -o) must not travel. */
function onlyGlobal(flags: Record<string, FlagValue>): Record<string, FlagValue> {
  const out: Record<string, FlagValue> = {};
  for (const [k, v] of Object.entries(flags)) if (GLOBAL_NAMES.has(k)) out[k] = v;
  return out;
}
