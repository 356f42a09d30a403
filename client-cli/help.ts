/**
 * `--help` text for every command, laid out like cobra's: summary, Usage,
 * Available Commands, Flags, Global Flags. Generated from the catalog so it
 * cannot drift from what the parser accepts.
 */
import { COMMANDS, GLOBAL_FLAGS, type CommandSpec, type FlagSpec } from '../protocol/index.js';

function flagLine(f: FlagSpec): [string, string] {
  const type =
    f.kind === 'bool' || f.kind === 'count'
      ? ''
      : f.kind === 'stringArray'
        ? ' stringArray'
        : f.kind === 'int'
          ? ' int'
          : f.kind === 'float'
            ? ' float32'
            : ' string';
  const left = `${f.short ? `-${f.short}, ` : '    '}--${f.name}${type}`;
  let help = f.help;
  // pflag shows a bool's default only when it is true.
  if (f.default !== undefined && f.default !== '' && (f.kind !== 'bool' || f.default === true)) {
    help += f.kind === 'string' ? ` (default ${JSON.stringify(f.default)})` : ` (default ${String(f.default)})`;
  }
  return [left, help];
}

function flagTable(flags: readonly FlagSpec[], extraHelp?: string): string {
  // pflag hides deprecated flags from help.
  const rows = flags.filter((f) => !f.deprecated).map(flagLine);
  if (extraHelp) rows.push(['-h, --help', extraHelp]);
  const width = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, r]) => `  ${l.padEnd(width)}   ${r}`).join('\n');
}

function commandTable(cmds: readonly CommandSpec[]): string {
  const width = Math.max(...cmds.map((c) => c.name.length));
  return cmds.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
}

/** The root command's usage (cobra's UsageString: the help without the summary). */
export function usageText(): string {
  return helpText([], null).split('\n').slice(2).join('\n');
}

export function helpText(commandPath: string[], cmd: CommandSpec | null): string {
  if (!cmd) {
    return [
      'Synchronise Kubernetes resources with config files',
      '',
      'Usage:',
      '  kubecfg [command]',
      '',
      'Available Commands:',
      commandTable(COMMANDS),
      '  help        Help about any command',
      '',
      'Flags:',
      flagTable(GLOBAL_FLAGS, 'help for kubecfg'),
      '',
      'Use "kubecfg [command] --help" for more information about a command.',
      '',
    ].join('\n');
  }
  const parts = [cmd.summary, '', 'Usage:', `  ${cmd.usage}`, ''];
  if (cmd.subcommands?.length) parts.push('Available Commands:', commandTable(cmd.subcommands), '');
  parts.push('Flags:', flagTable(cmd.flags, `help for ${commandPath[commandPath.length - 1] ?? 'kubecfg'}`), '');
  parts.push('Global Flags:', flagTable(GLOBAL_FLAGS), '');
  return parts.join('\n');
}
