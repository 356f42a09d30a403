// A schema attribute's default instance that a config is unioned into is rebuilt from the
// merged config (lang/kcl union), so its required attributes and checks are checked on the
// rebuilt instance: `application: Application = Application {}` with a required `image: str`
// evaluates where the declaration states image, as the converter spec's prototype schemas need
// ("KCL checks a required attribute once the declaring level is complete").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateKcl, memoryHost, toPlain } from './index.js';

const SCHEMAS = `schema Web:
    application: Application = Application {}

schema Application:
    image: str
    port: int = 80
    tls: Tls = Tls {}

    check:
        len(image) >= 1, "application.image must not be empty"

schema Tls:
    cert: str
`;

const run = (body: string): unknown =>
  toPlain(evaluateKcl(memoryHost({ '/r/main.k': SCHEMAS + body }), { paths: ['/r/main.k'] }).value);

test('a default instance waits for the config unioned into it; what stays absent still fails', () => {
  assert.deepEqual(
    run('a = Web {application.image = "x", application.tls.cert = "c"}\nb = a | {application.port = 81}\n'),
    {
      a: { application: { image: 'x', port: 80, tls: { cert: 'c' } } },
      b: { application: { image: 'x', port: 81, tls: { cert: 'c' } } },
    },
  );
  for (const [body, want] of [
    ['c = Web {}\n', /attribute 'image' of Application is required/],
    ['d = Web {application.port = 1, application.tls.cert = "c"}\n', /attribute 'image' of Application is required/],
    ['e = Web {application.image = "x"}\n', /attribute 'cert' of Tls is required/],
    [
      'f = Web {application.image = "", application.tls.cert = "c"}\n',
      /Check failed on the condition: application\.image must not be empty/,
    ],
  ] as const)
    assert.throws(() => run(body), want, body);
});
