/**
 * The remote service's three methods, for one authenticated tenant:
 * `missing` (which digests to upload), `upload` (store checked blobs) and
 * `render`: refuse what cannot run remotely, require every manifest blob,
 * answer from the tenant's result cache when the manifest gives the same
 * answers to the cached render's dependencies, refuse a poison input in its
 * cool-down, wait for a slot, materialise the work directory, run the child
 * under limits, remove the directory, cache and return.
 *
 * Invariants: nothing a tenant sends reaches another tenant (blob store,
 * result cache and backoff keys all carry the tenant); the work directory's
 * absolute path is rewritten out of every text returned (hazard 26); the
 * child's own stderr never reaches the client.
 */
import { stableDigest } from '../../cache/index.js';
import {
  BLOB_MAX_BYTES,
  commandOfMethod,
  RemoteErrorCodes,
  UPLOAD_BATCH_MAX_BYTES,
  type CommandParams,
  type RemoteMissingResult,
  type RemoteRenderParams,
  type RemoteRenderResult,
  type RemoteUploadParams,
  type RemoteUploadResult,
} from '../../protocol/index.js';
import type { Logger } from '../logger.js';
import type { CommandName } from '../worker/messages.js';
import { Admission, BusyError } from './admission.js';
import { BlobError, BlobStore } from './blob-store.js';
import type { ChildLimits, ChildPool, KillReason } from './child-runner.js';
import { FailureBackoff } from './failure-backoff.js';
import { ManifestView } from './manifest-view.js';
import { relativeDeps, RemoteResults } from './remote-results.js';
import type { RemoteMetrics } from './remote-metrics.js';
import type { TenantConfig } from './tenants.js';
import { materialise, WorkdirError } from './workdir.js';

export class RemoteError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface RenderServiceOptions {
  store: BlobStore;
  workBase: string;
  limits: ChildLimits;
  pool: ChildPool;
  admission: Admission;
  results: RemoteResults;
  backoff: FailureBackoff;
  metrics: RemoteMetrics;
  logger: Logger;
  buildId: string;
}

/** Flags whose values are code; bound as strings unless the tenant allows code (hazard 23). */
const CODE_FLAGS: readonly [string, string][] = [
  ['ext-code', 'ext-str'],
  ['tla-code', 'tla-str'],
];

function killMessage(reason: KillReason, limits: ChildLimits): string {
  switch (reason) {
    case 'timeout':
      return `render timed out: it ran longer than the ${limits.wallMs / 1000}s wall-clock limit and was stopped`;
    case 'cpu':
      return `render stopped: it used more than the ${limits.cpuSeconds}s CPU-time limit`;
    case 'memory':
      return `render stopped: it ran out of memory (limit ${limits.heapMb} MiB heap)`;
    case 'output':
      return `render stopped: its output is larger than the ${limits.outputBytes}-byte limit (nothing partial is returned)`;
    case 'crash':
      return 'render process crashed (for example: input too deeply nested); the service keeps serving';
  }
}

export class RenderService {
  draining = false;

  constructor(private readonly opts: RenderServiceOptions) {}

  missing(tenant: TenantConfig, digests: string[]): RemoteMissingResult {
    const { missing, presentBytes } = this.opts.store.check(tenant.name, digests);
    // The bytes the client did not have to send: the upload savings metric.
    this.opts.metrics.uploadBytesSaved.inc([tenant.name], presentBytes);
    return { missing };
  }

  upload(tenant: TenantConfig, params: RemoteUploadParams): RemoteUploadResult {
    let stored = 0;
    let bytes = 0;
    for (const [i, blob] of params.blobs.entries()) {
      const data = Buffer.from(blob.data, 'base64');
      if (data.byteLength > BLOB_MAX_BYTES)
        throw new RemoteError(RemoteErrorCodes.BadUpload, `blobs[${i}]: larger than the ${BLOB_MAX_BYTES}-byte limit`);
      bytes += data.byteLength;
      if (bytes > UPLOAD_BATCH_MAX_BYTES)
        throw new RemoteError(RemoteErrorCodes.BadUpload, `upload batch larger than ${UPLOAD_BATCH_MAX_BYTES} bytes`);
      try {
        if (this.opts.store.put(tenant.name, blob.digest, data)) stored++;
      } catch (err) {
        if (err instanceof BlobError) throw new RemoteError(RemoteErrorCodes.BadUpload, `blobs[${i}]: ${err.message}`);
        throw err;
      }
    }
    this.opts.metrics.uploadBytes.inc([tenant.name], bytes);
    return { stored, bytes };
  }

