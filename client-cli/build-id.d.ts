/** Defined by scripts/build.mjs (esbuild `define`) when bundling the CLI; absent in tsc output. */
declare const __KUBECFG_BUILD_ID__: string;
