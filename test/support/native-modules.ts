/** The Node built-in modules a process loaded, from its `process.moduleLoadList` written to a file. */
import { readFileSync } from 'node:fs';

export function loadedNativeModules(traceFile: string): Set<string> {
  return new Set(
    readFileSync(traceFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('NativeModule '))
      .map((l) => l.slice('NativeModule '.length)),
  );
}
