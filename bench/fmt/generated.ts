/**
 * Generates the formatter bench's input: a Jsonnet file of about `lines`
 * lines written the way people write before running a formatter (double
 * quotes, uneven indentation, `#` comments, quoted field names, missing
 * trailing commas, imports out of order), so every pass of jsonnetfmt has
 * work to do. Deterministic; written to a temp dir at bench time.
 */

function component(i: number): string[] {
  return [
    `  # component ${i}: a Deployment and its Service`,
    `  "component${i}": {`,
    `      local name = "app-${i}",`,
    `      deployment: {`,
    `        apiVersion: "apps/v1", kind: "Deployment",`,
    `        metadata: { name: name, labels: { "app": name, tier: 'tier-${i % 4}' } },`,
    `        spec: {`,
    `            replicas: ${1 + (i % 3)},`,
    `            template: { spec: { containers: [`,
    `              { name: name, image: "registry.example.com/app:" + ${i}, ports: [ { containerPort: 8080 } ] },`,
    `              /* a sidecar, only on odd components */`,
    `              if ${i} % 2 == 1 then { name: "sidecar", image: lib.sidecarImage } else null`,
    `            ] } }`,
    `        }`,
    `      },`,
    `      service: {`,
    `        apiVersion: 'v1', kind: 'Service',`,
    `        metadata: { name: name },`,
    `        spec: { selector: { "app": name }, ports: [{ port: 80, targetPort: 8080 }] }`,
    `      },`,
    `      config:: std.mergePatch(lib.defaults, { level: ${i % 5}, tags: [ t for t in ["a", "b", "c"] if t != "b" ] }),`,
    `      ["extra-" + ${i}]: (std.length(name) * 2) + ${i} ,`,
    `  },`,
    ``,
  ];
}

/** About `lines` lines of Jsonnet (a top-level object of components). */
export function generatedJsonnet(lines = 10_000): string {
  const out = [
    '// Generated input for the formatter benchmark.',
    'local util = import "util.libsonnet";',
    'local lib = import "lib.libsonnet";',
    "local base = import 'base.libsonnet';",
    '',
    '{',
  ];
  for (let i = 0; out.length < lines - 1; i++) out.push(...component(i));
  out.push('}');
  return out.join('\n') + '\n';
}
