local params = import 'params.libsonnet';
local k = import 'k.libsonnet';
{
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: {name: params.name, labels: {app: params.name}},
  spec: {
    replicas: params.replicas,
    template: {
      spec: {
        containers: [{name: "main", image: params.image, ports: [{containerPort: 80}],
          env: [{name: k, value: std.toString(v)} for k in std.objectFields(params.env)],}],
      },
    },
  },
}
