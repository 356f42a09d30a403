/**
 * Rewrites the service's own absolute paths out of every text a tenant receives (hazard 26): the
 * one choke point app.ts passes each answer through (render stdout and stderr, error messages,
 * error data), whatever produced the text (the render's error messages and traces, an internal
 * error's stack, a limit message).
 *
 * - A path inside a request's work directory (`<work base>/<32 hex>`) becomes relative to it: the
 *   client's upload root, so `<root>/lib/a.libsonnet` reads `lib/a.libsonnet` and the root `.`.
 * - A path elsewhere in the service's state directory (the parent of the work base: the work base
 *   itself, the blob store, the fetch cache, whatever an operator put beside them) becomes relative
 *   to a request root, as the client would have typed it: `<work base>/x` is `../x`. Only in error
 *   text: rendered output is the user's data, and a value such as `/var/lib/x` in a ConfigMap
 *   stays as written.
 * - The blob store, the fetch cache and the service's install directory (an internal error's stack)
 *   are named by a label (`<blob store>/...`) wherever they appear.
 * Other absolute paths (`/etc/passwd` as a client typed it) name nothing of the service and stay.
 */
import { posix } from 'node:path';

/** An absolute path starting at a boundary (not inside a word, a URL or a relative path). */
const ABS_PATH = /(?<![\w.~:/@%+-])\/[^\s"'`:;,()[\]{}<>|*?\\]*/g;
const ROOT_NAME = /^[0-9a-f]{32}$/;

export interface RedactorDirs {
  /** Where request work directories are made (`<workBase>/<32 hex>`). */
  workBase: string;
  /** Directories named by a label wherever they appear: label → absolute directory. */
  labelled: Record<string, string>;
}

function under(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith('/') ? dir : dir + '/');
}

export class PathRedactor {
  private readonly workBase: string;
  private readonly privateDir: string;
  private readonly labelled: [string, string][];

  constructor(dirs: RedactorDirs) {
    this.workBase = posix.normalize(dirs.workBase).replace(/\/+$/, '') || '/';
    const parent = posix.dirname(this.workBase);
    // A work base right under / (or /tmp-like shared parents) would make every path "private".
    this.privateDir = parent === '/' ? this.workBase : parent;
    this.labelled = Object.entries(dirs.labelled)
      .map(([label, dir]): [string, string] => [label, posix.normalize(dir).replace(/\/+$/, '')])
      .filter(([, dir]) => dir !== '' && dir !== '/')
      // Longest first: a directory nested in another is named by its own label.
      .sort((a, b) => b[1].length - a[1].length);
  }

  /** Rendered output: only the work directories and the labelled directories are rewritten. */
  output(text: string): string {
    return this.rewrite(text, false);
  }

  /** Error text (stderr, messages, data): also any path in the service's state directory. */
  errorText(text: string): string {
    return this.rewrite(text, true);
  }

  /** Every string in a JSON value, as error text (messages and data of JSON-RPC errors). */
  value<T>(v: T): T {
    if (typeof v === 'string') return this.errorText(v) as T;
    if (Array.isArray(v)) return v.map((x: unknown) => this.value(x)) as T;
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = this.value(x);
      return out as T;
    }
    return v;
  }

  private rewrite(text: string, wide: boolean): string {
    if (!text.includes('/')) return text;
    return text.replace(ABS_PATH, (token) => {
      // A sentence's full stop is not part of the path.
      const body = token.replace(/\.+$/, '');
      const tail = token.slice(body.length);
      return this.path(body, wide) + tail;
    });
  }

  private path(raw: string, wide: boolean): string {
    const p = posix.normalize(raw);
    if (under(p, this.workBase) && p !== this.workBase) {
      const first = p.slice(this.workBase.length + 1).split('/')[0]!;
      if (ROOT_NAME.test(first)) return posix.relative(`${this.workBase}/${first}`, p) || '.';
    }
    for (const [label, dir] of this.labelled) if (under(p, dir)) return label + p.slice(dir.length);
    if (under(p, this.workBase) || (wide && under(p, this.privateDir)))
      return posix.relative(`${this.workBase}/${'0'.repeat(32)}`, p);
    return raw;
  }
}
