/** Evaluates one file with our engine and prints the JSON: the child-process leg of the bench (cold start + RSS). */
import { readFileSync } from 'node:fs';
import { evaluateToString, parseModule, SourceFile } from '../../lang/jsonnet/index.js';
import { fsImporter } from '../lib/fs-importer.js';

const file = process.argv[2]!;
const module = parseModule(new SourceFile(file, readFileSync(file, 'utf8')));
process.stdout.write(evaluateToString(module, { importer: fsImporter() }) as string);
