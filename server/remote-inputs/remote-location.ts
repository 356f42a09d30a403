/**
 * Which locations are remote inputs (http(s)://, oci://, data:) rather than
 * local paths: asked by the importer, by commands about their main input,
 * and by the fetch round before it starts a session.
 */
import { isDataUrl } from './data-url.js';

const HTTP_URL = /^https?:\/\//i;
const OCI_URL = /^oci:\/\//;

export function isHttpUrl(location: string): boolean {
  return HTTP_URL.test(location);
}

export function isOciUrl(location: string): boolean {
  return OCI_URL.test(location);
}

/** True for locations that are not local paths (the main input of a command may be one). */
export function isRemoteLocation(location: string): boolean {
  return isHttpUrl(location) || isOciUrl(location) || isDataUrl(location);
}
