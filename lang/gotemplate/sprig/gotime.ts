/**
 * time.Time as a template value: Go's time package (lang/go/time.ts) behind
 * the GoObject interface, so templates can call .Unix, .Year, .Format, .UTC
 * and print it as Go does.
 */
import { GoObject } from '../value.js';
import { formatTime, parseTime, parts, UTC, type Time, type Zone } from '../../go/time.js';

export class GoTime extends GoObject implements Time {
  constructor(
    /** Milliseconds since the Unix epoch. */
    readonly ms: number,
    readonly zone: Zone = UTC,
    /** Nanoseconds within the millisecond (0-999999), kept for %v fidelity. */
    readonly extraNs = 0,
  ) {
    super();
  }
  goType(): string {
    return 'time.Time';
  }
  format(): string {
    return formatTime(this, '2006-01-02 15:04:05.999999999 -0700 MST');
  }
  toJSONValue(): string {
    return formatTime(this, '2006-01-02T15:04:05.999999999Z07:00');
  }
  unix(): number {
    return Math.floor(this.ms / 1000);
  }
  field(name: string): unknown {
    switch (name) {
      case 'Unix':
        return () => this.unix();
      case 'Year':
        return () => parts(this).year;
      case 'Format':
        return (layout: unknown) => formatTime(this, String(layout));
      case 'UTC':
        return () => new GoTime(this.ms, UTC, this.extraNs);
      case 'String':
        return () => this.format();
    }
    return undefined;
  }
}

/** time.Parse, as a template value. */
export function parseGoTime(layout: string, value: string, loc: Zone = UTC): GoTime {
  const t = parseTime(layout, value, loc);
  return new GoTime(t.ms, t.zone, t.extraNs);
}
