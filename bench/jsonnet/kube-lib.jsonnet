// A Kubernetes-style library: 500 Deployments and Services built with
// mixins and hidden fields, as application libraries do.
local k = {
  deployment:: {
    new(name, image, replicas=1):: {
      local this = self,
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: name, labels: this.labels_ },
      labels_:: { app: name },
      spec: {
        replicas: replicas,
        selector: { matchLabels: this.labels_ },
        template: {
          metadata: { labels: this.labels_ },
          spec: { containers: [{ name: name, image: image, ports: [{ containerPort: 8080 }] }] },
        },
      },
    },
    withEnv(env):: { spec+: { template+: { spec+: { containers: [c { env: env } for c in super.containers] } } } },
    withResources(cpu, mem):: {
      spec+: { template+: { spec+: { containers: [c { resources: { requests: { cpu: cpu, memory: mem } } } for c in super.containers] } } },
    },
  },
  service:: {
    fromDeployment(d):: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: d.metadata.name, labels: d.metadata.labels },
      spec: { selector: d.spec.selector.matchLabels, ports: [{ port: 80, targetPort: 8080 }] },
    },
  },
};
local app(i) =
  local d = k.deployment.new('app-%03d' % i, 'registry.example.com/app:%d' % i, replicas=1 + i % 3)
            + k.deployment.withEnv([{ name: 'INDEX', value: std.toString(i) }])
            + k.deployment.withResources('%dm' % (100 + i), '%dMi' % (64 + i));
  { deployment: d, service: k.service.fromDeployment(d) };
{ ['app%03d' % i]: app(i) for i in std.range(1, 500) }
