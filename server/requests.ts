/**
 * Requests in flight, by the client-chosen requestId: `request/cancel` and a
 * client hang-up both abort through here. Also counts what status reports.
 */
export class InFlight {
  private readonly active = new Map<string, AbortController>();
  served = 0;

  /** Registers a request; returns undefined when the id is already in flight. */
  begin(requestId: string): AbortController | undefined {
    if (this.active.has(requestId)) return undefined;
    const ctl = new AbortController();
    this.active.set(requestId, ctl);
    return ctl;
  }

  end(requestId: string, ctl: AbortController): void {
    if (this.active.get(requestId) === ctl) this.active.delete(requestId);
    this.served++;
  }

  /** Counts a plain (non-streamed) request as served. */
  countServed(): void {
    this.served++;
  }

  cancel(requestId: string): boolean {
    const ctl = this.active.get(requestId);
    if (!ctl) return false;
    ctl.abort();
    return true;
  }

  cancelAll(): void {
    for (const ctl of this.active.values()) ctl.abort();
  }

  get size(): number {
    return this.active.size;
  }
}
