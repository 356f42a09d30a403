/**
 * A size-rotated log destination for pino: appends synchronously to
 * daemon.log; past `maxBytes` it shifts daemon.log → .1 → .2 … (keeping
 * `keep` old files) and starts a new one. Synchronous writes keep ordering
 * simple and lose nothing on a crash; the daemon logs a few lines per request.
 * Invariant: write() never throws (a full disk must not take the daemon down).
 */
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export class RotatingLogFile {
  private fd: number | null = null;
  private size = 0;
  writeErrors = 0;

  constructor(
    readonly path: string,
    private readonly maxBytes = 10 * 1024 * 1024,
    private readonly keep = 3,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.open();
  }

  private open(): void {
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private rotate(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    for (let i = this.keep - 1; i >= 1; i--) {
      try {
        renameSync(`${this.path}.${i}`, `${this.path}.${i + 1}`);
      } catch {
        // that generation does not exist yet
      }
    }
    try {
      renameSync(this.path, `${this.path}.1`);
    } catch {
      // nothing to rotate
    }
    this.open();
  }

  write(chunk: string): boolean {
    try {
      const bytes = Buffer.byteLength(chunk);
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      if (this.fd === null) this.open();
      writeSync(this.fd!, chunk);
      this.size += bytes;
    } catch {
      this.writeErrors++;
    }
    return true;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
