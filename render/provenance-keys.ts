/** kubecfg's provenance annotation keys (utils/acquire.go). */
export const PROVENANCE_FILE_ANNOTATION = 'kubecfg.github.com/provenance-file';
export const PROVENANCE_PATH_ANNOTATION = 'kubecfg.github.com/provenance-path';
