/**
 * The Cleat program of bench/cleat: `apps` Deployments and a Service for
 * each, built by typed functions from a list of app records, the Cleat
 * counterpart of bench/jsonnet/kube-lib.jsonnet (same names, images,
 * replicas, env and resources). Pure text generation.
 */

const APPS = 500;

/** The program: the apps as data, a typed Deployment and Service builder, two exports. */
export function cleatProgram(apps = APPS): string {
  const rows = Array.from({ length: apps }, (_, k) => {
    const i = k + 1;
    return `  { i: ${i}, name: "app-${String(i).padStart(3, '0')}" },`;
  });
  return `type Container = { name: Str, image: Str, ports: [{ containerPort: Int }], env: [{ name: Str, value: Str }],
  resources: { requests: { cpu: Str, memory: Str } } }
type Deployment = {
  apiVersion: "apps/v1", kind: "Deployment",
  metadata: { name: Str, labels: { [Str]: Str } },
  spec: { replicas: Int where self >= 1, selector: { matchLabels: { [Str]: Str } },
    template: { metadata: { labels: { [Str]: Str } }, spec: { containers: [Container] } } },
}
type Service = {
  apiVersion: "v1", kind: "Service",
  metadata: { name: Str, labels: { [Str]: Str } },
  spec: { selector: { [Str]: Str }, ports: [{ port: Int, targetPort: Int }] },
}
type App = { i: Int, name: Str }

let apps: [App] = [
${rows.join('\n')}
]

fn deployment(a: App) -> Deployment = {
  metadata: { name: a.name, labels: { app: a.name } },
  spec: {
    replicas: 1 + a.i % 3,
    selector.matchLabels: { app: a.name },
    template: {
      metadata.labels: { app: a.name },
      spec.containers: [{
        name: a.name,
        image: "registry.example.com/app:\\(a.i)",
        ports: [{ containerPort: 8080 }],
        env: [{ name: "INDEX", value: str(a.i) }],
        resources.requests: { cpu: "\\(100 + a.i)m", memory: "\\(64 + a.i)Mi" },
      }],
    },
  },
}

fn service(d: Deployment) -> Service = {
  metadata: { name: d.metadata.name, labels: d.metadata.labels },
  spec: { selector: d.spec.selector.matchLabels, ports: [{ port: 80, targetPort: 8080 }] },
}

export [for a in apps => deployment(a)]
export [for a in apps => service(deployment(a))]
`;
}
