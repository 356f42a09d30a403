/**
 * The remote service's three methods, for one authenticated tenant:
 * `missing` (which digests to upload), `upload` (store checked blobs) and
 * `render`: refuse what cannot run remotely, require every manifest blob,
 * answer from the tenant's result cache when the manifest gives the same
 * answers to the cached render's dependencies, refuse a poison input in its
 * cool-down, wait for a slot, materialise the work directory, run the child
 * under limits in fetch rounds (remote inputs are fetched here, in the
 * parent, under the tenant's strict import-host list; the child gets them in
 * its next request), remove the directory, cache and return. A request whose
 * client went away (signal) leaves the queue or has its child killed.
 *
 * Invariants: nothing a tenant sends reaches another tenant (blob store,
 * result cache and backoff keys all carry the tenant; fetched bodies are
 * shared only between identical import-host lists, bundles by digest after
 * the registry host is checked for this tenant); a cached result that used a
 * remote input is served only after that input is re-checked; the work directory's
 * paths are rewritten out of every text returned (path-redactor.ts, hazard 26); the
 * child's own stderr never reaches the client.
 */
import { stableDigest, type FileDepJson } from '../../cache/index.js';
import {
  BLOB_MAX_BYTES,
  commandOfMethod,
  ErrorCodes,
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
import { Admission, BusyError, CancelledError } from './admission.js';
import { BlobError, BlobStore } from './blob-store.js';
import type { ChildLimits, ChildPool, ChildResult, KillReason } from './child-runner.js';
import { FailureBackoff } from './failure-backoff.js';
import { ManifestView } from './manifest-view.js';
import { relativeDeps, RemoteResults, type RemoteFacts, type Variant } from './remote-results.js';
import type { RemoteMetrics } from './remote-metrics.js';
import type { TenantConfig } from './tenants.js';
import { decodeReport, encodeSnapshot } from './snapshot-codec.js';
import type { RemoteInputs } from '../remote-inputs/remote-fetcher.js';
import type { FetchPolicy } from '../remote-inputs/remote-types.js';
import type { CommandName, CommandOutcome } from '../worker/messages.js';
import { materialise, WorkdirError } from './workdir.js';
import type { Fleet } from './fleet.js';
import { renderLockKey, type HeldLock } from './render-lock.js';
import type { PathRedactor } from './path-redactor.js';
import { pathOutsideRoot } from './request-paths.js';

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
  /** Rewrites the service's paths out of results before they are cached (and shared with replicas). */
  redactor: PathRedactor;
  workBase: string;
  limits: ChildLimits;
  pool: ChildPool;
  admission: Admission;
  results: RemoteResults;
  backoff: FailureBackoff;
  metrics: RemoteMetrics;
  logger: Logger;
  buildId: string;
  /** Fetches remote inputs between render rounds (bodies cached by URL and allow-list, bundles by digest). */
  remoteInputs: RemoteInputs;
  /** What replicas share through Redis (blobs, results, the render lock); absent for a lone replica. */
  fleet?: Fleet;
}

type RoundsOutcome =
  | {
      kind: 'done';
      exitCode: number;
      stdout: string;
      stderr: string;
      cacheable: boolean;
      deps: FileDepJson[];
      remote?: RemoteFacts;
    }
  | Exclude<ChildResult, { kind: 'done' }>;

/** Ends the fetch rounds early: the child was stopped or the request cancelled. */
class RoundStopped extends Error {
  constructor(readonly result: Exclude<ChildResult, { kind: 'done' }>) {
    super('render round stopped');
  }
}

/**
 * What a tenant's fetches may do, whatever the child reported: reach only the tenant's import
 * hosts (each hop, after DNS), with no registry credentials (the service holds none).
 */
function tenantPolicy(tenant: TenantConfig, reported: FetchPolicy): FetchPolicy {
  return {
    allowHosts: [...tenant.importHosts],
    onlyAllowedHosts: true,
    insecureRegistries: [...reported.insecureRegistries],
    ociTagTtlMs: reported.ociTagTtlMs,
  };
}

