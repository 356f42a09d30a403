/**
 * The README's `npx kubecfg` lines run as written on a fresh clone: each one
 * runs in bash, in a fresh copy of examples/, through a daemon of its own
 * sandbox (as a user's first call starts one), with `npx kubecfg` meaning the
 * built CLI. Lines whose comment says `needs` (a cluster, registry or web
 * server) or `until Ctrl-C` are not run, but every examples/ path they name
 * must exist.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BUILT, CLI, collect, REPO_ROOT, Sandbox } from '../daemon/harness.js';

interface ReadmeLine {
  readonly command: string;
  readonly comment: string;
}

/** The `npx kubecfg` lines of the README's sh blocks, the set-up's `npm ci && ` dropped. */
function readmeLines(text: string): ReadmeLine[] {
  const out: ReadmeLine[] = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split('\n')) {
      const line = raw.replace(/^npm ci && /, '');
      if (!line.startsWith('npx kubecfg ')) continue;
      const m = /^(.*?)\s+#\s(.*)$/.exec(line);
      out.push(m ? { command: m[1]!, comment: m[2]! } : { command: line, comment: '' });
    }
  }
  return out;
}

const runnable = (l: ReadmeLine): boolean => !/\bneeds\b|until Ctrl-C/.test(l.comment);

const lines = readmeLines(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));

describe('README commands', { skip: BUILT ? false : 'not built' }, () => {
  const sandbox = new Sandbox();
  after(() => sandbox.cleanup());

  it('the README has lines of both kinds', () => {
    assert.ok(lines.filter(runnable).length >= 10, JSON.stringify(lines));
    assert.ok(lines.some((l) => !runnable(l)));
  });

  for (const line of lines) {
    it(`names only existing example files: ${line.command}`, () => {
      for (const path of line.command.match(/examples\/[\w./-]+/g) ?? [])
        assert.ok(existsSync(join(REPO_ROOT, path)), `${path} does not exist`);
    });
  }

  for (const line of lines.filter(runnable)) {
    it(`runs: ${line.command}`, async () => {
      const dir = mkdtempSync(join(sandbox.root, 'readme-'));
      cpSync(join(REPO_ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
      const script = `npx() { [ "$1" = kubecfg ] || return 127; shift; "$KCFG_NODE" "$KCFG_CLI" "$@"; }\nset -e\n${line.command}\n`;
      const child = spawn('bash', ['-c', script], {
        cwd: dir,
        env: { ...sandbox.env, KCFG_NODE: process.execPath, KCFG_CLI: CLI },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const r = await collect(child);
      assert.equal(r.code, 0, `exit ${r.code}\n${r.stderr}`);
      const outDir = /--(?:export-dir|out) (\S+)/.exec(line.command)?.[1];
      if (outDir !== undefined) assert.notDeepEqual(readdirSync(join(dir, outDir)), []);
      else assert.notEqual(r.stdout, '', r.stderr);
    });
  }
});