  /** Adjusts the request for remote execution; returns warnings for the render's stderr. */
  private prepare(tenant: TenantConfig, params: CommandParams): { params: CommandParams; warnings: string[] } {
    const flags = { ...params.flags };
    const warnings: string[] = [];
    for (const name of ['export-dir', 'watch', 'jurl']) {
      if (flags[name] !== undefined)
        throw new RemoteError(RemoteErrorCodes.Refused, `--${name} is not available in a remote render`);
    }
    if (!tenant.allowCode) {
      for (const [code, asString] of CODE_FLAGS) {
        const values = flags[code];
        if (!Array.isArray(values) || values.length === 0) continue;
        flags[asString] = [...(Array.isArray(flags[asString]) ? (flags[asString] as string[]) : []), ...values];
        delete flags[code];
        warnings.push(`WARNING --${code} values are bound as strings: this tenant does not allow code from requests\n`);
      }
    }
    // Only the tenant's list may widen where imports go: a request cannot open the service's own network.
    delete flags['allow-import-host'];
    if (tenant.importHosts.length) flags['allow-import-host'] = [...tenant.importHosts];
    // The environment means nothing on the service (no cluster credentials live here).
    return { params: { ...params, flags, env: {} }, warnings };
  }

  async render(tenant: TenantConfig, request: RemoteRenderParams): Promise<RemoteRenderResult> {
    if (this.draining) throw new RemoteError(RemoteErrorCodes.Draining, 'the render service is shutting down; retry');
    const command = commandOfMethod(request.method) as CommandName | undefined;
    if (!command) throw new RemoteError(RemoteErrorCodes.Refused, `${request.method} cannot run remotely`);
    const { params, warnings } = this.prepare(tenant, request.params);
    const missing = this.opts.store.missing(tenant.name, Object.values(request.manifest));
    if (missing.length)
      throw new RemoteError(RemoteErrorCodes.MissingBlobs, `${missing.length} input blobs are missing; upload them`, {
        missing,
      });
    const view = new ManifestView(request.manifest);
    const { requestId: _id, cwd, ...rest } = params;
    const key = stableDigest({ command, cwd, ...rest, allowCode: tenant.allowCode, buildId: this.opts.buildId });
    const hit = this.opts.results.get(tenant.name, key, view);
    if (hit) {
      this.opts.metrics.cacheHits.inc([tenant.name]);
      return { ...hit, stderr: warnings.join('') + hit.stderr, cached: true };
    }
    this.opts.metrics.cacheMisses.inc([tenant.name]);
    const poisonKey = `${tenant.name}\0${key}\0${view.digest()}`;
    const refused = this.opts.backoff.refused(poisonKey);
    if (refused)
      throw new RemoteError(
        RemoteErrorCodes.Backoff,
        `this input failed ${refused.failures} times (last: ${refused.lastReason}); not rendered again before ${new Date(refused.until).toISOString()}; change the input to retry at once`,
      );
    let slot;
    try {
      slot = await this.opts.admission.acquire(tenant);
    } catch (err) {
      if (err instanceof BusyError) throw new RemoteError(RemoteErrorCodes.Busy, err.message);
      throw err;
    }
    this.opts.metrics.observeQueueWait(slot.waitedMs / 1000);
    let workdir;
    try {
      try {
        workdir = materialise(this.opts.workBase, this.opts.store, tenant.name, request.manifest);
      } catch (err) {
        if (err instanceof WorkdirError) throw new RemoteError(RemoteErrorCodes.Refused, err.message);
        throw err;
      }
      const root = workdir.dir;
      const childParams: CommandParams = { ...params, cwd: cwd === '.' ? root : `${root}/${cwd}` };
      const result = await this.opts.pool.run(tenant, {
        command,
        params: childParams,
        root,
        outputBytes: this.opts.limits.outputBytes,
      });
      if (result.kind === 'killed') {
        this.opts.metrics.kills.inc([result.reason]);
        const state = this.opts.backoff.recordFailure(poisonKey, result.reason);
        // The child's stderr tail goes to the operator's log (debug) only, never to the client.
        this.opts.logger.info(
          { tenant: tenant.name, reason: result.reason, signal: result.signal, failures: state.failures },
          'render child stopped',
        );
        this.opts.logger.debug({ tenant: tenant.name, stderrTail: result.stderrTail }, 'render child stderr');
        throw new RemoteError(RemoteErrorCodes.LimitExceeded, killMessage(result.reason, this.opts.limits), {
          reason: result.reason,
        });
      }
      this.opts.backoff.recordSuccess(poisonKey);
      const scrub = (text: string): string =>
        text
          .split(root + '/')
          .join('')
          .split(root)
          .join('.');
      const reply = result.reply;
      const output = { exitCode: reply.exitCode, stdout: scrub(reply.stdout), stderr: scrub(reply.stderr) };
      if (reply.cacheable) {
        const deps = relativeDeps(reply.deps, root, view);
        if (deps) this.opts.results.set(tenant.name, key, deps, output);
      }
      return { ...output, stderr: warnings.join('') + output.stderr, cached: false };
    } finally {
      workdir?.remove();
      slot.release();
    }
  }
}
