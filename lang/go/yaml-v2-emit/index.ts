/**
 * go-yaml v2 in TypeScript: the Marshal emitter (with the two options in
 * which its users differ: number text and key order variant) and the
 * implicit-typing rules of resolve.go that decide quoting.
 */

export { marshalYaml, YamlMapSlice, type YamlEmitOptions, type YamlValue } from './emitter.js';
export { goYamlKeyLess, sortYamlKeys } from './key-order.js';
export { isBase60Float, isGoYamlTimestamp, resolvesToNonString } from './resolve.js';
