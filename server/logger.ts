/**
 * The daemon's pino logger writing JSON lines to the rotated log file.
 * Secrets never reach the log: the TCP token is never passed to the logger,
 * and `authorization` headers are redacted defensively in case a request
 * object is ever logged.
 */
import { pino, type Logger } from 'pino';
import { RotatingLogFile } from './log-file.js';

export type { Logger };

export function createLogger(file: RotatingLogFile, level = 'info'): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'token'], censor: '[redacted]' },
    },
    file,
  );
}
