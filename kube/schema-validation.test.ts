import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../lang/common/json.js';
import { openapiDocument } from '../test/kube/harness.js';
import { OpenApiSchema } from './openapi-schema.js';
import { validateAgainstSchema } from './schema-validation.js';

const schema = new OpenApiSchema(openapiDocument().doc);
const gvk = { group: 'apps', version: 'v1', kind: 'Deployment' };

function problems(spec: JsonObject): string[] {
  const obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec };
  return validateAgainstSchema(schema, 'Deployment', schema.definitionName(gvk)!, schema.forKind(gvk)!, obj).map(
    (p) => `${p.path}: ${p.message}`,
  );
}

const pod = (container: JsonObject): JsonObject => ({
  selector: {},
  template: { spec: { containers: [{ name: 'c', ...container }] } },
});

test('schema validation reports field paths like kubectl', () => {
  const table: Array<[string, JsonObject, string[]]> = [
    ['valid', pod({ image: 'x', ports: [{ containerPort: 80 }] }), []],
    [
      'missing required',
      { template: {} },
      ['Deployment.spec: missing required field "selector" in io.k8s.api.apps.v1.DeploymentSpec'],
    ],
    [
      'wrong type',
      { ...pod({}), replicas: '3' },
      [
        'Deployment.spec.replicas: invalid type for io.k8s.api.apps.v1.DeploymentSpec.replicas: got "string", expected "integer"',
      ],
    ],
    [
      'unknown field in a list element',
      pod({ imagee: 'x' }),
      ['Deployment.spec.template.spec.containers[0]: unknown field "imagee" in io.k8s.api.core.v1.Container'],
    ],
    [
      'int-or-string takes both',
      { ...pod({}), strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } } },
      [],
    ],
    ['quantity takes numbers', pod({ resources: { limits: { cpu: 1, memory: '1Gi' } } }), []],
    ['null means unset', { ...pod({}), replicas: null }, []],
    [
      'map expected',
      { ...pod({}), selector: 'x' },
      [
        'Deployment.spec.selector: invalid type for io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector: got "string", expected "map"',
      ],
    ],
    [
      'array expected',
      pod({ args: 'x' }),
      [
        'Deployment.spec.template.spec.containers[0].args: invalid type for io.k8s.api.core.v1.Container.args: got "string", expected "array"',
      ],
    ],
    [
      'label values are strings',
      { ...pod({}), selector: { matchLabels: { a: 1 } } },
      [
        'Deployment.spec.selector.matchLabels.a: invalid type for io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector.matchLabels: got "integer", expected "string"',
      ],
    ],
  ];
  for (const [what, spec, want] of table) assert.deepEqual(problems(spec), want, what);
});
