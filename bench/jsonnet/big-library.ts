/**
 * Generates a large Kubernetes-style Jsonnet library for the parse leg of the
 * bench: the shape of generated API libraries (k8s-libsonnet and the like),
 * i.e. one nested hidden object per resource kind, `withX`/`withXMixin`
 * setters, `'#withX'` doc objects, comments, text blocks and a few
 * comprehensions. The corpus of bench cases alone is ~120 KiB, too small to
 * measure a parser against a process that starts in milliseconds.
 * Deterministic: the same `kinds` always gives the same text. Written to a
 * temp dir at bench time (never committed as data).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FIELD_NAMES = [
  'name',
  'namespace',
  'replicas',
  'image',
  'imagePullPolicy',
  'serviceAccountName',
  'schedulerName',
  'priorityClassName',
  'hostname',
  'subdomain',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'minReadySeconds',
  'revisionHistoryLimit',
  'progressDeadlineSeconds',
];

const LIST_FIELDS = ['containers', 'initContainers', 'volumes', 'tolerations', 'imagePullSecrets', 'ports', 'env'];

// Doc sentences (our own wording) combined into help texts of 100-400
// characters, the length of the API descriptions generated libraries carry.
const SENTENCES = [
  'The value is copied into the object as it is given.',
  'When unset, the server chooses a default that may change between releases.',
  'Changing it on a running object restarts the workloads that depend on it.',
  'It must be a valid DNS label: lower case letters, digits and dashes, at most 63 characters.',
  'Read-only once the object exists; updates are rejected with a validation error.',
  'See the API reference of this group for the accepted values and their meaning.',
  'Several controllers read this field, so keep it consistent across the objects of one application.',
  'An empty value is treated the same way as an absent one.',
];

function help(k: number, f: number): string {
  const n = 1 + ((k + f) % 4);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(SENTENCES[(k * 3 + f * 5 + i) % SENTENCES.length]!);
  return parts.join(' ');
}

function upperFirst(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}

function setters(path: string[], indent: string, k: number): string[] {
  const lines: string[] = [];
  const wrap = (inner: string): string => path.reduceRight((acc, p) => `{ ${p}+: ${acc} }`, inner);
  for (let f = 0; f < FIELD_NAMES.length; f++) {
    const field = FIELD_NAMES[(f + k) % FIELD_NAMES.length]!;
    const fn = `with${upperFirst(field)}`;
    lines.push(
      `${indent}'#${fn}':: d.fn(help='"${upperFirst(field)} of the object. ${help(k, f)}"', args=[d.arg(name='${field}', type=d.T.string)]),`,
      `${indent}${fn}(${field}): ${wrap(`{ ${field}: ${field} }`)},`,
    );
  }
  for (const list of LIST_FIELDS) {
    const fn = `with${upperFirst(list)}`;
    lines.push(
      `${indent}// ${fn} replaces the whole list; ${fn}Mixin appends to it.`,
      `${indent}'#${fn}':: d.fn(help="\\"${list}\\" of the object (a list). ${help(k, list.length)}", args=[d.arg(name='${list}', type=d.T.array)]),`,
      `${indent}'#${fn}Mixin':: d.fn(help="\\"${list}\\" of the object (a list).\\n\\n**Note:** appends to the existing list.", args=[d.arg(name='${list}', type=d.T.array)]),`,
      `${indent}${fn}(${list}): ${wrap(`{ ${list}: if std.isArray(v=${list}) then ${list} else [${list}] }`)},`,
      `${indent}${fn}Mixin(${list}): ${wrap(`{ ${list}+: if std.isArray(v=${list}) then ${list} else [${list}] }`)},`,
    );
  }
  return lines;
}

function kindBlock(k: number): string[] {
  const kind = `kind${k}`;
  const lines = [
    `  /* ${upperFirst(kind)}: generated from the schema of group g${k % 17}.`,
    `   * Every setter returns a mixin; combine them with +. */`,
    `  ${kind}:: {`,
    `    local d = import 'doc-util/main.libsonnet',`,
    `    '#new':: d.fn(help=|||`,
    `      new returns an instance of ${upperFirst(kind)}.`,
    `      Fields not set here keep their defaults (${k * 3 + 1} of them).`,
    `    |||, args=[d.arg('name', d.T.string)]),`,
    `    new(name=''): {`,
    `      apiVersion: 'g${k % 17}.example.com/v${1 + (k % 3)}',`,
    `      kind: '${upperFirst(kind)}',`,
    `    } + self.metadata.withName(name=name) + self.metadata.withLabels({ app: name, tier: 'tier-%d' % ${k % 5} }),`,
    `    metadata: {`,
    ...setters(['metadata'], '      ', k),
    `      withLabels(labels): { metadata+: { labels: labels } },`,
    `      withLabelsMixin(labels): { metadata+: { labels+: labels } },`,
    `    },`,
    `    spec: {`,
    ...setters(['spec'], '      ', k + 1),
    `      template: {`,
    ...setters(['spec', 'template', 'spec'], '        ', k + 2),
    `      },`,
    `    },`,
    `    defaults:: { [f]: null for f in ${JSON.stringify(FIELD_NAMES.slice(0, 4 + (k % 6))).replace(/"/g, "'")} },`,
    `    ports:: [{ name: 'p%d' % i, containerPort: 8000 + i, protocol: 'TCP' } for i in std.range(0, ${k % 7})],`,
    `    weight:: ${k} * 1.5e2 + 0e0 + ${(k * 0.125).toFixed(3)} - (${k} % 3) * 2,`,
    `  },`,
  ];
  return lines;
}

/** Writes `k8s-lib.libsonnet` (about 39 KiB per kind) into `dir`; returns its path. */
export function writeBigLibrary(dir: string, kinds = 150): string {
  mkdirSync(dir, { recursive: true });
  const lines = ['// A generated Kubernetes-style API library (bench corpus only).', '{'];
  for (let k = 0; k < kinds; k++) lines.push(...kindBlock(k));
  lines.push('}');
  const path = join(dir, 'k8s-lib.libsonnet');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
