/**
 * The worker's cache of compiled .yakl files: compileYakl, then the Jsonnet
 * parse, keyed by the file's name and the digest of its bytes. The name is
 * part of the key because the compiled module carries it for error
 * locations; the digest makes an edited file simply miss, so a one-line edit
 * recompiles only that file. Compile errors are not cached (they are cheap to
 * reproduce and must always reflect the current text).
 */
import { ByteBoundedCache, digestOf } from '../../cache/index.js';
import { SourceFile } from '../../lang/common/source.js';
import { parseModule, type Module } from '../../lang/jsonnet/index.js';
import { compileYakl, type FileShape } from '../../lang/yakl/index.js';

export interface CompiledYaklModule {
  /** The generated Jsonnet parsed under the .yakl file's own name, so errors point at its lines. */
  module: Module;
  shape: FileShape;
}

const store = new ByteBoundedCache<CompiledYaklModule>({ name: 'compiled-yakl', maxBytes: 128 * 1024 * 1024 });
let compilations = 0;

/** Compiles (or finds in the cache) the .yakl file `name` whose bytes are `bytes`. Throws YaklError or JsonnetError. */
export function compiledYakl(name: string, bytes: Uint8Array): CompiledYaklModule {
  const key = `${name}\u0000${digestOf(bytes)}`;
  const cached = store.get(key);
  if (cached) return cached;
  const text = new TextDecoder('utf-8').decode(bytes);
  const compiled = compileYakl(name, text);
  compilations++;
  const entry = { module: parseModule(new SourceFile(name, compiled.jsonnet)), shape: compiled.shape };
  // Parsed trees are several times their text; 8 bytes per character is the engine's own estimate.
  store.set(key, entry, key.length + compiled.jsonnet.length * 8);
  return entry;
}

/** Cache figures, and how many compilations actually ran in this worker (tests check a hit compiles nothing). */
export function yaklCacheStats(): ReturnType<typeof store.stats> & { compilations: number } {
  return { ...store.stats(), compilations };
}
