/**
 * Shell completion in real shells (issue 23): the built CLI's scripts are
 * sourced into bash, zsh and fish. Value tables per command (`show -o` is
 * yaml|json, `features -o` table|json), `completion <TAB>`, `--features`,
 * `--flag=value`, free-text flags offering nothing; contexts from the
 * kubeconfig and namespaces from the test API server asked at TAB time, and
 * silence when the cluster cannot answer; zsh's script is native (no
 * bashcompinit) with descriptions. A shell that is not installed skips its cases.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { after, before, describe, it } from 'node:test';
import { FEATURE_NAMES } from '../../client-cli/completion-values.js';
import { FEATURES } from '../../render/features/registry.js';
import { startTestApiServer, type TestApiServer } from '../apiserver/api-server.js';
import { BUILT, CLI, Sandbox } from '../daemon/harness.js';
import { openapiDocument } from '../kube/harness.js';

const execFileAsync = promisify(execFile);
const has = (shell: string): boolean => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

it('the completion feature table is the registry', () => {
  assert.deepEqual(
    [...FEATURE_NAMES].sort(),
    FEATURES.filter((f) => f.stage !== 'removed')
      .map((f) => f.name)
      .sort(),
  );
});

describe('shell completion', { skip: !BUILT && 'run npm run build first', timeout: 120_000 }, () => {
  let sb: Sandbox;
  let server: TestApiServer;
  let kubecfg: string;
  let kc: string;
  const script = (shell: string): string => {
    const file = join(sb.work, `completion.${shell}`);
    const r = spawnSync(process.execPath, [CLI, 'completion', shell], { env: sb.env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    writeFileSync(file, r.stdout);
    return file;
  };

  before(async () => {
    sb = new Sandbox();
    const { doc, bytes } = openapiDocument();
    server = await startTestApiServer({ openapi: doc, openapiBytes: bytes });
    // The scripts call the command by the name typed (COMP_WORDS[0]): a wrapper stands for `kubecfg`.
    kubecfg = join(sb.work, 'kubecfg');
    writeFileSync(kubecfg, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(kubecfg, 0o755);
    kc = join(sb.work, 'kc.yaml');
    // The test server's kubeconfig (context `test`) and a second context.
    const config = parseYaml(server.kubeconfig());
    config.contexts.push({ name: 'other', context: { cluster: 'test', user: 'test' } });
    writeFileSync(kc, JSON.stringify(config));
    writeFileSync(
      join(sb.work, 'ns.jsonnet'),
      "{ a: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }, b: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } } }\n",
    );
    const up = await sb.run(['update', 'ns.jsonnet'], { env: { KUBECONFIG: kc } });
    assert.equal(up.code, 0, up.stderr);
  });
  after(async () => {
    await sb.cleanup();
    await server.close();
  });

  /**
   * COMPREPLY for a line whose last word is being completed ('' = after a space). Asynchronous:
   * the test API server answering the namespaces lives in this process.
   */
  async function bashComplete(words: string[], env: Record<string, string> = {}): Promise<string[]> {
    const file = script('bash');
    const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
    const { stdout } = await execFileAsync(
      'bash',
      [
        '-c',
        `source '${file}'; COMP_WORDS=('${kubecfg}' ${quoted}); COMP_CWORD=${words.length}; _kubecfg; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { cwd: sb.work, env: { ...sb.env, ...env }, encoding: 'utf8' },
    );
    return stdout.split('\n').filter((l) => l !== '');
  }

  const bashCases: [string, string[], string[]][] = [
    ['show -o', ['show', '-o', ''], ['yaml', 'json']],
    ['features -o', ['features', '-o', ''], ['table', 'json']],
    ['daemon status --output', ['daemon', 'status', '--output', ''], ['text', 'json']],
    ['daemon logs -o', ['daemon', 'logs', '-o', ''], ['text', 'json']],
    ['diff --diff-strategy', ['diff', '--diff-strategy', ''], ['all', 'subset', 'last-applied']],
    ['diff -o', ['diff', '-o', ''], ['text', 'json']],
    ['--color=al (bash splits at =)', ['--color', '=', 'al'], ['always']],
    ['--color= before a command', ['--color', '='], ['auto', 'always', 'never']],
    ['--features', ['--features', ''], [...FEATURE_NAMES]],
    ['completion <TAB>', ['completion', ''], ['bash', 'zsh', 'fish']],
    ['completion --shell', ['completion', '--shell', ''], ['bash', 'zsh', 'fish']],
    ['--resolve-images', ['show', '--resolve-images', ''], ['noop', 'registry']],
    ['update --gc-tag: free text, nothing offered', ['update', '--gc-tag', ''], []],
    ['daemon <TAB>: its subcommands only', ['daemon', ''], ['start', 'stop', 'status', 'logs']],
    ['cleat argocd <TAB>', ['cleat', 'argocd', ''], ['generate', 'parameters', 'plugin', 'dockerfile']],
    ['show --wa', ['show', '--wa'], ['--watch']],
  ];
  for (const [name, words, want] of bashCases) {
    it(`bash: ${name}`, { skip: !has('bash') && 'bash is not installed' }, async () => {
      assert.deepEqual(await bashComplete(words), want);
    });
  }

  it('bash: kubocd render --context completes files, the global --context kubeconfig contexts', async () => {
    assert.ok((await bashComplete(['kubocd', 'render', '--context', 'ns.'])).includes('ns.jsonnet'));
    assert.deepEqual(await bashComplete(['--kubeconfig', kc, 'diff', '--context', '']), ['other', 'test']);
    assert.deepEqual(await bashComplete(['diff', '--context', 't'], { KUBECONFIG: kc }), ['test']);
  });

  it('bash: namespaces come from the cluster of the line typed so far', async () => {
    // --kubeconfig=FILE reaches the script as three words (bash splits at '=').
    const got = await bashComplete(['--kubeconfig', '=', kc, 'diff', '-n', 'team-']);
    assert.deepEqual(got, ['team-a', 'team-b']);
    assert.ok((await bashComplete(['--namespace', ''], { KUBECONFIG: kc })).includes('default'));
  });

  it('__complete is silent (and quick to give up) when the cluster does not answer', async () => {
    const dead = join(sb.work, 'dead.yaml');
    writeFileSync(
      dead,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:9"}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
    );
    for (const args of [
      ['__complete', 'namespaces', '--', '--kubeconfig', dead],
      ['__complete', 'contexts', '--', '--kubeconfig', join(sb.work, 'missing.yaml')],
      ['__complete', 'bogus'],
    ]) {
      const r = await sb.run(args);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', ''], args.join(' '));
    }
  });

  it(
    'zsh: a native script with descriptions; the arm of the command typed is used',
    { skip: !has('zsh') && 'zsh is not installed' },
    () => {
      const file = script('zsh');
      const r = spawnSync(
        'zsh',
        [
          '-fc',
          `autoload -U compinit; compinit -u -D; source '${file}'; print -r -- "def:\${_comps[kubecfg]}";
         _arguments() { print -r -- "args:$*" }
         words=(kubecfg --alpha show -o ''); CURRENT=5; _kubecfg; print -r -- "words:\${words[*]} current:$CURRENT"`,
        ],
        { env: sb.env, encoding: 'utf8' },
      );
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^def:_kubecfg$/m);
      assert.match(r.stdout, /'\(-o --format\)'|\(-o --format\)/);
      assert.match(r.stdout, /--format=\[Output format\. {2}Supported values are\\: json, yaml\]:format:\(yaml json\)/);
      assert.match(r.stdout, /^words:kubecfg -o  current:3$/m, 'the rest of the line is completed as show own');
      const text = spawnSync(process.execPath, [CLI, 'completion', 'zsh'], { encoding: 'utf8' }).stdout;
      assert.doesNotMatch(text, /bashcompinit/);
      assert.match(text, /show\\:"Show expanded resource definitions on standard output"|show\\:/);
    },
  );

  it('fish: value tables and contexts', { skip: !has('fish') && 'fish is not installed' }, () => {
    const file = script('fish');
    const complete = (line: string): string[] => {
      const r = spawnSync('fish', ['-c', `source '${file}'; complete -C '${line}'`], {
        env: { ...sb.env, PATH: `${sb.work}:${sb.env.PATH}`, KUBECONFIG: kc },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split('\t')[0]!);
    };
    assert.deepEqual(complete('kubecfg show -o ').sort(), ['json', 'yaml']);
    assert.deepEqual(complete('kubecfg completion ').sort(), ['bash', 'fish', 'zsh']);
    assert.deepEqual(complete('kubecfg diff --context '), ['other', 'test']);
  });
});
