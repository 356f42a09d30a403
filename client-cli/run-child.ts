/**
 * Runs a node entry of ours as a child with the terminal (stdout/stderr
 * inherited) and answers its exit code. An optional request goes to its stdin
 * as one document (so tokens and parameters never show on a command line).
 * Signals sent to the CLI alone (a supervisor, a test, `kill`) are passed on:
 * a terminal's Ctrl-C reaches the whole process group anyway, and a second
 * signal is harmless. A child ended by SIGINT answers 130, as a local command does.
 */
import { spawn } from 'node:child_process';
import { EXIT_INTERRUPTED } from './run-remote.js';

export interface ChildRun {
  /** Arguments after `node`: the entry (and node options before it), then its own arguments. */
  args: string[];
  /** Written to the child's stdin, then closed; without it stdin is inherited. */
  input?: string;
  /** Signals forwarded to the child. */
  forward?: readonly NodeJS.Signals[];
}

export function runChild({ args, input, forward = ['SIGINT'] }: ChildRun): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      stdio: [input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'],
    });
    const pass = (signal: NodeJS.Signals): void => void child.kill(signal);
    for (const signal of forward) process.on(signal, pass);
    child.on('error', (err) => {
      process.stderr.write(`kubecfg: cannot run ${process.execPath}: ${err.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      for (const s of forward) process.off(s, pass);
      resolve(code ?? (signal === 'SIGINT' ? EXIT_INTERRUPTED : 1));
    });
    if (input !== undefined) {
      child.stdin!.on('error', () => {});
      child.stdin!.end(input);
    }
  });
}
