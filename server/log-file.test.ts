import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RotatingLogFile } from './log-file.js';

describe('rotating log file', () => {
  it('rotates by size and keeps a bounded number of old files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kcfg-log-'));
    try {
      const path = join(dir, 'nested', 'daemon.log');
      const log = new RotatingLogFile(path, 100, 2);
      for (let i = 0; i < 10; i++) log.write(`line ${i} ${'x'.repeat(40)}\n`);
      log.close();
      assert.ok(statSync(path).size <= 100);
      assert.ok(existsSync(`${path}.1`));
      assert.ok(existsSync(`${path}.2`));
      assert.equal(existsSync(`${path}.3`), false);
      assert.match(readFileSync(path, 'utf8'), /line 9/);
      assert.equal(statSync(path).mode & 0o777, 0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
