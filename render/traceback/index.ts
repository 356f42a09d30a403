/** Public API of render/traceback: the pure half of `kubecfg traceback` (rendered YAML line → value path). */
export { TracebackError } from './errors.js';
export { formatValuePath, parseValuePath } from './value-path.js';
export {
  itemIndex,
  listItemIndex,
  parseFileLine,
  targetSteps,
  tracebackTarget,
  type ObjectIdentity,
  type TracebackTarget,
} from './target.js';
export { lineToPath, type LineTarget } from './yaml-line.js';
