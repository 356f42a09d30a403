/**
 * kubecfg's --qps-limit and --disable-compression through the CLI, in the
 * daemon and --no-daemon: the test API server records whether each request
 * asked for gzip (the kubeconfig cluster's `disable-compression: true` does
 * what the flag does); --qps-limit takes a float and refuses other words
 * before anything is sent. Waits are not measured here (kube/rate-limiter.test.ts
 * and test/kube/rate-limit-compression.test.ts count them on a fake clock).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from '../apiserver/api-server.js';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { openapiDocument } from '../kube/harness.js';

const APP = "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' } } }\n";

describe(
  '--qps-limit and --disable-compression',
  { skip: !BUILT && 'run npm run build first', timeout: 120_000 },
  () => {
    let sb: Sandbox;
    let server: TestApiServer;
    let n = 0;
    before(async () => {
      sb = new Sandbox();
      const { doc, bytes } = openapiDocument();
      server = await startTestApiServer({ openapi: doc, openapiBytes: bytes });
      writeFileSync(join(sb.work, 'app.jsonnet'), APP);
    });
    after(async () => {
      await sb.cleanup();
      await server.close();
    });

    /** A kubeconfig with its own user name: the daemon caches discovery and the schema per user. */
    function kubeconfig(cluster = ''): string {
      const name = `k${++n}.yaml`;
      writeFileSync(
        join(sb.work, name),
        [
          'apiVersion: v1',
          'kind: Config',
          'current-context: t',
          `clusters: [{name: c, cluster: {server: '${server.url}'${cluster}}}]`,
          `users: [{name: u${n}, user: {}}]`,
          `contexts: [{name: t, context: {cluster: c, user: u${n}}}]`,
        ].join('\n'),
      );
      return name;
    }

    /** Accept-Encoding of the /openapi/v2 request `validate` makes. */
    async function schemaEncoding(args: string[], cluster = ''): Promise<string | undefined> {
      const before = server.requests.length;
      const r = await sb.run(['--kubeconfig', kubeconfig(cluster), ...args, 'validate', 'app.jsonnet']);
      assert.equal(r.code, 0, r.stderr);
      const got = server.requests.slice(before).filter((q) => q.path === '/openapi/v2');
      assert.equal(got.length, 1);
      return got[0]!.acceptEncoding;
    }

    for (const mode of [[], ['--no-daemon']]) {
      const name = mode.length ? 'no-daemon' : 'daemon';
      it(`${name}: gzip is asked for by default, not with --disable-compression or the cluster's disable-compression`, async () => {
        assert.equal(await schemaEncoding(mode), 'gzip');
        assert.equal(await schemaEncoding([...mode, '--disable-compression']), undefined);
        assert.equal(await schemaEncoding(mode, ', disable-compression: true'), undefined);
        // clientcmd never lets a false flag clear the cluster's true.
        assert.equal(
          await schemaEncoding([...mode, '--disable-compression=false'], ', disable-compression: true'),
          undefined,
        );
      });

      it(`${name}: --qps-limit takes a float32, negative disables`, async () => {
        for (const v of ['-1', '2.5', '0', '1e3'])
          assert.equal(await schemaEncoding([...mode, `--qps-limit=${v}`]), 'gzip');
      });
    }

    it('a --qps-limit that is not a number is a usage error naming the flag; KUBECFG_QPS_LIMIT too', async () => {
      const before = server.requests.length;
      const r = await sb.run(['--kubeconfig', kubeconfig(), '--qps-limit', 'fast', 'validate', 'app.jsonnet']);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        /^invalid argument "fast" for "--qps-limit" flag: strconv\.ParseFloat: parsing "fast": invalid syntax\n$/,
      );
      const e = await sb.run(['--kubeconfig', kubeconfig(), 'validate', 'app.jsonnet'], {
        env: { KUBECFG_QPS_LIMIT: 'x' },
      });
      assert.equal(e.code, 1);
      assert.match(e.stderr, /invalid value "x" in KUBECFG_QPS_LIMIT: expected a number/);
      assert.equal(server.requests.length, before);
    });

    it('--help lists both flags as kubecfg does', async () => {
      const r = await sb.run(['validate', '--help']);
      assert.match(
        r.stdout,
        /--qps-limit float32 +Override k8s REST client-side rate limiting; library default is 5 QPS; a negative value disables\./,
      );
      assert.match(
        r.stdout,
        /--disable-compression +If true, opt-out of response compression for all requests to the server/,
      );
    });
  },
);
