/**
 * The pure native functions of kubecfg's Jsonnet library (utils/nativefuncs.go),
 * in the shape of the Jsonnet engine's `natives` option. Arguments arrive as
 * manifested JSON values; a wrong argument type is a RenderError (kubecfg
 * itself would crash on a failed Go type assertion). Errors carry the native's
 * name and kubecfg's own error text.
 * parseHelmChart lives in helm-chart.ts (it needs the Helm engine),
 * validateJSONSchema in json-schema/, resolveImage in resolve-image.ts (the
 * default here is kubecfg's default --resolve-images=noop).
 */

import type { JsonValue } from '../../lang/common/json.js';
import { RenderError } from '../errors.js';
import type { RenderErrorCode } from '../errors.js';
import { unmarshal as goJsonUnmarshal } from '../../lang/go/encoding-json.js';
import { goParseYamlStream } from './go-yaml-parse.js';
import { goManifestJson, goManifestYaml } from './manifest.js';
import { goMatchString, goQuoteMeta, goReplaceAllString } from '../../lang/go/regexp/go-regexp.js';
import { goTypeName } from '../../lang/go/fmt.js';
import { parseHelmChartNative } from './helm-chart.js';
import { makeResolveImageNative } from './resolve-image.js';
import { validateJsonSchema } from './json-schema/validate-json-schema.js';

export interface NativeFunction {
  params: string[];
  fn: (args: JsonValue[]) => JsonValue;
}

function stringArg(native: string, param: string, v: JsonValue | undefined): string {
  if (typeof v !== 'string') {
    throw new RenderError(
      'RENDER_BAD_ARGUMENT',
      `${native}: parameter ${param} must be a string, got ${goTypeName(v ?? null)}`,
    );
  }
  return v;
}

function numberArg(native: string, param: string, v: JsonValue | undefined): number {
  if (typeof v !== 'number') {
    throw new RenderError(
      'RENDER_BAD_ARGUMENT',
      `${native}: parameter ${param} must be a number, got ${goTypeName(v ?? null)}`,
    );
  }
  return v;
}

/** Runs a native body, turning its failures into RenderErrors that name the native. */
function guarded(native: string, code: RenderErrorCode, body: () => JsonValue): JsonValue {
  try {
    return body();
  } catch (e) {
    if (e instanceof RenderError) throw e;
    if (e instanceof RangeError && /call stack/i.test(e.message))
      throw new RenderError('RENDER_TOO_DEEP', `${native}: input too deeply nested`);
    const message = e instanceof Error ? e.message : String(e);
    throw new RenderError(code, `${native}: ${message}`);
  }
}

export const kubecfgNatives: Record<string, NativeFunction> = {
  parseHelmChart: parseHelmChartNative,
  resolveImage: makeResolveImageNative('noop'),
  validateJSONSchema: {
    params: ['obj', 'schema'],
    fn: ([obj, schema]) =>
      guarded('validateJSONSchema', 'RENDER_BAD_ARGUMENT', () => validateJsonSchema(obj ?? null, schema ?? null)),
  },
  parseJson: {
    params: ['json'],
    fn: ([json]) => {
      const text = stringArg('parseJson', 'json', json);
      return guarded('parseJson', 'RENDER_PARSE_JSON', () => goJsonUnmarshal(text));
    },
  },
  parseYaml: {
    params: ['yaml'],
    fn: ([yaml]) => {
      const text = stringArg('parseYaml', 'yaml', yaml);
      return guarded('parseYaml', 'RENDER_PARSE_YAML', () => goParseYamlStream(text));
    },
  },
  manifestJson: {
    params: ['json', 'indent'],
    fn: ([value, indent]) => {
      const n = Math.trunc(numberArg('manifestJson', 'indent', indent));
      if (n < 0) throw new RenderError('RENDER_BAD_ARGUMENT', 'manifestJson: parameter indent must not be negative');
      return guarded('manifestJson', 'RENDER_UNSUPPORTED_VALUE', () => goManifestJson(value ?? null, n));
    },
  },
  manifestYaml: {
    params: ['json'],
    fn: ([value]) => guarded('manifestYaml', 'RENDER_UNSUPPORTED_VALUE', () => goManifestYaml(value ?? null)),
  },
  escapeStringRegex: {
    params: ['str'],
    fn: ([str]) => goQuoteMeta(stringArg('escapeStringRegex', 'str', str)),
  },
  regexMatch: {
    params: ['regex', 'string'],
    fn: ([regex, string]) => {
      const pattern = stringArg('regexMatch', 'regex', regex);
      const subject = stringArg('regexMatch', 'string', string);
      return guarded('regexMatch', 'RENDER_REGEX', () => goMatchString(pattern, subject));
    },
  },
  regexSubst: {
    params: ['regex', 'src', 'repl'],
    fn: ([regex, src, repl]) => {
      const pattern = stringArg('regexSubst', 'regex', regex);
      const source = stringArg('regexSubst', 'src', src);
      const replacement = stringArg('regexSubst', 'repl', repl);
      return guarded('regexSubst', 'RENDER_REGEX', () => goReplaceAllString(pattern, source, replacement));
    },
  },
};
