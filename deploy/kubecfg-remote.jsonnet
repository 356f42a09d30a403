// The remote render service on Kubernetes, rendered by kubecfg itself:
//
//   kubecfg show deploy/kubecfg-remote.jsonnet -A namespace=ci-tools -A image=registry.example.com/kubecfg:1.0
//   kubecfg update deploy/kubecfg-remote.jsonnet -A namespace=ci-tools -A image=registry.example.com/kubecfg:1.0
//
// Parameters are top-level arguments: strings with -A NAME=VALUE, numbers with
// --tla-code NAME=VALUE (e.g. --tla-code replicas=3). The image is the one the
// repository's Dockerfile builds (docker build -t kubecfg:dev .).
//
// Stateless apart from its caches: a Deployment of N replicas behind one
// Service, scaled by a HorizontalPodAutoscaler on CPU and on the renders
// waiting for a slot (kubecfg_remote_renders_queued, served to the HPA by a
// Prometheus adapter as a Pods metric). Tokens (token -> tenant) live in a
// Secret you create (see docs/remote.md); the ConfigMap only says where it is
// mounted and how the service is tuned. Blobs and work directories are
// per-replica emptyDirs in front of one shared Redis (blobs, results and the
// one-render-per-key lock; docs/remote.md): a runner landing on another
// replica uploads nothing and is served the result another replica rendered.
// redisUrl: null (default) deploys a Redis beside the service, reachable only
// from its pods; a redis:// URL uses an external one; '' shares nothing.
// redisUrlSecret names a Secret whose key `url` holds a URL with a password.
function(
  namespace='kubecfg-remote',
  name='kubecfg-remote',
  image='kubecfg:dev',
  replicas=2,
  maxReplicas=10,
  tokensSecret='kubecfg-remote-tokens',
  tlsSecret='kubecfg-remote-tls',
  maxRendersPerPod=2,
  renderTimeout='60s',
  renderMemoryMb=1024,
  queuedPerPodTarget=2,
  redisUrl=null,
  redisUrlSecret=null,
  redisImage='redis:7.0-alpine',
  redisMemoryMb=512,
)
  local labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/component': 'remote-render' };
  local port = 8443;
  local meta = { name: name, namespace: namespace, labels: labels };
  local ownRedis = redisUrl == null && redisUrlSecret == null;
  local redisName = name + '-redis';
  local redisLabels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/component': 'shared-cache' };
  local redisArg =
    if redisUrlSecret != null then []  // from the environment (KUBECFG_REMOTE_REDIS_URL)
    else if ownRedis then ['--redis-url redis://%s:6379' % redisName]
    else if redisUrl != '' then ['--redis-url %s' % redisUrl]
    else [];
  local config = {
    'remote.args': std.join(' ', [
      '--listen 0.0.0.0:%d' % port,
      '--tls-cert /etc/kubecfg-remote/tls/tls.crt',
      '--tls-key /etc/kubecfg-remote/tls/tls.key',
      '--tokens /etc/kubecfg-remote/tokens/tokens.json',
      '--store /var/lib/kubecfg-remote/blobs',
      '--work-dir /var/lib/kubecfg-remote/work',
      '--max-renders %d' % maxRendersPerPod,
      '--render-timeout %s' % renderTimeout,
      '--render-memory-mb %d' % renderMemoryMb,
    ] + redisArg),
    // Where the tokens come from: the Secret below, mounted read-only (0440, group = fsGroup).
    'tokens.secret': tokensSecret,
  };
  {
    configMap: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta { name: name + '-config' },
      data: config,
    },
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta,
      spec: {
        replicas: replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels: labels },
          spec: {
            automountServiceAccountToken: false,  // the service holds no cluster credentials
            // SIGTERM drains: /readyz turns 503, renders in flight finish (up to --drain-timeout 30s).
            terminationGracePeriodSeconds: 45,
            securityContext: { runAsNonRoot: true, runAsUser: 10001, fsGroup: 10001, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: 'remote',
              image: image,
              command: ['sh', '-c', 'exec node /app/dist/server/remote/main.js $(REMOTE_ARGS)'],
              env: [{ name: 'REMOTE_ARGS', valueFrom: { configMapKeyRef: { name: name + '-config', key: 'remote.args' } } }] + (
                if redisUrlSecret != null then
                  [{ name: 'KUBECFG_REMOTE_REDIS_URL', valueFrom: { secretKeyRef: { name: redisUrlSecret, key: 'url' } } }]
                else []
              ),
              ports: [{ name: 'https', containerPort: port }],
              readinessProbe: { httpGet: { path: '/readyz', port: 'https', scheme: 'HTTPS' }, periodSeconds: 5 },
              livenessProbe: { httpGet: { path: '/healthz', port: 'https', scheme: 'HTTPS' }, periodSeconds: 20 },
              resources: {
                requests: { cpu: '%dm' % (500 * maxRendersPerPod), memory: '%dMi' % (256 + renderMemoryMb * maxRendersPerPod / 2) },
                limits: { memory: '%dMi' % (512 + renderMemoryMb * maxRendersPerPod) },
              },
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
              volumeMounts: [
                { name: 'tokens', mountPath: '/etc/kubecfg-remote/tokens', readOnly: true },
                { name: 'tls', mountPath: '/etc/kubecfg-remote/tls', readOnly: true },
                { name: 'state', mountPath: '/var/lib/kubecfg-remote' },
              ],
            }],
            volumes: [
              { name: 'tokens', secret: { secretName: tokensSecret, defaultMode: std.parseOctal('0440') } },
              { name: 'tls', secret: { secretName: tlsSecret, defaultMode: std.parseOctal('0440') } },
              { name: 'state', emptyDir: { sizeLimit: '4Gi' } },
            ],
          },
        },
      },
    },
    service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta,
      spec: { selector: labels, ports: [{ name: 'https', port: 443, targetPort: 'https' }] },
    },
    hpa: {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: meta,
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: name },
        minReplicas: replicas,
        maxReplicas: maxReplicas,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
          {
            type: 'Pods',
            pods: {
              metric: { name: 'kubecfg_remote_renders_queued' },
              target: { type: 'AverageValue', averageValue: std.toString(queuedPerPodTarget) },
            },
          },
        ],
      },
    },
  } + (
    if ownRedis then {
      // A cache, not a store: no persistence; Redis evicts the least recently used keys at its cap.
      redisDeployment: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: meta { name: redisName, labels: redisLabels },
        spec: {
          replicas: 1,
          selector: { matchLabels: redisLabels },
          template: {
            metadata: { labels: redisLabels },
            spec: {
              automountServiceAccountToken: false,
              securityContext: { runAsNonRoot: true, runAsUser: 999, fsGroup: 999, seccompProfile: { type: 'RuntimeDefault' } },
              containers: [{
                name: 'redis',
                image: redisImage,
                args: [
                  '--save', '', '--appendonly', 'no',
                  '--maxmemory', '%dmb' % redisMemoryMb, '--maxmemory-policy', 'allkeys-lru',
                ],
                ports: [{ name: 'redis', containerPort: 6379 }],
                readinessProbe: { tcpSocket: { port: 'redis' }, periodSeconds: 5 },
                resources: {
                  requests: { cpu: '100m', memory: '%dMi' % (redisMemoryMb + 64) },
                  limits: { memory: '%dMi' % (redisMemoryMb + 128) },
                },
                securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
                volumeMounts: [{ name: 'data', mountPath: '/data' }],
              }],
              volumes: [{ name: 'data', emptyDir: {} }],
            },
          },
        },
      },
      redisService: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta { name: redisName, labels: redisLabels },
        spec: { selector: redisLabels, ports: [{ name: 'redis', port: 6379, targetPort: 'redis' }] },
      },
      // Only the service's own pods reach the Redis: tenants never talk to it.
      redisNetworkPolicy: {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: meta { name: redisName, labels: redisLabels },
        spec: {
          podSelector: { matchLabels: redisLabels },
          policyTypes: ['Ingress'],
          ingress: [{ from: [{ podSelector: { matchLabels: labels } }], ports: [{ port: 6379 }] }],
        },
      },
    } else {}
  )
