/**
 * Entry of the remote render service (`node dist/server/remote/main.js
 * --listen 0.0.0.0:8443 --tls-cert C --tls-key K --tokens F`; docs/remote.md).
 * Logs are JSON lines on stdout (pino). `gen-token` prints a fresh 256-bit
 * token and its SHA-256 for the tokens file.
 *
 * SIGTERM/SIGINT drain: /readyz turns 503, new renders are refused with
 * "draining" (clients retry once, landing on another replica), renders in
 * flight finish (up to --drain-timeout), then the listener closes and the
 * work directories are removed. A second signal exits at once.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { daemonBuildId } from '../build-id.js';
import { OptionsError } from '../options.js';
import { Admission } from './admission.js';
import { createRemoteApp } from './app.js';
import { BlobStore } from './blob-store.js';
import { ChildPool, type ChildLimits } from './child-runner.js';
import { FailureBackoff } from './failure-backoff.js';
import { RemoteMetrics } from './remote-metrics.js';
import { parseRemoteOptions } from './remote-options.js';
import { RemoteResults } from './remote-results.js';
import { RenderService } from './render-service.js';
import { Tenants, TenantsError, tokenSha256Hex } from './tenants.js';
import { RemoteInputs } from '../remote-inputs/remote-fetcher.js';
import { Fleet } from './fleet.js';
import { PathRedactor } from './path-redactor.js';

process.umask(0o077);

/** The package's directory (above dist/ when compiled): an internal error's stack names files there. */
function installDir(): string {
  const up = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
  return basename(up) === 'dist' ? dirname(up) : up;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'gen-token') {
    const token = randomBytes(32).toString('hex');
    process.stdout.write(`token:       ${token}\ntokenSha256: ${tokenSha256Hex(token)}\n`);
    return 0;
  }
  const options = parseRemoteOptions(argv, process.env);
  const logger = pino({
    level: options.logLevel,
    base: { pid: process.pid, service: 'kubecfg-remote' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'token'], censor: '[redacted]' },
  });
  const tenants = Tenants.load(options.tokens);
  // Leftovers of a killed predecessor: nobody else uses this directory.
  rmSync(options.workDir, { recursive: true, force: true });
  const store = new BlobStore(options.storeDir, options.blobStoreMb * 1024 * 1024);
  const metrics = new RemoteMetrics();
  const admission = new Admission(options.maxRenders, options.queueWaitMs);
  const results = new RemoteResults(options.resultCacheMb * 1024 * 1024);
  const limits: ChildLimits = {
    wallMs: options.renderTimeoutMs,
    graceMs: options.killGraceMs,
    cpuSeconds: options.cpuSeconds,
    heapMb: options.renderMemoryMb,
    addressSpaceMb: options.addressSpaceMb,
    outputBytes: options.outputBytes,
  };
  const pool = new ChildPool(options.workDir, limits);
  // Remote inputs of every tenant's renders are fetched here, never in a render child.
  const remoteInputs = new RemoteInputs({ cacheDir: options.fetchCacheDir });
  const fleet = options.redisUrl
    ? new Fleet(
        {
          redisUrl: options.redisUrl,
          redisTimeoutMs: options.redisTimeoutMs,
          keyPrefix: options.redisKeyPrefix,
          ttlMs: options.sharedTtlMs,
          maxEntryBytes: options.sharedEntryBytes,
          // Renewed every third of it while rendering; a dead holder frees the key within this.
          lockLeaseMs: 10_000,
        },
        store,
        logger,
      )
    : undefined;
  if (fleet) fleet.link.onFailure = (op) => metrics.redisErrors.inc([op]);
  const redactor = new PathRedactor({
    workBase: options.workDir,
    labelled: {
      '<blob store>': options.storeDir,
      '<fetch cache>': options.fetchCacheDir,
      '<kubecfg>': installDir(),
    },
  });
  const service = new RenderService({
    store,
    redactor,
    workBase: options.workDir,
    limits,
    pool,
    admission,
    results,
    backoff: new FailureBackoff(options.failureThreshold, options.failureCooldownMs, Date.now),
    metrics,
    logger,
    buildId: daemonBuildId(),
    remoteInputs,
    ...(fleet ? { fleet } : {}),
  });
  const app = createRemoteApp({
    tls: { cert: readFileSync(options.tlsCert), key: readFileSync(options.tlsKey) },
    tenants,
    service,
    metrics,
    admission,
    results,
    logger,
    redactor,
    ...(fleet ? { fleet } : {}),
  });
  await app.listen({ host: options.listen.host, port: options.listen.port });
  const addr = app.server.address() as AddressInfo;
  logger.info(
    { address: `${addr.address}:${addr.port}`, tenants: tenants.names.length },
    'remote render service ready',
  );
  // One machine-readable line for supervisors and tests: the bound port.
  process.stderr.write(`READY ${addr.port}\n`);

  return new Promise<number>((resolve) => {
    let draining = false;
    const drain = async (signal: string): Promise<void> => {
      if (draining) {
        resolve(1);
        return;
      }
      draining = true;
      service.draining = true;
      logger.info({ signal }, 'draining');
      const deadline = Date.now() + options.drainTimeoutMs;
      while ((admission.inFlight > 0 || admission.waiting > 0) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      await app.close();
      pool.close();
      await remoteInputs.close();
      await fleet?.close();
      rmSync(options.workDir, { recursive: true, force: true });
      logger.info('stopped');
      resolve(0);
    };
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => void drain(sig));
  });
}

main().then(
  (code) => {
    process.exitCode = code;
    // pino's stdout stream flushes on its own; nothing else keeps the loop alive.
    setTimeout(() => process.exit(code), 100).unref();
  },
  (err: unknown) => {
    const known = err instanceof OptionsError || err instanceof TenantsError;
    process.stderr.write(
      `ERROR ${known ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  },
);
