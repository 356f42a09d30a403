/**
 * Test harness for the cluster commands: starts the test API server on
 * 127.0.0.1 port 0 with a fixed clock and sequential UIDs, and opens a
 * ClusterSession to it with a private discovery cache. Invariants: the
 * OpenAPI document is read once per process from test/data; every
 * started server is closed by the caller's `close()`.
 */
import type { JsonObject } from '../../lang/common/json.js';
import { sessionFor, type ClusterSession } from '../../kube/cluster.js';
import { DiscoveryCache } from '../../kube/discovery.js';
import type { OpenApiDocument } from '../../kube/openapi-schema.js';
import { startTestApiServer, type TestApiServer, type TestApiServerOptions } from '../apiserver/api-server.js';
import { kubernetesOpenApi, kubernetesOpenApiBytes } from '../support/kubernetes-openapi.js';

export function openapiDocument(): { doc: OpenApiDocument; bytes: Buffer } {
  return { doc: kubernetesOpenApi() as OpenApiDocument, bytes: kubernetesOpenApiBytes() };
}

export interface Harness {
  readonly server: TestApiServer;
  readonly session: ClusterSession;
  /** A second session (fresh discovery cache), e.g. for a later "run". */
  newSession(namespace?: string): ClusterSession;
  close(): Promise<void>;
}

export async function startHarness(extra: Partial<TestApiServerOptions> = {}, namespace = 'default'): Promise<Harness> {
  const { doc, bytes } = openapiDocument();
  let uid = 0;
  const server = await startTestApiServer({
    openapi: doc,
    openapiBytes: bytes,
    now: () => new Date('2026-01-02T03:04:05Z'),
    newUid: () => `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`,
    ...extra,
  });
  const sessions: ClusterSession[] = [];
  const newSession = (ns = namespace): ClusterSession => {
    const s = sessionFor(
      {
        server: server.url,
        namespace: ns,
        insecureSkipTlsVerify: false,
        auth: extra.token !== undefined ? { kind: 'token', token: extra.token } : { kind: 'none' },
        identity: server.url,
      },
      // No client-side rate limit: these tests count requests (test/kube/rate-limit-compression.test.ts tests it).
      { cache: new DiscoveryCache(), qps: -1 },
    );
    sessions.push(s);
    return s;
  };
  const session = newSession();
  return {
    server,
    session,
    newSession,
    close: async () => {
      for (const s of sessions) s.close();
      await server.close();
    },
  };
}

export function configMap(name: string, data: Record<string, string>, namespace?: string): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
    data,
  };
}

export function deployment(name: string, image: string, extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }], ...extra } },
    },
  };
}