function cancelled(): RemoteError {
  return new RemoteError(ErrorCodes.RequestCancelled, 'the client went away; the render was stopped');
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
    case 'address-space':
      return `render stopped: a native allocation failed under the ${limits.addressSpaceMb} MiB address-space limit (the heap limit is ${limits.heapMb} MiB)`;
    case 'output':
      return `render stopped: its output is larger than the ${limits.outputBytes}-byte limit (nothing partial is returned)`;
    case 'diagnostics':
      return `render stopped: its messages on stderr (std.trace output, error text) are larger than the ${limits.outputBytes}-byte output limit (nothing partial is returned)`;
    case 'crash':
      return 'render process crashed (for example: input too deeply nested); the service keeps serving';
  }
}

export class RenderService {
  draining = false;

  constructor(private readonly opts: RenderServiceOptions) {}

  async missing(tenant: TenantConfig, digests: string[]): Promise<RemoteMissingResult> {
    const local = this.opts.store.check(tenant.name, digests);
    let { missing, presentBytes } = local;
    if (this.opts.fleet && missing.length) {
      // Blobs another replica received count as held: they are copied down at render time.
      const shared = await this.opts.fleet.blobs.sizes(tenant.name, missing);
      missing = missing.filter((d) => !shared.has(d));
      for (const n of shared.values()) presentBytes += n;
    }
    // The bytes the client did not have to send: the upload savings metric.
    this.opts.metrics.uploadBytesSaved.inc([tenant.name], presentBytes);
    return { missing };
  }

