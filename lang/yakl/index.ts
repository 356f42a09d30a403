/**
 * Public API of lang/yakl, the YAKL compiler (YAML with Jsonnet
 * expressions): compileYakl for evaluation, yaklToReadableJsonnet for
 * `eval -o jsonnet`, formatYakl for `yaklfmt`. Every bad input throws a
 * YaklError with file, line, column and reason; nothing else escapes.
 */
export {
  type CompiledYakl,
  type FileShape,
  KUBECFG_PRELUDE,
  YaklError,
  YaklJsonnetSyntaxError,
  compileYakl,
  yaklToReadableJsonnet,
} from './compile.js';
export { formatYaklText as formatYakl } from './fmt.js';
