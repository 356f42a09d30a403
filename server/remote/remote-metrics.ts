/**
 * Prometheus text for the remote service (`GET /metrics`): requests by tenant
 * and outcome, queue wait (histogram), upload bytes received and saved (bytes
 * the client did not have to send because the tenant already held them),
 * result-cache hits and misses by tenant, child kills by reason, and the
 * renders running and queued. Tenant names come from the tokens file (a fixed
 * charset), so label values need no escaping beyond the standard one.
 */
const QUEUE_BUCKETS = [0.005, 0.05, 0.25, 1, 5, 15, 30, 60];

function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

class Counter {
  private readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labels: readonly string[],
  ) {}
  inc(labelValues: readonly string[], by = 1): void {
    const key = labelValues.map(label).join('\0');
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  get(labelValues: readonly string[]): number {
    return this.values.get(labelValues.map(label).join('\0')) ?? 0;
  }
  render(out: string[]): void {
    out.push(`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`);
    for (const [key, v] of [...this.values].sort()) {
      const parts = key.split('\0');
      out.push(`${this.name}{${this.labels.map((l, i) => `${l}="${parts[i]}"`).join(',')}} ${v}`);
    }
  }
}

export class RemoteMetrics {
  readonly requests = new Counter('kubecfg_remote_requests_total', 'Remote render requests by tenant and outcome', [
    'tenant',
    'outcome',
  ]);
  readonly uploadBytes = new Counter('kubecfg_remote_upload_bytes_total', 'Blob bytes received', ['tenant']);
  readonly uploadBytesSaved = new Counter(
    'kubecfg_remote_upload_bytes_saved_total',
    'Bytes of asked-for blobs the tenant already held (not uploaded)',
    ['tenant'],
  );
  readonly cacheHits = new Counter('kubecfg_remote_cache_hits_total', 'Result cache hits', ['tenant']);
  readonly cacheMisses = new Counter('kubecfg_remote_cache_misses_total', 'Result cache misses', ['tenant']);
  readonly kills = new Counter('kubecfg_remote_child_kills_total', 'Render children stopped, by reason', ['reason']);
  readonly renders = new Counter(
    'kubecfg_remote_renders_total',
    'Renders this replica ran (cache misses it rendered)',
    ['tenant'],
  );
  readonly sharedCacheHits = new Counter(
    'kubecfg_remote_shared_cache_hits_total',
    'Results found in the shared (Redis) cache after a local miss',
    ['tenant'],
  );
  readonly lockWaits = new Counter(
    'kubecfg_remote_render_lock_waits_total',
    'Renders that waited for another replica rendering the same key',
    ['tenant'],
  );
  readonly redisErrors = new Counter(
    'kubecfg_remote_redis_errors_total',
    'Redis operations that failed or timed out (the render went on without the shared cache)',
    ['op'],
  );
  private readonly waitBuckets = QUEUE_BUCKETS.map(() => 0);
  private waitSum = 0;
  private waitCount = 0;

  observeQueueWait(seconds: number): void {
    QUEUE_BUCKETS.forEach((b, i) => {
      if (seconds <= b) this.waitBuckets[i]!++;
    });
    this.waitSum += seconds;
    this.waitCount++;
  }

  render(gauges: {
    inFlight: number;
    queued: number;
    cacheEntries: number;
    cacheBytes: number;
    draining: boolean;
    /** Absent when the service runs without a shared Redis. */
    redis?: { up: boolean; pulledBytes: number; rejectedBlobs: number };
  }): string {
    const out: string[] = [];
    for (const c of [
      this.requests,
      this.uploadBytes,
      this.uploadBytesSaved,
      this.cacheHits,
      this.cacheMisses,
      this.kills,
      this.renders,
      this.sharedCacheHits,
      this.lockWaits,
      this.redisErrors,
    ])
      c.render(out);
    const h = 'kubecfg_remote_queue_wait_seconds';
    out.push(`# HELP ${h} Time a render waited for a slot`, `# TYPE ${h} histogram`);
    QUEUE_BUCKETS.forEach((b, i) => out.push(`${h}_bucket{le="${b}"} ${this.waitBuckets[i]}`));
    out.push(`${h}_bucket{le="+Inf"} ${this.waitCount}`, `${h}_sum ${this.waitSum}`, `${h}_count ${this.waitCount}`);
    const gauge = (name: string, help: string, v: number): void => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${v}`);
    };
    gauge('kubecfg_remote_renders_in_flight', 'Render children running', gauges.inFlight);
    gauge('kubecfg_remote_renders_queued', 'Renders waiting for a slot (the HPA scales on this)', gauges.queued);
    gauge('kubecfg_remote_cache_entries', 'Result cache entries', gauges.cacheEntries);
    gauge('kubecfg_remote_cache_bytes', 'Result cache bytes', gauges.cacheBytes);
    gauge('kubecfg_remote_draining', '1 while draining for shutdown', gauges.draining ? 1 : 0);
    if (gauges.redis) {
      gauge('kubecfg_remote_redis_up', '1 while the shared Redis answers', gauges.redis.up ? 1 : 0);
      gauge('kubecfg_remote_shared_blob_pulled_bytes', 'Blob bytes copied from Redis', gauges.redis.pulledBytes);
      gauge(
        'kubecfg_remote_shared_blob_rejected',
        'Blobs from Redis whose digest did not match',
        gauges.redis.rejectedBlobs,
      );
    }
    return out.join('\n') + '\n';
  }
}
