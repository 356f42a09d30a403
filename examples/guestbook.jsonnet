// The guestbook application: a PHP frontend backed by a Redis leader and
// followers, each a Deployment with a Service in front of it.
//
//   kubecfg show examples/guestbook.jsonnet
//   kubecfg update examples/guestbook.jsonnet
local app(name, tier, image, replicas, port, env=[]) = {
  local labels = { app: 'guestbook', tier: tier, component: name },

  deployment: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: name, labels: labels },
    spec: {
      replicas: replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels: labels },
        spec: {
          containers: [{
            name: name,
            image: image,
            resources: { requests: { cpu: '100m', memory: '100Mi' } },
            ports: [{ containerPort: port }],
            [if std.length(env) > 0 then 'env']: env,
          }],
        },
      },
    },
  },

  service: {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: name, labels: labels },
    spec: {
      ports: [{ port: port, targetPort: port }],
      selector: labels,
    },
  },
};

{
  redisLeader: app('redis-leader', 'backend', 'docker.io/redis:6.0.5', 1, 6379),
  redisFollower: app('redis-follower', 'backend', 'gcr.io/google_samples/gb-redis-follower:v2', 2, 6379),
  frontend: app('frontend', 'frontend', 'gcr.io/google-samples/gb-frontend:v4', 3, 80,
                env=[{ name: 'GET_HOSTS_FROM', value: 'dns' }]) + {
    service+: { spec+: { type: 'LoadBalancer' } },
  },
}
