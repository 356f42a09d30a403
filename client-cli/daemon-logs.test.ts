import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { printLogs, readableLogLine, tailLines } from './daemon-logs.js';

const dir = mkdtempSync(join(tmpdir(), 'kcfg-logs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const pinoLine = (msg: string, extra: Record<string, unknown> = {}, level = 30): string =>
  JSON.stringify({ level, time: '2026-12-03T10:37:52.069Z', pid: 7, ...extra, msg });

async function until(what: string, probe: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (probe()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('readableLogLine', () => {
  const cases: [string, string, string][] = [
    [
      'info with fields',
      pinoLine('daemon ready', { workers: 2, tcp: null }),
      '2026-12-03T10:37:52.069Z INFO  daemon ready pid=7 workers=2 tcp=null',
    ],
    [
      'error, quoted values',
      pinoLine('worker replaced', { reason: 'out of memory', code: 'ERR_X', empty: '' }, 50),
      '2026-12-03T10:37:52.069Z ERROR worker replaced pid=7 reason="out of memory" code=ERR_X empty=""',
    ],
    [
      'object values as JSON',
      pinoLine('x', { req: { id: 1 } }, 40),
      '2026-12-03T10:37:52.069Z WARN  x pid=7 req={"id":1}',
    ],
    ['not JSON: untouched', 'node: some fatal text', 'node: some fatal text'],
    ['JSON but not an object: untouched', '[1,2]', '[1,2]'],
  ];
  for (const [name, line, want] of cases) it(name, () => assert.equal(readableLogLine(line), want));

  it('colours the level word only when asked', () => {
    assert.equal(
      readableLogLine(pinoLine('boom', {}, 50), true),
      '2026-12-03T10:37:52.069Z \u001b[31mERROR\u001b[0m boom pid=7',
    );
  });
});

describe('printLogs', () => {
  it('prints the last lines, raw with json', async () => {
    const file = join(dir, 'tail.log');
    writeFileSync(file, [1, 2, 3].map((i) => pinoLine(`m${i}`)).join('\n') + '\n');
    assert.deepEqual(tailLines(file, 2), [pinoLine('m2'), pinoLine('m3')]);
    let out = '';
    await printLogs(file, { lines: 2, format: 'json', follow: false, color: false, write: (t) => (out += t) });
    assert.equal(out, `${pinoLine('m2')}\n${pinoLine('m3')}\n`);
    out = '';
    await printLogs(file, { lines: 1, format: 'text', follow: false, color: false, write: (t) => (out += t) });
    assert.equal(out, '2026-12-03T10:37:52.069Z INFO  m3 pid=7\n');
  });

  it('-f follows appended lines, a half-written line once complete, and the rotation', async () => {
    const file = join(dir, 'daemon.log');
    writeFileSync(file, pinoLine('before') + '\n');
    let out = '';
    const controller = new AbortController();
    const done = printLogs(file, {
      lines: 10,
      format: 'json',
      follow: true,
      color: false,
      write: (t) => (out += t),
      signal: controller.signal,
      pollMs: 10,
    });
    await until('the first line', () => out.includes('before'));
    appendFileSync(file, pinoLine('appended') + '\n' + pinoLine('half').slice(0, 10));
    await until('the appended line', () => out.includes('appended'));
    assert.ok(!out.includes('"half'), 'a partial line waits for its end');
    appendFileSync(file, pinoLine('half').slice(10) + '\n' + pinoLine('last in old file') + '\n');
    // The daemon's rotation: daemon.log → daemon.log.1, then a new daemon.log.
    renameSync(file, `${file}.1`);
    writeFileSync(file, pinoLine('first in new file') + '\n');
    await until('the new file', () => out.includes('first in new file'));
    controller.abort();
    await done;
    assert.deepEqual(
      out.trimEnd().split('\n'),
      ['before', 'appended', 'half', 'last in old file', 'first in new file'].map((m) => pinoLine(m)),
    );
  });

  it('-f waits for a log that does not exist yet', async () => {
    const file = join(dir, 'later.log');
    let out = '';
    const controller = new AbortController();
    const done = printLogs(file, {
      lines: 5,
      format: 'text',
      follow: true,
      color: false,
      write: (t) => (out += t),
      signal: controller.signal,
      pollMs: 10,
    });
    writeFileSync(file, pinoLine('hello') + '\n');
    await until('the line', () => out.includes('hello'));
    controller.abort();
    await done;
    assert.equal(out, '2026-12-03T10:37:52.069Z INFO  hello pid=7\n');
  });

  it('without -f, a missing log is an error', async () => {
    await assert.rejects(
      printLogs(join(dir, 'none.log'), { lines: 5, format: 'text', follow: false, color: false, write: () => {} }),
      /ENOENT/,
    );
  });
});
