/** Defined by scripts/build.mjs (esbuild `define`) when bundling the CLI; absent in tsc output. */
declare const __KUBECFG_BUILD_ID__: string;
/** Defined (true) by scripts/build.mjs only for the copy of the CLI bundle that goes into the startup snapshot. */
declare const __KUBECFG_SNAPSHOT_BUILD__: boolean;
