/**
 * The daemon's build id: dist/build-id.json, written by scripts/build.mjs
 * next to the emitted code (this file runs from dist/server/). The CLI bundle
 * carries the same id; hello compares them (hazard 27). Run from sources
 * (tsx) there is no such file, and the id is 'unbundled'. Tests of version
 * skew may set KUBECFG_DAEMON_TEST_BUILD_ID, honoured only together with
 * KUBECFG_DAEMON_TEST_HOOKS=1.
 */
import { readFileSync } from 'node:fs';

export function daemonBuildId(): string {
  const forced = process.env.KUBECFG_DAEMON_TEST_BUILD_ID;
  if (process.env.KUBECFG_DAEMON_TEST_HOOKS === '1' && forced) return forced;
  try {
    const raw = JSON.parse(readFileSync(new URL('../build-id.json', import.meta.url), 'utf8')) as { buildId?: unknown };
    return typeof raw.buildId === 'string' && raw.buildId !== '' ? raw.buildId : 'unbundled';
  } catch {
    return 'unbundled';
  }
}
