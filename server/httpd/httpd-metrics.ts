/**
 * GET /metrics of `kubecfg httpd`, in Prometheus text format: requests by
 * path and HTTP status, and evaluation time by path. Paths are labelled only
 * for the served routes (anything else counts as `other`), so a client
 * probing random URLs cannot grow the table without bound.
 */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export class HttpdMetrics {
  private readonly requests = new Map<string, number>();
  private readonly durations = new Map<string, { counts: number[]; sum: number; count: number }>();

  constructor(private readonly routes: ReadonlySet<string>) {}

  private pathLabel(path: string): string {
    return this.routes.has(path) ? path : 'other';
  }

  observe(path: string, status: number, seconds: number): void {
    const p = this.pathLabel(path);
    const key = `${p}\u0000${status}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    if (!this.routes.has(path)) return;
    let h = this.durations.get(p);
    if (!h) this.durations.set(p, (h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) h.counts[i]!++;
    });
    h.sum += seconds;
    h.count++;
  }

  /** How many requests got `status` on `path` (tests and the final log line). */
  count(path: string, status: number): number {
    return this.requests.get(`${this.pathLabel(path)}\u0000${status}`) ?? 0;
  }

  render(): string {
    const lines = [
      '# HELP kubecfg_httpd_requests_total HTTP requests by path and status.',
      '# TYPE kubecfg_httpd_requests_total counter',
    ];
    for (const [key, n] of [...this.requests].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const [path, status] = key.split('\u0000');
      lines.push(`kubecfg_httpd_requests_total{path="${label(path!)}",status="${status}"} ${n}`);
    }
    lines.push(
      '# HELP kubecfg_httpd_request_duration_seconds Time to answer a hook request, by path.',
      '# TYPE kubecfg_httpd_request_duration_seconds histogram',
    );
    for (const [path, h] of this.durations) {
      const p = label(path);
      BUCKETS.forEach((b, i) =>
        lines.push(`kubecfg_httpd_request_duration_seconds_bucket{path="${p}",le="${b}"} ${h.counts[i]}`),
      );
      lines.push(`kubecfg_httpd_request_duration_seconds_bucket{path="${p}",le="+Inf"} ${h.count}`);
      lines.push(`kubecfg_httpd_request_duration_seconds_sum{path="${p}"} ${h.sum}`);
      lines.push(`kubecfg_httpd_request_duration_seconds_count{path="${p}"} ${h.count}`);
    }
    return lines.join('\n') + '\n';
  }
}
