/**
 * The option variants the differential tests run: jsonnetfmt's defaults, then
 * each option varied alone, as jsonnetfmt flags and as our FormatOptions.
 */
import type { FormatOptions } from '../../lang/jsonnet/fmt/index.js';

export interface OptionVariant {
  name: string;
  flags: string[];
  options: FormatOptions;
}

export const OPTION_VARIANTS: readonly OptionVariant[] = [
  { name: 'defaults', flags: [], options: {} },
  { name: 'indent 4', flags: ['--indent', '4'], options: { indent: 4 } },
  { name: 'indent 0', flags: ['--indent', '0'], options: { indent: 0 } },
  { name: 'max-blank-lines 0', flags: ['--max-blank-lines', '0'], options: { maxBlankLines: 0 } },
  { name: 'max-blank-lines 1', flags: ['--max-blank-lines', '1'], options: { maxBlankLines: 1 } },
  { name: 'string-style d', flags: ['--string-style', 'd'], options: { stringStyle: 'd' } },
  { name: 'string-style l', flags: ['--string-style', 'l'], options: { stringStyle: 'l' } },
  { name: 'comment-style h', flags: ['--comment-style', 'h'], options: { commentStyle: 'h' } },
  { name: 'comment-style l', flags: ['--comment-style', 'l'], options: { commentStyle: 'l' } },
  { name: 'pad-arrays', flags: ['--pad-arrays'], options: { padArrays: true } },
  { name: 'no-pad-objects', flags: ['--no-pad-objects'], options: { padObjects: false } },
  { name: 'no-pretty-field-names', flags: ['--no-pretty-field-names'], options: { prettyFieldNames: false } },
  { name: 'no-sort-imports', flags: ['--no-sort-imports'], options: { sortImports: false } },
];
