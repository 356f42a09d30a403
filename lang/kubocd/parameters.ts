/**
 * Release.spec.parameters as a template. The API server stores the
 * parameters as JSON, so the template text is their JSON serialization (Go's
 * json.Marshal: sorted keys, HTML-escaped), where quotes inside actions read
 * \". When that text does not parse, it is parsed again with the actions as
 * their author wrote them; this second parse accepts only actions whose
 * characters outside comments are printable and not backslashes, once \"
 * is read as a quote and \t, \n, \r between words as whitespace; its error,
 * if any, is reported. When the actions do not qualify, the first parse error stays. The rendered text must decode as a map.
 */

import { marshalJson } from '../gotemplate/sprig/encoding.js';
import { KubocdError } from './errors.js';
import { KubocdTemplate } from './template.js';
import { parseYaml } from './yaml.js';

const ESCAPED_SPACE: Record<string, string> = { t: '\t', n: '\n', r: '\r' };

function isPrintable(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  if (c < 0x20 || c === 0x7f) return false;
  if (c >= 0x80 && c < 0xa0) return false;
  return !/[\p{Cc}\p{Cs}\p{Co}\p{Cn}\u2028\u2029]/u.test(ch);
}

/**
 * The stored JSON text with its actions unescaped, or undefined when an
 * action holds a character the second parse does not accept.
 */
export function unescapeActions(text: string): string | undefined {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{{', i);
    if (open < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, open + 2);
    i = open + 2;
    // A comment action: kept as is up to its end.
    const afterTrim = /^(- )?\/\*/.exec(text.slice(i, i + 4));
    if (afterTrim) {
      const end = text.indexOf('*/', i + afterTrim[0].length);
      if (end < 0) return undefined;
      out += text.slice(i, end + 2);
      i = end + 2;
      continue;
    }
    let quote: '"' | '`' | "'" | undefined;
    let closed = false;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === '\\') {
        const next = text[i + 1];
        if (next === '"') {
          if (quote === undefined) quote = '"';
          else if (quote === '"') quote = undefined;
          out += '"';
          i += 2;
          continue;
        }
        if (next !== undefined && ESCAPED_SPACE[next] !== undefined && quote === undefined) {
          out += ESCAPED_SPACE[next];
          i += 2;
          continue;
        }
        return undefined;
      }
      if (!isPrintable(ch)) return undefined;
      if (quote === undefined && (ch === '`' || ch === "'")) quote = ch;
      else if (quote !== undefined && ch === quote && quote !== '"') quote = undefined;
      if (quote === undefined && text.startsWith('}}', i)) {
        out += '}}';
        i += 2;
        closed = true;
        break;
      }
      out += ch;
      i++;
    }
    if (!closed) return undefined;
  }
  return out;
}

/** The data Release.spec.parameters sees. */
export interface ParametersData {
  Release: unknown;
  Context: unknown;
  ImageRedirects: unknown;
}

/** Parses the parameters template (with the second parse). Throws `could not create template from parameters: ...`. */
export function compileParameters(parameters: unknown): KubocdTemplate {
  const text = parameters === undefined || parameters === null ? '{}' : marshalJson(parameters, { escapeHTML: true });
  try {
    return KubocdTemplate.compile(text, '', { packageTemplate: false });
  } catch (first) {
    if (!(first instanceof KubocdError)) throw first;
    const second = unescapeActions(text);
    let err = first;
    if (second !== undefined && second !== text) {
      try {
        return KubocdTemplate.compile(second, '', { packageTemplate: false });
      } catch (e) {
        if (!(e instanceof KubocdError)) throw e;
        // The actions read as written: their own error is the one their author can act on.
        err = e;
      }
    }
    throw err.within('could not create template from parameters');
  }
}

/**
 * Renders Release.spec.parameters into a map (Go data). Throws KubocdError:
 * `could not render parameters: line 1, column 12: ...`, or a YAML problem of the rendered text.
 */
export function renderParameters(parameters: unknown, data: ParametersData): Record<string, unknown> {
  const template = compileParameters(parameters);
  try {
    const text = template.render({ Release: data.Release, Context: data.Context, ImageRedirects: data.ImageRedirects });
    const v = parseYaml(text, 'the rendered text');
    if (v === null) return {};
    if (typeof v !== 'object' || Array.isArray(v))
      throw new KubocdError('the rendered text is not a map', 'KUBOCD_MANIFEST');
    return v as Record<string, unknown>;
  } catch (e) {
    if (e instanceof KubocdError) throw e.within('could not render parameters');
    throw e;
  }
}
