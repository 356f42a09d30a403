/**
 * Memo of one object's output text, keyed by the object's exact content, so
 * a render that prints mostly the same objects as the last one (the daemon's
 * worker after a one-file edit) formats only the objects that changed.
 *
 * Invariants:
 *  - never stale: the key is the object's whole content (JSON.stringify, which
 *    is injective on JSON values except for -0, NaN and ±Infinity; a value
 *    holding one of those is formatted without the memo), and the formatters
 *    memoised here depend on nothing but that content;
 *  - bounded: two generations of at most `maxChars` characters (keys plus
 *    texts) each; a full generation becomes the old one and the older one is
 *    dropped, so what the last render printed stays while unused text goes;
 *  - a formatter that throws caches nothing (its error is raised every time).
 * Pure: no I/O; one memo per output format lives as long as the process.
 */
import type { JsonValue } from '../../lang/common/json.js';

export interface TextMemoStats {
  hits: number;
  misses: number;
  entries: number;
  chars: number;
}

class NotMemoisable extends Error {}

/** Refuses the numbers JSON.stringify would merge with others (-0 → "0", NaN/Infinity → "null"). */
function exactNumbersOnly(_key: string, v: unknown): unknown {
  if (typeof v === 'number' && (v === 0 ? 1 / v < 0 : !Number.isFinite(v))) throw new NotMemoisable();
  return v;
}

/**
 * A bare `0` or `null` in JSON text (after `:`, `,` or `[`, before `,`, `}` or `]`): only there can
 * the text stand for -0, NaN or an infinity. It may also match inside a string; then the slower
 * exact check just runs for nothing.
 */
const AMBIGUOUS_TOKEN = /[:,[](?:0|null)[,}\]]/;

/** The exact-content key of a value, or undefined when JSON text cannot tell it from another value. */
export function contentKey(value: JsonValue): string | undefined {
  // Scalars are cheap to format, and a lone `0` or `null` would escape the check below.
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    // A replacer makes JSON.stringify 1.5-3x slower: run it only when the plain text is ambiguous.
    const text = JSON.stringify(value);
    if (!AMBIGUOUS_TOKEN.test(text)) return text;
    return JSON.stringify(value, exactNumbersOnly);
  } catch {
    // NotMemoisable, or too deep for JSON.stringify (RangeError): the formatter reports depth its own way.
    return undefined;
  }
}

export class TextMemo {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();
  private currentChars = 0;
  private previousChars = 0;
  private hits = 0;
  private misses = 0;

  constructor(private readonly maxChars: number) {}

  /** `format(value)`, from the memo when an object of the same content was formatted before. */
  text(value: JsonValue, format: (value: JsonValue) => string): string {
    const key = contentKey(value);
    if (key === undefined) return format(value);
    let text = this.current.get(key);
    if (text !== undefined) {
      this.hits++;
      return text;
    }
    text = this.previous.get(key);
    if (text !== undefined) {
      this.hits++;
    } else {
      this.misses++;
      text = format(value);
    }
    this.remember(key, text);
    return text;
  }

  clear(): void {
    this.current = new Map();
    this.previous = new Map();
    this.currentChars = this.previousChars = 0;
  }

  stats(): TextMemoStats {
    return {
      hits: this.hits,
      misses: this.misses,
      entries: this.current.size + this.previous.size,
      chars: this.currentChars + this.previousChars,
    };
  }

  private remember(key: string, text: string): void {
    const size = key.length + text.length;
    if (size > this.maxChars) return;
    if (this.currentChars + size > this.maxChars) {
      this.previous = this.current;
      this.previousChars = this.currentChars;
      this.current = new Map();
      this.currentChars = 0;
    }
    this.current.set(key, text);
    this.currentChars += size;
  }
}
