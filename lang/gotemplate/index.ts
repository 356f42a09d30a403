/**
 * Public API of the Go text/template engine: parse a template set, execute
 * templates, pick a function profile. Pure: no filesystem, environment or
 * clock access (the clock and random source are injected via options).
 */

import { builtinProfile } from './funcs.js';
import type { FunctionProfile } from './function.js';
import { sprigProfile } from './sprig/profile.js';
import { helmProfile } from './helmfuncs/profile.js';

export { TemplateError, FuncError, type TemplateErrorCode } from './errors.js';
export { TemplateSet, parseTemplate } from './template.js';
export type { TemplateOptions, MissingKey } from './option.js';
export { DEFAULT_MAX_OUTPUT_BYTES, seededRandom } from './option.js';
export { FunctionProfile, def, pure, type FuncDef, type FuncContext, type ParamType } from './function.js';
export { GoFloat, GoObject, goFloat } from './value.js';
export { sprintf, sprint, sprintln, formatValue } from './fmt/print.js';

export const profiles: { builtin: FunctionProfile; sprig: FunctionProfile; helm: FunctionProfile } = {
  builtin: builtinProfile,
  sprig: sprigProfile,
  helm: helmProfile,
};

export { helmErrorMessage, readYaml, INCLUDE_RECURSION_MAX } from './helmfuncs/profile.js';
export { jsonToGoData } from './sprig/encoding.js';
export { marshalYaml } from './helmfuncs/yaml-emit.js';
export { MAX_SEQUENCE_ITEMS } from './sprig/lists.js';
