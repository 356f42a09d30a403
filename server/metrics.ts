/**
 * Prometheus text exposition for GET /metrics: requests by method and outcome,
 * request durations (histogram), result-cache hits/misses/bytes, watched
 * files, worker replacements, heap and RSS. Hand-written: the format is small
 * and a client library would be a new dependency.
 */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

export interface GaugeSource {
  cache: { hits: number; misses: number; bytes: number; entries: number };
  watchedFiles: number;
  workersReplaced: number;
  inFlight: number;
}

function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly durations = new Map<string, Histogram>();
  private directWrites = 0;
  private directBytes = 0;

  /** A stdout the daemon wrote straight into a client's pipe (server/rpc/direct-stdout.ts). */
  wroteDirect(bytes: number): void {
    this.directWrites++;
    this.directBytes += bytes;
  }

  observe(method: string, outcome: 'ok' | 'error' | 'cancelled', seconds: number): void {
    const key = `${method}\u0000${outcome}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    let h = this.durations.get(method);
    if (!h) this.durations.set(method, (h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) h.counts[i]!++;
    });
    h.sum += seconds;
    h.count++;
  }

  render(g: GaugeSource): string {
    const lines: string[] = [];
    lines.push(
      '# HELP kubecfg_requests_total JSON-RPC requests by method and outcome.',
      '# TYPE kubecfg_requests_total counter',
    );
    for (const [key, n] of this.requests) {
      const [method, outcome] = key.split('\u0000');
      lines.push(`kubecfg_requests_total{method="${label(method!)}",outcome="${outcome}"} ${n}`);
    }
    lines.push(
      '# HELP kubecfg_request_duration_seconds Request duration by method.',
      '# TYPE kubecfg_request_duration_seconds histogram',
    );
    for (const [method, h] of this.durations) {
      const m = label(method);
      BUCKETS.forEach((b, i) =>
        lines.push(`kubecfg_request_duration_seconds_bucket{method="${m}",le="${b}"} ${h.counts[i]}`),
      );
      lines.push(`kubecfg_request_duration_seconds_bucket{method="${m}",le="+Inf"} ${h.count}`);
      lines.push(`kubecfg_request_duration_seconds_sum{method="${m}"} ${h.sum}`);
      lines.push(`kubecfg_request_duration_seconds_count{method="${m}"} ${h.count}`);
    }
    const mem = process.memoryUsage();
    const gauges: [string, string, string, number][] = [
      ['kubecfg_cache_hits_total', 'counter', 'Result cache hits.', g.cache.hits],
      ['kubecfg_cache_misses_total', 'counter', 'Result cache misses.', g.cache.misses],
      ['kubecfg_cache_bytes', 'gauge', 'Bytes held by the result cache.', g.cache.bytes],
      ['kubecfg_cache_entries', 'gauge', 'Entries in the result cache.', g.cache.entries],
      ['kubecfg_watched_files', 'gauge', 'Files watched for changes.', g.watchedFiles],
      [
        'kubecfg_workers_replaced_total',
        'counter',
        'Render workers replaced after a crash, OOM or cancel.',
        g.workersReplaced,
      ],
      ['kubecfg_requests_in_flight', 'gauge', 'Requests being served.', g.inFlight],
      [
        'kubecfg_output_direct_writes_total',
        'counter',
        "Outputs written straight into a client's stdout pipe.",
        this.directWrites,
      ],
      ['kubecfg_output_direct_bytes_total', 'counter', "Bytes written straight into clients' pipes.", this.directBytes],
      ['kubecfg_heap_used_bytes', 'gauge', 'V8 heap used by the main thread.', mem.heapUsed],
      ['kubecfg_resident_memory_bytes', 'gauge', 'Resident set size of the daemon.', mem.rss],
    ];
    for (const [name, type, help, value] of gauges)
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`);
    return lines.join('\n') + '\n';
  }
}
