/**
 * A generated repository for the daemon benchmark: 300 Jsonnet files in
 * layers (each importing three files of the layer below), every file
 * contributing three or four Kubernetes objects, about 1,000 objects in all.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface GeneratedRepo {
  main: string;
  leaf: string;
}

export function writeRepo(dir: string, files = 300, perLayer = 30): GeneratedRepo {
  mkdirSync(dir, { recursive: true });
  const layers = Math.ceil(files / perLayer);
  const name = (layer: number, i: number) => `lib/l${layer}_${i}.libsonnet`;
  mkdirSync(join(dir, 'lib'), { recursive: true });
  for (let layer = 0; layer < layers; layer++) {
    for (let i = 0; i < perLayer; i++) {
      const deps = layer === 0 ? [] : [0, 1, 2].map((k) => name(layer - 1, (i * 7 + k * 11) % perLayer));
      const id = `${layer}-${i}`;
      const body = [
        ...deps.map((d, k) => `local d${k} = import '${d.slice(4)}';`),
        `local labels = { app: 'app-${id}', layer: '${layer}' };`,
        '{',
        `  weight:: ${layer * perLayer + i}${deps.map((_, k) => ` + d${k}.weight`).join('')},`,
        '  objects: {',
        `    deployment: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'app-${id}', namespace: 'bench', labels: labels },`,
        `      spec: { replicas: 1 + $.weight % 3, selector: { matchLabels: labels }, template: { metadata: { labels: labels },`,
        `        spec: { containers: [{ name: 'main', image: 'registry.example.com/app:${id}', ports: [{ containerPort: 8080 }] }] } } } },`,
        `    service: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'app-${id}', namespace: 'bench', labels: labels },`,
        `      spec: { selector: labels, ports: [{ port: 80, targetPort: 8080 }] } },`,
        `    config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-${id}', namespace: 'bench' },`,
        `      data: { weight: std.toString($.weight), deps: std.join(',', [${deps.map((_, k) => `d${k}.objects.config.metadata.name`).join(', ')}]) } },`,
        i % 3 === 0
          ? `    account: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'app-${id}', namespace: 'bench' } },`
          : '',
        '  },',
        '}',
      ];
      writeFileSync(join(dir, name(layer, i)), body.filter((l) => l !== '').join('\n') + '\n');
    }
  }
  const main = [
    '{',
    ...Array.from({ length: layers }, (_, layer) =>
      Array.from({ length: perLayer }, (_, i) => `  'l${layer}_${i}': (import '${name(layer, i)}').objects,`).join(
        '\n',
      ),
    ),
    '}',
  ];
  writeFileSync(join(dir, 'main.jsonnet'), main.join('\n') + '\n');
  return { main: join(dir, 'main.jsonnet'), leaf: join(dir, name(0, 0)) };
}
