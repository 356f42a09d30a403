/** The Node built-in modules a process loaded, from its `process.moduleLoadList` written to a file. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes DIR/probe.cjs, a script that, run with `NODE_OPTIONS=--require PROBE`, writes the process's
 * `process.moduleLoadList` to the file named by PROBE_OUT as it exits. Returns its path.
 */
export function writeModuleLoadProbe(dir: string): string {
  const probe = join(dir, 'probe.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => require('fs').writeFileSync(process.env.PROBE_OUT, process.moduleLoadList.join('\\n')));\n",
  );
  return probe;
}

export function loadedNativeModules(traceFile: string): Set<string> {
  return new Set(
    readFileSync(traceFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('NativeModule '))
      .map((l) => l.slice('NativeModule '.length)),
  );
}
