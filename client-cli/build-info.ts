/**
 * The CLI's build id: injected by the esbuild bundle. Unbundled (tsc output,
 * tests importing modules directly) the constant does not exist, so we answer
 * 'unbundled' instead of throwing a ReferenceError.
 */
export function cliBuildId(): string {
  return typeof __KUBECFG_BUILD_ID__ === 'string' ? __KUBECFG_BUILD_ID__ : 'unbundled';
}

/** kubecfg's own version string (package.json version of this reimplementation). */
export const KUBECFG_VERSION = '0.1.0';

/**
 * What `kubecfg version` prints as `jsonnet version:`: the go-jsonnet release whose semantics lang/jsonnet
 * implements, the one kubecfg's go.mod pins (github.com/google/go-jsonnet v0.20.0).
 */
export const JSONNET_VERSION = 'v0.20.0';
