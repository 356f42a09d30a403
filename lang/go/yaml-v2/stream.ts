/**
 * Cutting a YAML stream into documents at `---` lines, before go-yaml sees
 * them, as the Go programs we follow do: k8s.io/apimachinery's YAMLReader
 * (kubecfg's parseYaml: a separator followed by anything but a comment is
 * "invalid Yaml document separator") and go-jsonnet's copy of the older
 * reader (std.parseYaml: only `---` plus spaces separates; anything else
 * after it leaves the line in the document).
 */

import { GoYamlError } from './errors.js';

export interface SplitDocuments {
  docs: string[];
  /** The 0-based line of the text each document starts at. */
  firstLines: number[];
  /** Whether any separator line was seen (go-jsonnet returns an array then). */
  sawSeparator: boolean;
}

export function splitYamlDocuments(text: string, separator: 'apimachinery' | 'go-jsonnet'): SplitDocuments {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const docs: string[] = [];
  const firstLines: number[] = [];
  let sawSeparator = false;
  let buffer = '';
  let first = 0;
  for (const [index, raw] of lines.entries()) {
    const line = (raw.endsWith('\r') ? raw.slice(0, -1) : raw) + '\n';
    let isSeparator = false;
    if (line.startsWith('---')) {
      const after = line.slice(3).trim();
      if (separator === 'go-jsonnet') isSeparator = after === '';
      else if (after === '' || after[0] === '#') isSeparator = true;
      else throw new GoYamlError(`invalid Yaml document separator: ${after}`, 'syntax', undefined, index + 1);
    }
    if (isSeparator) {
      sawSeparator = true;
      if (buffer.length > 0) {
        docs.push(buffer);
        firstLines.push(first);
        buffer = '';
        continue;
      }
    }
    if (buffer.length === 0) first = index;
    buffer += line;
  }
  if (buffer.length > 0) {
    docs.push(buffer);
    firstLines.push(first);
  }
  return { docs, firstLines, sawSeparator };
}
