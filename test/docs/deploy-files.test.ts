/**
 * docker-compose.yml, deploy/kubecfg-remote.jsonnet and the Dockerfile agree
 * with the code: every flag they pass to the daemon or the remote service is
 * one its option parser accepts, every entry point they name exists in the
 * build, they name the image the Dockerfile describes, health checks have a
 * start_period, and the commands in the deploy file's header run as written.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { parseDaemonOptions } from '../../server/options.js';
import { parseRemoteOptions } from '../../server/remote/remote-options.js';
import { repoRoot } from '../support/repo-root.js';

const REPO_ROOT = repoRoot(import.meta.url);
const IMAGE = 'kubecfg:dev';
const CLI = join(REPO_ROOT, 'dist', 'bin', 'kubecfg.js');
const BUILT = existsSync(CLI);

type Parser = (args: readonly string[]) => unknown;
const ENTRY_POINTS: Record<string, Parser> = {
  'dist/server/main.js': (args) => parseDaemonOptions(args),
  'dist/server/remote/main.js': (args) => parseRemoteOptions(args, {}),
};

/** [entry point, its arguments] of a `node ENTRY ARGS...` command line, or undefined for another program. */
function nodeCommand(argv: readonly string[]): [string, string[]] | undefined {
  if (argv[0] !== 'node') return undefined;
  const entry = argv[1]!.replace(/^\/app\//, '');
  return [entry, argv.slice(2)];
}

function checkCommand(where: string, argv: readonly string[]): void {
  const cmd = nodeCommand(argv);
  if (cmd === undefined) return;
  const [entry, args] = cmd;
  const parser = ENTRY_POINTS[entry];
  assert.ok(parser !== undefined, `${where}: ${entry} is not a server entry point`);
  assert.ok(!BUILT || existsSync(join(REPO_ROOT, entry)), `${where}: ${entry} is not built`);
  assert.doesNotThrow(() => parser(args), `${where}: ${args.join(' ')}`);
}

describe('docker-compose.yml', () => {
  const compose = parseYaml(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, Record<string, unknown>>;
  };
  const ours = Object.entries(compose.services).filter(([, s]) => s['image'] === IMAGE);

  it('runs the daemon and the remote service from the image the Dockerfile builds', () => {
    assert.deepEqual(ours.map(([name]) => name).sort(), ['kubecfg-daemon', 'kubecfg-remote']);
    for (const [name, s] of ours) {
      assert.equal(s['build'], '.', `${name} builds the image`);
      const volumes = (s['volumes'] as string[] | undefined) ?? [];
      assert.ok(!volumes.some((v) => v.startsWith('./:')), `${name} does not bind-mount the checkout`);
    }
  });

  it('passes only flags the servers accept', () => {
    for (const [name, s] of ours) {
      const command = s['command'];
      assert.ok(Array.isArray(command), `${name}: command is a list (no shell)`);
      checkCommand(`compose service ${name}`, command as string[]);
    }
  });

  it('gives every health check a start_period', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      const hc = s['healthcheck'] as Record<string, unknown> | undefined;
      if (hc !== undefined) assert.ok(typeof hc['start_period'] === 'string', `${name}: healthcheck has start_period`);
    }
  });

  it('names health check programs that exist in the image', () => {
    for (const [name, s] of ours) {
      const test = (s['healthcheck'] as { test: string[] }).test;
      if (test[1] === 'node' && test[2]!.startsWith('dist/'))
        assert.ok(!BUILT || existsSync(join(REPO_ROOT, test[2]!)), `${name}: ${test[2]} exists`);
    }
  });
});

describe('Dockerfile', () => {
  const text = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
  it('is multi-stage, non-root, and ships dist/ with production dependencies only', () => {
    assert.equal(text.match(/^FROM node:20-bookworm-slim/gm)?.length, 2);
    assert.match(text, /^USER node$/m);
    assert.match(text, /npm ci --omit=dev/);
    assert.match(text, /^COPY --from=build \/src\/dist \.\/dist$/m);
    const cmd = /^CMD (\[.*\])$/m.exec(text);
    assert.ok(cmd, 'has a CMD');
    checkCommand('Dockerfile CMD', JSON.parse(cmd[1]!) as string[]);
  });
});

describe('deploy/kubecfg-remote.jsonnet', { skip: !BUILT && 'run npm run build first' }, () => {
  const file = join(REPO_ROOT, 'deploy', 'kubecfg-remote.jsonnet');
  const header = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => /^\/\/\s+kubecfg show /.test(l))
    .map((l) => l.replace(/^\/\/\s+kubecfg /, ''));

  function render(args: string[]): Array<Record<string, any>> {
    const home = mkdtempSync(join(tmpdir(), 'kubecfg-deploy-'));
    try {
      const out = execFileSync(process.execPath, [CLI, '--no-daemon', ...args], {
        cwd: REPO_ROOT,
        env: { PATH: process.env['PATH'] ?? '', HOME: home, XDG_RUNTIME_DIR: home, XDG_STATE_HOME: home },
        encoding: 'utf8',
      });
      return parseAllDocuments(out)
        .map((d) => d.toJS() as Record<string, any>)
        .filter((d) => d !== null);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }

  it('has a header command that runs as written', () => {
    assert.equal(header.length, 1);
    const objects = render(header[0]!.split(/\s+/));
    assert.ok(objects.every((o) => o['metadata']['namespace'] === 'ci-tools'));
    const deployment = objects.find((o) => o['kind'] === 'Deployment')!;
    assert.equal(deployment['spec']['template']['spec']['containers'][0]['image'], 'registry.example.com/kubecfg:1.0');
  });

  it('defaults to the image the Dockerfile builds and passes only flags the service accepts', () => {
    const objects = render(['show', 'deploy/kubecfg-remote.jsonnet']);
    const deployment = objects.find((o) => o['kind'] === 'Deployment')!;
    const container = deployment['spec']['template']['spec']['containers'][0];
    assert.equal(container['image'], IMAGE);
    const shell = container['command'] as string[];
    assert.deepEqual(shell.slice(0, 2), ['sh', '-c']);
    const configMap = objects.find((o) => o['kind'] === 'ConfigMap')!;
    const argv = shell[2]!
      .replace(/^exec /, '')
      .replace('$(REMOTE_ARGS)', configMap['data']['remote.args'])
      .split(/\s+/);
    checkCommand('deploy Deployment', argv);
  });
});
