/**
 * Command-line options of server/main.js (passed through by `kubecfg daemon
 * start`). Durations accept Go-style units: 90s, 30m, 3h, 1h30m; 0 = never.
 */
import { availableParallelism } from 'node:os';

export interface DaemonOptions {
  foreground: boolean;
  /** HOST:PORT for the optional TCP listener. */
  listen: { host: string; port: number } | null;
  idleTimeoutMs: number;
  workers: number;
  workerMemoryMb: number;
  /** Re-render a recent request when a file it read is saved (command-runner.ts filesChanged). */
  renderOnSave: boolean;
}

export class OptionsError extends Error {}

const DEFAULT_IDLE_TIMEOUT_MS = 3 * 3600 * 1000;

export function parseDuration(text: string): number {
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
    total += Number(m[1]) * unit;
    matched = re.lastIndex;
  }
  if (matched !== text.length || text === '')
    throw new OptionsError(`invalid duration "${text}": use e.g. 90s, 30m, 3h or 0`);
  return Math.round(total);
}

/**
 * The options of a server entry as `--name value` or `--name=value`: each yields its name and a
 * reader that takes the value (the next argument when there is no `=`), so a flag without a
 * value reads nothing.
 */
export function* optionArgs(argv: readonly string[]): Generator<{ arg: string; name: string; value: () => string }> {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq > 0) return arg.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new OptionsError(`${name} needs a value`);
      return v;
    };
    yield { arg, name, value };
  }
}

export function parseListen(text: string): { host: string; port: number } {
  const colon = text.lastIndexOf(':');
  const host = colon > 0 ? text.slice(0, colon).replace(/^\[|\]$/g, '') : '127.0.0.1';
  const portText = colon >= 0 ? text.slice(colon + 1) : text;
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65535)
    throw new OptionsError(`invalid --listen "${text}": want HOST:PORT, e.g. 127.0.0.1:7070`);
  return { host, port };
}

function positiveInt(name: string, text: string | undefined): number {
  const n = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || n < 1)
    throw new OptionsError(`--${name} needs a positive integer, got "${text ?? ''}"`);
  return n;
}

export function parseDaemonOptions(argv: readonly string[]): DaemonOptions {
  const opts: DaemonOptions = {
    foreground: false,
    listen: null,
    idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
    workers: Math.max(1, availableParallelism()),
    workerMemoryMb: 1024,
    renderOnSave: true,
  };
  for (const { arg, name, value } of optionArgs(argv)) {
    switch (name) {
      case '--foreground':
        opts.foreground = true;
        break;
      case '--listen':
        opts.listen = parseListen(value());
        break;
      case '--idle-timeout':
        opts.idleTimeoutMs = parseDuration(value());
        break;
      case '--workers':
        opts.workers = positiveInt('workers', value());
        break;
      case '--worker-memory-mb':
        opts.workerMemoryMb = positiveInt('worker-memory-mb', value());
        break;
      case '--render-on-save': {
        const v = arg.includes('=') ? value() : 'true';
        if (v !== 'true' && v !== 'false') throw new OptionsError(`--render-on-save takes true or false, not "${v}"`);
        opts.renderOnSave = v === 'true';
        break;
      }
      default:
        throw new OptionsError(`unknown daemon option ${arg}`);
    }
  }
  return opts;
}
