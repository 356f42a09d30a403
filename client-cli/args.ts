/**
 * argv → {command, positional args, flag values}, with pflag's spelling rules:
 * `--flag value`, `--flag=value`, `-J value`, `-Jvalue`, `-J=value`, bool
 * flags as `--alpha` or `--alpha=false`, counted `-vvv`, and `--` ending flag
 * parsing. Global flags may appear before or after the command name. Never
 * throws anything but UsageError (the message cobra would print).
 */
import {
  COMMANDS,
  EXCLUSIVE_FLAG_GROUPS,
  GLOBAL_FLAGS,
  flagsOf,
  type CommandSpec,
  type FlagSpec,
  type FlagValue,
} from '../protocol/index.js';

export class UsageError extends Error {
  constructor(
    message: string,
    readonly commandPath: string[] = [],
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  /** e.g. ['show'] or ['daemon', 'status']; [] for the bare `kubecfg`. */
  commandPath: string[];
  command: CommandSpec | null;
  args: string[];
  /** Only flags given on the command line, keyed by long name. */
  flags: Record<string, FlagValue>;
  help: boolean;
  /**
   * Global flags given before a command whose own flag of the same name is of another kind
   * (`kubecfg --insecure-registry h:5000 pack ...`): kept apart so the command's flag stays well typed.
   */
  shadowed: Record<string, FlagValue>;
}

const TRUE_WORDS = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

/** Go's strconv.ParseBool, as pflag uses for `--flag=value`. */
export function parseBoolWord(word: string): boolean | undefined {
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/**
 * A finite decimal as Go's strconv.ParseFloat(s, 32) reads it for a Float32 flag: sign, digits
 * with an optional fraction, optional exponent, `_` between digits not allowed (pflag passes
 * base 10 only). Inf and NaN are refused: no rate makes sense there and JSON cannot carry them.
 */
const GO_FLOAT_SYNTAX = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function parseGoFloat(word: string | undefined): number | undefined {
  if (word === undefined || !GO_FLOAT_SYNTAX.test(word)) return undefined;
  const n = Math.fround(Number(word));
  return Number.isFinite(n) ? n : undefined;
}

/** How pflag names a flag in its errors: `--name`, or `-s, --name` when it has a shorthand. */
function pflagName(spec: FlagSpec): string {
  return spec.short ? `-${spec.short}, --${spec.name}` : `--${spec.name}`;
}

/** Go's *strconv.NumError text. */
function strconvError(fn: string, input: string, why: string): string {
  return `strconv.${fn}: parsing ${JSON.stringify(input)}: ${why}`;
}

function subcommandsOf(cmd: CommandSpec | null): readonly CommandSpec[] {
  return cmd ? (cmd.subcommands ?? []) : COMMANDS;
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const out: ParsedArgs = {
    commandPath: [],
    command: null,
    args: [],
    flags: Object.create(null),
    help: false,
    shadowed: Object.create(null),
  };
  let available: readonly FlagSpec[] = GLOBAL_FLAGS;
  let onlyPositional = false;

  const lookup = (name: string, short: boolean): FlagSpec | undefined =>
    available.find((f) => (short ? f.short === name : f.name === name));

  // pflag's wording: `invalid argument "x" for "-o, --format" flag: strconv.ParseBool: parsing "x": invalid syntax`.
  const invalid = (spec: FlagSpec, raw: string, why: string): UsageError =>
    new UsageError(
      `invalid argument ${JSON.stringify(raw)} for ${JSON.stringify(pflagName(spec))} flag: ${why}`,
      out.commandPath,
    );
  const assign = (spec: FlagSpec, raw: string | undefined): void => {
    switch (spec.kind) {
      case 'bool': {
        const v = raw === undefined ? true : parseBoolWord(raw);
        if (v === undefined) throw invalid(spec, raw!, strconvError('ParseBool', raw!, 'invalid syntax'));
        out.flags[spec.name] = v;
        return;
      }
      case 'count': {
        if (raw === undefined) {
          out.flags[spec.name] = ((out.flags[spec.name] as number | undefined) ?? 0) + 1;
          return;
        }
        const n = Number(raw);
        if (!/^\d+$/.test(raw)) throw invalid(spec, raw, strconvError('ParseInt', raw, 'invalid syntax'));
        if (!Number.isSafeInteger(n)) throw invalid(spec, raw, strconvError('ParseInt', raw, 'value out of range'));
        out.flags[spec.name] = n;
        return;
      }
      case 'int': {
        const text = raw ?? '';
        const n = Number(text);
        if (!/^[+-]?\d+$/.test(text)) throw invalid(spec, text, strconvError('ParseInt', text, 'invalid syntax'));
        if (!Number.isSafeInteger(n)) throw invalid(spec, text, strconvError('ParseInt', text, 'value out of range'));
        out.flags[spec.name] = n;
        return;
      }
      case 'float': {
        const text = raw ?? '';
        const n = parseGoFloat(text);
        if (n === undefined)
          throw invalid(
            spec,
            text,
            strconvError('ParseFloat', text, GO_FLOAT_SYNTAX.test(text) ? 'value out of range' : 'invalid syntax'),
          );
        out.flags[spec.name] = n;
        return;
      }
      case 'string': {
        const value = raw ?? '';
        if (spec.values && !spec.values.includes(value)) {
          throw invalid(spec, value, `must be one of ${spec.values.join(', ')}`);
        }
        out.flags[spec.name] = value;
        return;
      }
      case 'stringArray': {
        const prev = out.flags[spec.name];
        out.flags[spec.name] = [...(Array.isArray(prev) ? prev : []), raw ?? ''];
        return;
      }
    }
  };

  const needsValue = (spec: FlagSpec): boolean => spec.kind !== 'bool' && spec.kind !== 'count';

  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (onlyPositional || tok === '-' || !tok.startsWith('-')) {
      if (!onlyPositional && out.args.length === 0) {
        const sub = subcommandsOf(out.command).find((c) => c.name === tok);
        if (sub) {
          for (const own of sub.flags) {
            const global = available.find((f) => f.name === own.name);
            if (global && global.kind !== own.kind && out.flags[own.name] !== undefined) {
              out.shadowed[own.name] = out.flags[own.name]!;
              delete out.flags[own.name];
            }
          }
          out.command = sub;
          out.commandPath.push(sub.name);
          available = flagsOf(sub);
          continue;
        }
        if (tok === 'help' && out.command === null) {
          out.help = true;
          continue;
        }
      }
      out.args.push(tok);
      continue;
    }
    if (tok === '--') {
      onlyPositional = true;
      continue;
    }
    if (tok.startsWith('--')) {
      const body = tok.slice(2);
      const eq = body.indexOf('=');
      const name = eq < 0 ? body : body.slice(0, eq);
      if (name === 'help') {
        out.help = true;
        continue;
      }
      const spec = lookup(name, false);
      if (!spec) throw new UsageError(`unknown flag: --${name}`, out.commandPath);
      let raw: string | undefined = eq < 0 ? undefined : body.slice(eq + 1);
      if (raw === undefined && needsValue(spec)) {
        if (i + 1 >= argv.length) throw new UsageError(`flag needs an argument: --${name}`, out.commandPath);
        raw = argv[++i];
      }
      assign(spec, raw);
      continue;
    }
    // Short flags: a cluster like -vvk, or -Jvalue / -J value / -J=value.
    for (let j = 1; j < tok.length; j++) {
      const letter = tok[j]!;
      if (letter === 'h') {
        out.help = true;
        continue;
      }
      const spec = lookup(letter, true);
      if (!spec) throw new UsageError(`unknown shorthand flag: '${letter}' in ${tok}`, out.commandPath);
      if (!needsValue(spec)) {
        if (tok[j + 1] === '=') {
          assign(spec, tok.slice(j + 2));
          break;
        }
        assign(spec, undefined);
        continue;
      }
      let raw = tok.slice(j + 1);
      if (raw.startsWith('=')) raw = raw.slice(1);
      else if (raw === '') {
        if (i + 1 >= argv.length)
          throw new UsageError(`flag needs an argument: '${letter}' in -${letter}`, out.commandPath);
        raw = argv[++i]!;
      }
      assign(spec, raw);
      break;
    }
  }
  return out;
}

/** Checks the positional-argument rule of the chosen command. */
export function checkArgCount(parsed: ParsedArgs): void {
  const cmd = parsed.command;
  if (!cmd) return;
  const n = parsed.args.length;
  const where = `kubecfg ${parsed.commandPath.join(' ')}`;
  if (cmd.args === 'none' && n > 0) {
    if (cmd.subcommands) throw new UsageError(`unknown command "${parsed.args[0]}" for "${where}"`, parsed.commandPath);
    throw new UsageError(`${where} accepts no arguments, got ${n}`, parsed.commandPath);
  }
  if (cmd.args === 'exactlyOne' && n !== 1)
    throw new UsageError(`${where} needs exactly one argument, got ${n}`, parsed.commandPath);
  // `-e CODE` is an input of its own (kubecfg appends it to the files), so it stands for a file argument.
  if (cmd.args === 'atLeastOne' && n === 0 && !(cmd.flags.some((f) => f.name === 'exec') && parsed.flags.exec))
    throw new UsageError(`${where} needs at least one argument`, parsed.commandPath);
  if (cmd.args === 'exactlyTwo' && n !== 2) {
    const missing =
      n < 2
        ? `: ${cmd.usage
            .replace(/^kubecfg \S+ \[flags\] /, '')
            .split(' ')
            .slice(n)
            .join(' and ')} missing`
        : '';
    throw new UsageError(`accepts 2 arg(s), received ${n}${missing}`, parsed.commandPath);
  }
  for (const group of EXCLUSIVE_FLAG_GROUPS) {
    const set = group.filter((name) => parsed.flags[name] !== undefined && cmd.flags.some((f) => f.name === name));
    if (set.length > 1)
      throw new UsageError(
        `if any flags in the group [${group.join(' ')}] are set none of the others can be; [${set.join(' ')}] were all set`,
        parsed.commandPath,
      );
  }
}

/**
 * pflag's deprecated flags: the value moves to the flag that replaces it, and each use gets pflag's
 * warning line (returned for stderr). Run after checkArgCount so exclusive groups see what was typed.
 */
export function replaceDeprecated(parsed: ParsedArgs): string[] {
  const warnings: string[] = [];
  for (const spec of parsed.command?.flags ?? []) {
    const value = parsed.flags[spec.name];
    if (!spec.deprecated || value === undefined) continue;
    warnings.push(`Flag --${spec.name} has been deprecated, ${spec.deprecated.message}\n`);
    parsed.flags[spec.deprecated.replacedBy] = value;
    delete parsed.flags[spec.name];
  }
  return warnings;
}

/**
 * `kubecfg --insecure-registry HOST... pack REF ENTRY`: our global list names registries spoken to over
 * plain HTTP; pack's own boolean (kubecfg's) says the same of REF's registry. A list given before
 * `pack` therefore turns pack's boolean on exactly when it names REF's registry.
 */
export function resolveShadowed(parsed: ParsedArgs): void {
  const list = parsed.shadowed['insecure-registry'];
  if (parsed.command?.name !== 'pack' || !Array.isArray(list) || parsed.flags['insecure-registry'] !== undefined)
    return;
  const ref = parsed.args[0] ?? '';
  const host = ref.replace(/^oci:\/\//, '').split('/')[0]!;
  const hosts = list.flatMap((item) => item.split(',')).map((h) => h.trim());
  parsed.flags['insecure-registry'] = hosts.includes(host);
}
