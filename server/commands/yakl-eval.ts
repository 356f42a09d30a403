/**
 * `eval -o jsonnet FILE.yakl`: the file's Jsonnet laid out to be read,
 * without evaluating it or reading its imports. When an expression does not
 * parse, the result is the unformatted generated code together with the
 * located error (YaklJsonnetSyntaxError), so the user sees both; any other
 * YAKL error comes back with no code.
 */
import { YaklError, YaklJsonnetSyntaxError, yaklToReadableJsonnet } from '../../lang/yakl/index.js';

export interface ReadableYakl {
  /** What to print on stdout ('' when there is nothing to show). */
  code: string;
  error?: YaklError;
}

export function readableYakl(file: string, bytes: Uint8Array): ReadableYakl {
  const text = new TextDecoder('utf-8').decode(bytes);
  try {
    return { code: yaklToReadableJsonnet(file, text) };
  } catch (err) {
    if (err instanceof YaklJsonnetSyntaxError) {
      const code = err.generated.endsWith('\n') || err.generated === '' ? err.generated : err.generated + '\n';
      return { code, error: err };
    }
    if (err instanceof YaklError) return { code: '', error: err };
    throw err;
  }
}
