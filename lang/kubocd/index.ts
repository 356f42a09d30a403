/**
 * Public API of lang/kubocd: the KuboCD v0.4 safe template profile, Release
 * rendering and package dumps (user guide: docs/kubocd.md).
 * Pure: every input comes in memory; DNS answers, when allowed, come from an
 * injected resolver (synchronous in DnsPolicy, asynchronous in renderReleaseResolvingDns).
 */

export { KubocdError, type KubocdErrorCode } from './errors.js';
export { MAX_TEXT_BYTES, MAX_UNTIL_ITEMS, WITHHELD } from './limits.js';
export { SPRIG_FUNCTIONS, type DnsPolicy } from './functions.js';
export { KubocdTemplate, kubocdProfile, deepCopy, type TemplateProfileOptions } from './template.js';
export { imageRedirect, redirectsOf, type ImageRedirect } from './image-redirect.js';
export { parseYaml, parseYamlDocuments, toJsonValue, type YamlSubject } from './yaml.js';
export { loadPackage, readPackageManifest, type KubocdPackage, type CompiledPackage } from './package.js';
export { compileParameters, renderParameters, unescapeActions } from './parameters.js';
export { dumpPackage, type PackageDump } from './dump.js';
export {
  renderRelease,
  type ReleaseRenderInput,
  type ReleaseRenderResult,
  type OutputFile,
  type RenderedModule,
} from './render.js';
export { renderReleaseResolvingDns, type DnsLookup } from './dns.js';
