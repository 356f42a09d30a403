// Test helpers for cache/: a temporary directory removed when the test ends, a bounded wait, and
// a deterministic way to give files old timestamps. Used by *.test.ts only.
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

export function tempDir(t: TestContext, prefix = 'kubecfg-cache-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), prefix)));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes a file and pins its atime/mtime (seconds since the epoch), like `tar x` does. */
export function writeWithMtime(path: string, content: string, mtimeSeconds: number): void {
  fs.writeFileSync(path, content);
  fs.utimesSync(path, mtimeSeconds, mtimeSeconds);
}

/** Polls until `ready()` is true or `timeoutMs` passes; never asserts on how long it took. */
export async function waitUntil(ready: () => boolean, timeoutMs = 5000, stepMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (ready()) return true;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  return ready();
}

/** A fixed instant long ago, for "tar-extracted" files: 2020-01-01T00:00:00Z. */
export const LONG_AGO_SECONDS = 1_577_836_800;
