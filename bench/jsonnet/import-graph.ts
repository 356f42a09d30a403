/**
 * Generates the 300-file import graph case: layered libraries where each file
 * imports a few files of the layer below, and a root that imports the top
 * layer. Written to a temp dir at bench time (never committed as data).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeImportGraph(dir: string, files = 300, perLayer = 30): string {
  mkdirSync(dir, { recursive: true });
  const layers = Math.ceil(files / perLayer);
  const name = (layer: number, i: number) => `l${layer}_${i}.libsonnet`;
  for (let layer = 0; layer < layers; layer++) {
    for (let i = 0; i < perLayer; i++) {
      const deps = layer === 0 ? [] : [0, 1, 2].map((k) => name(layer - 1, (i * 7 + k * 11) % perLayer));
      const body = [
        ...deps.map((d, k) => `local d${k} = import '${d}';`),
        '{',
        `  id: '${name(layer, i)}',`,
        `  weight: ${layer * perLayer + i} ${deps.map((_, k) => `+ d${k}.weight`).join(' ')},`,
        `  tags: [${deps.map((_, k) => `d${k}.id`).join(', ')}],`,
        `  config:: { replicas: ${1 + (i % 3)}, image: 'app:${layer}.${i}' },`,
        `  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-${layer}-${i}' }, data: { w: std.toString($.weight % 1000) } },`,
        '}',
      ];
      writeFileSync(join(dir, name(layer, i)), body.join('\n') + '\n');
    }
  }
  const top = layers - 1;
  const root = [
    ...Array.from({ length: perLayer }, (_, i) => `local t${i} = import '${name(top, i)}';`),
    '{',
    ...Array.from({ length: perLayer }, (_, i) => `  o${i}: t${i}.object,`),
    '}',
  ];
  const rootPath = join(dir, 'main.jsonnet');
  writeFileSync(rootPath, root.join('\n') + '\n');
  return rootPath;
}
