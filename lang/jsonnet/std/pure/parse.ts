/**
 * std.parseJson and std.parseYaml (each in its own file: parse-json.ts holds
 * the Go encoding/json emulation, parse-yaml.ts the go-yaml v2 emulation).
 */
export { parseJson } from './parse-json.js';
export { parseYaml } from './parse-yaml.js';
