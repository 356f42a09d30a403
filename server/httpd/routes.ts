/**
 * Which URL path serves which hook file: "/" + the path as given, without
 * its `.jsonnet` (or `.yakl`) suffix, as kubecfg registers them
 * (`sync.jsonnet` → `/sync`, `hooks/sync.jsonnet` → `/hooks/sync`); a
 * leading `./` is dropped and an absolute path keeps one leading slash.
 * Two files on one route, or a file on `/healthz` or `/metrics`, is a
 * start-up error.
 */
import { posix } from 'node:path';
import { HEALTH_PATH, METRICS_PATH } from '../../protocol/index.js';

export class RouteError extends Error {}

export function routeOf(file: string): string {
  const normal = posix.normalize(file).replace(/^\/+/, '');
  return '/' + normal.replace(/\.(jsonnet|yakl)$/, '');
}

/** Route → file, in argument order; throws RouteError on a clash. */
export function routeTable(files: readonly string[]): Map<string, string> {
  const table = new Map<string, string>();
  for (const file of files) {
    const route = routeOf(file);
    if (route === HEALTH_PATH || route === METRICS_PATH)
      throw new RouteError(`${file}: its route ${route} is the server's own (health or metrics); rename the file`);
    const other = table.get(route);
    if (other !== undefined) throw new RouteError(`${other} and ${file} would both be served at ${route}`);
    table.set(route, file);
  }
  return table;
}
