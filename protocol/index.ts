/**
 * The wire contract between the `kubecfg` CLI and the daemon. Imports nothing
 * outside this folder (not even node:*), so both ends and the bundle can use it.
 */
export * from './version.js';
export * from './errors.js';
export * from './validate.js';
export * from './commands.js';
export * from './methods.js';
export * from './remote.js';
export * from './log-line.js';
