/**
 * A plain filesystem Jsonnet importer for benchmarks and tests: relative to
 * the importing file, then each search path in order (go-jsonnet's rule).
 * The daemon uses its own importer with dependency recording and root checks.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ImportError, type Importer } from '../../lang/jsonnet/index.js';

export function fsImporter(jpath: string[] = []): Importer {
  const cache = new Map<string, Uint8Array>();
  return {
    load(importedFrom, path) {
      const bases = [importedFrom ? dirname(importedFrom) : process.cwd(), ...jpath];
      for (const base of isAbsolute(path) ? [''] : bases) {
        const p = isAbsolute(path) ? path : resolve(base, path);
        let contents = cache.get(p);
        if (!contents && existsSync(p) && statSync(p).isFile()) {
          contents = readFileSync(p);
          cache.set(p, contents);
        }
        if (contents) return { foundAt: p, contents };
      }
      throw new ImportError(`couldn't open import "${path}": no match locally or in the Jsonnet library paths`);
    },
  };
}
