// A Metacontroller CompositeController sync hook:
//   kubecfg --features=httpd httpd examples/hook.jsonnet --listen 127.0.0.1:8080
//   curl -d '{"parent": {"metadata": {"name": "demo"}, "spec": {"replicas": 2}}}' http://127.0.0.1:8080/hook
function(request) {
  local parent = request.parent,
  children: [{
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: parent.metadata.name + '-config' },
    data: { replicas: std.toString(parent.spec.replicas) },
  }],
  status: { configMaps: 1 },
}
