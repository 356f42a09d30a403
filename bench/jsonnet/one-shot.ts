/**
 * Evaluates one file with our engine and prints the JSON: the child-process leg of the bench (cold start + RSS).
 * Usage: one-shot.js [-J dir]... file (library paths searched in order, like jsonnet's -J).
 */
import { readFileSync } from 'node:fs';
import { evaluateToString, parseModule, SourceFile } from '../../lang/jsonnet/index.js';
import { fsImporter } from '../lib/fs-importer.js';

const args = process.argv.slice(2);
const jpath: string[] = [];
let file = '';
for (let i = 0; i < args.length; i++) {
  if (args[i] === '-J') jpath.push(args[++i]!);
  else file = args[i]!;
}
const module = parseModule(new SourceFile(file, readFileSync(file, 'utf8')));
process.stdout.write(evaluateToString(module, { importer: fsImporter(jpath) }) as string);
