/**
 * Cleat, the typed configuration language (user guide: docs/cleat.md).
 * Pure: files come through a CleatLoader, inputs as decoded values or text.
 * See docs/cleat.md for the API and the error codes.
 */
export { check, exportProgram } from './program.js';
export type {
  CheckResult,
  CleatSource,
  ComponentSummary,
  ExportOptions,
  ExportResult,
  InputSummary,
} from './program.js';
export type { CleatLoader } from './context.js';
export type { InputSources } from './inputs.js';
export { parseSet } from './inputs.js';
export type { FluxOptions } from './targets.js';
export { CleatCodes, CleatError, formatDiagnostic } from './diagnostics.js';
export { isInsideRoot, normalizePath, resolveImportPath } from './paths.js';
export { decodeValue } from './decode.js';
export { generateSchemaTypes } from './gen.js';
export { argocdParameterAnnouncements } from './argocd.js';
export { yamlNeedsQuotes } from './serialize.js';
