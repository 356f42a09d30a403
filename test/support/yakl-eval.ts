/**
 * Test helpers (used by the *.test.ts files only): an in-memory importer
 * that serves named files and compiles `yakl:` imports, and a function that
 * compiles and evaluates a .yakl text to JSON.
 */
import type { JsonValue } from '../../lang/common/json.js';
import { SourceFile } from '../../lang/common/source.js';
import { ImportError, type Importer, evaluate, parseModule } from '../../lang/jsonnet/index.js';
import { compileYakl } from '../../lang/yakl/index.js';

const KUBECFG_LIB = `{ resolveImage(image):: image, isK8sObject(o):: std.isObject(o) && std.objectHas(o, 'kind') }`;

export function memoryImporter(files: Record<string, string>): Importer {
  return {
    load(_from, path) {
      const yakl = path.startsWith('yakl:');
      const name = yakl ? path.slice(5) : path;
      const text = name === 'internal:///kubecfg.libsonnet' ? KUBECFG_LIB : files[name];
      if (text === undefined)
        throw new ImportError(`couldn't open import "${path}": no match locally or in the Jsonnet library paths`);
      const code = yakl ? compileYakl(name, text).jsonnet : text;
      return {
        foundAt: path,
        contents: new TextEncoder().encode(code),
        module: parseModule(new SourceFile(name, code)),
      };
    },
  };
}

export function evalYakl(text: string, files: Record<string, string> = {}, name = 'test.yakl'): JsonValue {
  const { jsonnet } = compileYakl(name, text);
  return evaluate(parseModule(new SourceFile(name, jsonnet)), { importer: memoryImporter(files) });
}

export function evalJsonnet(code: string, files: Record<string, string> = {}): JsonValue {
  return evaluate(parseModule(new SourceFile('expected.jsonnet', code)), { importer: memoryImporter(files) });
}
