/**
 * RFC06: `kubecfg` is predefined in Jsonnet code that is not in a Jsonnet
 * file (-e/--exec, eval -e, --overlay-code, --ext-code, --tla-code). The
 * decision uses the engine's own free-variable check, so a field named
 * `kubecfg` or the word in a string or comment is not a use, and a name the
 * user declares (local, parameter, object local, TLA) wins. The line goes in
 * front of line 1, so line numbers in errors do not move; code that does not
 * read `kubecfg` is returned unchanged, down to its columns.
 */
import { SourceFile } from '../lang/common/source.js';
import { freeVariablesOf, parseAst } from '../lang/jsonnet/index.js';

/** The line RFC06 adds: always the built-in copy, never looked up on the search path. */
export const KUBECFG_LOCAL = "local kubecfg = import 'internal:///kubecfg.libsonnet'; ";

/** Returns `code` with the predefined `kubecfg` local when it reads `kubecfg` without declaring it. */
export function predefineKubecfg(name: string, code: string): string {
  let free: Set<string>;
  try {
    free = freeVariablesOf(parseAst(new SourceFile(name, code)));
  } catch {
    return code; // a syntax error is reported by the evaluation that follows, at its own columns
  }
  return free.has('kubecfg') ? KUBECFG_LOCAL + code : code;
}

/** The hint printed after `Unknown variable: kubecfg` from a Jsonnet file (RFC06 "Error message"). */
const KUBECFG_HINT =
  "hint: kubecfg is not predefined in Jsonnet files. Add this line at the top of the file:\n  local kubecfg = import 'kubecfg.libsonnet';";

export function hintFor(errorText: string): string | undefined {
  return /Unknown variable: kubecfg\b/.test(errorText) ? KUBECFG_HINT : undefined;
}

/** `message`, followed by its hint on the next line when it has one. */
export function withHint(message: string): string {
  const hint = hintFor(message);
  return hint === undefined ? message : `${message}\n${hint}`;
}