  async upload(tenant: TenantConfig, params: RemoteUploadParams): Promise<RemoteUploadResult> {
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
      // Checked by the local store above; shared so a runner landing on another replica sends nothing.
      await this.opts.fleet?.blobs.push(tenant.name, blob.digest, data);
    }
    this.opts.metrics.uploadBytes.inc([tenant.name], bytes);
    return { stored, bytes };
  }

  /** Adjusts the request for remote execution; returns warnings for the render's stderr. */
  private prepare(tenant: TenantConfig, params: CommandParams): { params: CommandParams; warnings: string[] } {
    const flags = { ...params.flags };
    const warnings: string[] = [];
    for (const name of ['export-dir', 'watch']) {
      if (flags[name] !== undefined)
        throw new RemoteError(RemoteErrorCodes.Refused, `--${name} is not available in a remote render`);
    }
    if (!tenant.allowCode) {
      for (const [code, asString] of CODE_FLAGS) {
        const values = flags[code];
        if (!Array.isArray(values) || values.length === 0) continue;
        flags[asString] = [...(Array.isArray(flags[asString]) ? flags[asString] : []), ...values];
        delete flags[code];
        warnings.push(`WARNING --${code} values are bound as strings: this tenant does not allow code from requests\n`);
      }
    }
    const outside = pathOutsideRoot(params);
    if (outside) throw new RemoteError(RemoteErrorCodes.Refused, `${outside} is outside the upload root`);
    // Only the tenant's list may widen where imports go: a request cannot open the service's own network.
    delete flags['allow-import-host'];
    if (tenant.importHosts.length) flags['allow-import-host'] = [...tenant.importHosts];
    // The environment means nothing on the service (no cluster credentials live here).
    return { params: { ...params, flags, env: {} }, warnings };
  }

  /** True when every remote fact a cached result used still holds (checked under the tenant's current list). */
  private async remoteStillValid(tenant: TenantConfig, hit: Variant): Promise<boolean> {
    if (!hit.remote?.deps.length) return true;
    return this.opts.remoteInputs.stillValid(hit.remote.deps, tenantPolicy(tenant, hit.remote.policy));
  }

  async render(tenant: TenantConfig, request: RemoteRenderParams, signal?: AbortSignal): Promise<RemoteRenderResult> {
    if (this.draining) throw new RemoteError(RemoteErrorCodes.Draining, 'the render service is shutting down; retry');
    const command = commandOfMethod(request.method) as CommandName | undefined;
    if (!command) throw new RemoteError(RemoteErrorCodes.Refused, `${request.method} cannot run remotely`);
    const { params, warnings } = this.prepare(tenant, request.params);
    let missing = this.opts.store.missing(tenant.name, Object.values(request.manifest));
    if (missing.length && this.opts.fleet) {
      await this.opts.fleet.blobs.pull(tenant.name, missing);
      missing = this.opts.store.missing(tenant.name, Object.values(request.manifest));
    }
    if (missing.length)
      throw new RemoteError(RemoteErrorCodes.MissingBlobs, `${missing.length} input blobs are missing; upload them`, {
        missing,
      });
    const view = new ManifestView(request.manifest);
    const { requestId: _id, cwd, ...rest } = params;
    const key = stableDigest({ command, cwd, ...rest, allowCode: tenant.allowCode, buildId: this.opts.buildId });
    const served = (hit: Variant): RemoteRenderResult => {
      this.opts.metrics.cacheHits.inc([tenant.name]);
      return { ...hit.output, stderr: warnings.join('') + hit.output.stderr, cached: true };
    };
    const hit = await this.cachedResult(tenant, key, view);
    if (hit) return served(hit);
    this.opts.metrics.cacheMisses.inc([tenant.name]);
    const poisonKey = `${tenant.name}\0${key}\0${view.digest()}`;
    const refused = this.opts.backoff.refused(poisonKey);
    if (refused)
      throw new RemoteError(
        RemoteErrorCodes.Backoff,
        `this input failed ${refused.failures} times (last: ${refused.lastReason}); not rendered again before ${new Date(refused.until).toISOString()}; change the input to retry at once`,
      );
    let lock: HeldLock | undefined;
    const fleet = this.opts.fleet;
    if (fleet) {
      // One render per key across the fleet: the others wait for its result.
      const lockKey = renderLockKey(fleet.link, tenant.name, key, view.digest());
      const waitMs = this.opts.limits.wallMs + this.opts.limits.graceMs + 5_000;
      for (let attempt = 0; attempt < 3 && !lock; attempt++) {
        const got = await fleet.lock.tryAcquire(lockKey);
        if (got === 'down') break;
        if (got !== 'held') {
          lock = got;
          break;
        }
        this.opts.metrics.lockWaits.inc([tenant.name]);
        const found = await fleet.lock.waitFor(lockKey, () => this.cachedResult(tenant, key, view), waitMs, signal);
        if (signal?.aborted) throw cancelled();
        if (found) return served(found);
      }
    }
    try {
      return await this.renderLocked(
        tenant,
        { command, params, cwd, key, view, poisonKey, warnings, manifest: request.manifest },
        signal,
      );
    } finally {
      await lock?.release();
    }
  }

  /**
   * The cached variant this manifest answers alike, from this replica's cache or the fleet's
   * (then kept here too), after its remote facts are re-checked; a stale one is dropped from both.
   */
  private async cachedResult(tenant: TenantConfig, key: string, view: ManifestView): Promise<Variant | undefined> {
    const local = this.opts.results.get(tenant.name, key, view);
    const fleet = this.opts.fleet;
    const hit = local ?? (await fleet?.results.get(tenant.name, key, view));
    if (!hit) return undefined;
    if (await this.remoteStillValid(tenant, hit)) {
      if (!local) {
        this.opts.metrics.sharedCacheHits.inc([tenant.name]);
        this.opts.results.set(tenant.name, key, hit.deps, hit.output, hit.remote);
      }
      return hit;
    }
    // A URL body or a tag moved: this variant is stale for everyone.
    if (local) this.opts.results.drop(tenant.name, key, local);
    await fleet?.results.drop(tenant.name, key, hit);
    return undefined;
  }

  private async renderLocked(
    tenant: TenantConfig,
    req: {
      command: CommandName;
      params: CommandParams;
      cwd: string;
      key: string;
      view: ManifestView;
      poisonKey: string;
      warnings: string[];
      manifest: Record<string, string>;
    },
    signal: AbortSignal | undefined,
  ): Promise<RemoteRenderResult> {
    const { command, params, cwd, key, view, poisonKey, warnings } = req;
    let slot;
    try {
      slot = await this.opts.admission.acquire(tenant, signal);
    } catch (err) {
      if (err instanceof BusyError) throw new RemoteError(RemoteErrorCodes.Busy, err.message);
      if (err instanceof CancelledError) throw cancelled();
      throw err;
    }
    this.opts.metrics.observeQueueWait(slot.waitedMs / 1000);
    let workdir;
    try {
      try {
        workdir = materialise(this.opts.workBase, this.opts.store, tenant.name, req.manifest);
      } catch (err) {
        if (err instanceof WorkdirError) throw new RemoteError(RemoteErrorCodes.Refused, err.message);
        throw err;
      }
      const root = workdir.dir;
      const childParams: CommandParams = { ...params, cwd: cwd === '.' ? root : `${root}/${cwd}` };
      this.opts.metrics.renders.inc([tenant.name]);
      const outcome = await this.runRounds(tenant, { command, params: childParams, root }, signal);
      if (outcome.kind === 'cancelled') {
        this.opts.metrics.kills.inc(['cancelled']);
        this.opts.logger.info({ tenant: tenant.name }, 'render cancelled: the client went away');
        throw cancelled();
      }
      if (outcome.kind === 'killed') {
        this.opts.metrics.kills.inc([outcome.reason]);
        const state = this.opts.backoff.recordFailure(poisonKey, outcome.reason);
        // The child's stderr tail goes to the operator's log (debug) only, never to the client.
        this.opts.logger.info(
          { tenant: tenant.name, reason: outcome.reason, signal: outcome.signal, failures: state.failures },
          'render child stopped',
        );
        this.opts.logger.debug({ tenant: tenant.name, stderrTail: outcome.stderrTail }, 'render child stderr');
        throw new RemoteError(RemoteErrorCodes.LimitExceeded, killMessage(outcome.reason, this.opts.limits), {
          reason: outcome.reason,
        });
      }
      this.opts.backoff.recordSuccess(poisonKey);
      const { redactor } = this.opts;
      const output = {
        exitCode: outcome.exitCode,
        stdout: redactor.output(outcome.stdout),
        stderr: redactor.errorText(outcome.stderr),
      };
      if (outcome.cacheable) {
        const deps = relativeDeps(outcome.deps, root, view);
        if (deps) {
          this.opts.results.set(tenant.name, key, deps, output, outcome.remote);
          // Complete, and stored before the fleet lock is released: waiters find it at once.
          const variant: Variant = outcome.remote?.deps.length
            ? { deps, output, remote: outcome.remote }
            : { deps, output };
          await this.opts.fleet?.results.add(tenant.name, key, variant);
        }
      }
      return { ...output, stderr: warnings.join('') + output.stderr, cached: false };
    } finally {
      workdir?.remove();
      slot.release();
    }
  }

  /**
   * The fetch rounds of one request (server/remote-inputs/remote-fetcher.ts): the child renders
   * with the snapshot so far and names what it still needs; this process fetches it under the
   * tenant's strict allow-list and runs the child again. The wall-clock limit covers the child
   * time of all rounds together.
   */
  private async runRounds(
    tenant: TenantConfig,
    job: { command: CommandName; params: CommandParams; root: string },
    signal: AbortSignal | undefined,
  ): Promise<RoundsOutcome> {
    const { limits, pool, remoteInputs } = this.opts;
    let spentMs = 0;
    let stopped: Exclude<ChildResult, { kind: 'done' }> | undefined;
    let lastDeps: FileDepJson[] = [];
    const outcome = await remoteInputs
      .run(async (snapshot): Promise<CommandOutcome> => {
        if (spentMs >= limits.wallMs) throw new RoundStopped({ kind: 'killed', reason: 'timeout' });
        const started = performance.now();
        const result = await pool.run(
          tenant,
          {
            ...job,
            outputBytes: limits.outputBytes,
            ...(Object.keys(snapshot).length > 0 ? { remote: encodeSnapshot(snapshot) } : {}),
          },
          { wallMs: limits.wallMs - spentMs, ...(signal ? { signal } : {}) },
        );
        spentMs += performance.now() - started;
        if (result.kind !== 'done') throw new RoundStopped(result);
        const { reply } = result;
        lastDeps = reply.deps;
        const report = reply.remote === undefined ? undefined : decodeReport(reply.remote);
        return {
          exitCode: reply.exitCode,
          stdout: reply.stdout,
          stderr: reply.stderr,
          deps: [],
          cacheable: reply.cacheable,
          ...(report ? { remote: { ...report, policy: tenantPolicy(tenant, report.policy) } } : {}),
        };
      }, signal)
      .catch((err: unknown) => {
        if (!(err instanceof RoundStopped)) throw err;
        stopped = err.result;
        return undefined;
      });
    if (stopped) return stopped;
    if (!outcome || signal?.aborted) return { kind: 'cancelled' };
    const remote = outcome.remote?.deps.length
      ? { deps: outcome.remote.deps, policy: outcome.remote.policy }
      : undefined;
    return {
      kind: 'done',
      exitCode: outcome.exitCode,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      cacheable: outcome.cacheable,
      deps: lastDeps,
      ...(remote ? { remote } : {}),
    };
  }
}
