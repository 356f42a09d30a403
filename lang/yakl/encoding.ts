/**
 * Encoding rules of a .yakl file: a leading byte order mark is dropped, \r\n
 * and lone \r become \n (so line numbers match what editors show), and the
 * Unicode line separators U+0085, U+2028 and U+2029 are rejected because YAML
 * would count them as line breaks while Jsonnet and editors may not.
 */
import { SourceFile } from '../common/source.js';
import { errorAt } from './errors.js';

export function normalizeSource(fileName: string, text: string): SourceFile {
  let t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (t.includes('\r')) t = t.replace(/\r\n?/g, '\n');
  const file = new SourceFile(fileName, t);
  const bad = t.search(/[\u0085\u2028\u2029]/);
  if (bad >= 0) {
    const cp = t.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0');
    throw errorAt(
      file,
      bad,
      'YAKL_ENCODING',
      `the line separator U+${cp} is not allowed in a yakl file; use a plain line break`,
    );
  }
  return file;
}
