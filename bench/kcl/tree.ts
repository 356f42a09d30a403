/**
 * The bench's inputs: a generated myks-shaped KCL tree (prototype schemas subclassing myks.App, a
 * root level declaring the applications, one package per environment overriding them in
 * app-<name>.k files, myks.with_apps / myks.finalize) and a Jsonnet program computing the same
 * values. BENCH_KCL_ENVS and BENCH_KCL_APPS size it (20 x 30 by default).
 */
export const ENVS = Number(process.env.BENCH_KCL_ENVS ?? 20);
export const APPS = Number(process.env.BENCH_KCL_APPS ?? 30);
const PROTOS = 5;

export function kclTree(): Record<string, string> {
  const f: Record<string, string> = { '/t/kcl.mod': '[package]\nname = "bench"\n' };
  for (let j = 0; j < PROTOS; j++)
    f[`/t/prototypes/p${j}/proto.k`] =
      `import myks\n\nschema P${j}(myks.App):\n    proto: str = "p${j}"\n    application: Application = Application {}\n\n` +
      `schema Application:\n    replicas: int = 1\n    image: str = "img${j}"\n    port: int = 8080\n` +
      `    labels: {str:str} = {app = "p${j}"}\n\n    check:\n        replicas >= 1, "replicas must be at least 1"\n`;
  const imports = [...Array(PROTOS).keys()].map((j) => `import prototypes.p${j}`).join('\n');
  const decls = [...Array(APPS).keys()]
    .map((k) => `    a${k} = p${k % PROTOS}.P${k % PROTOS} {\n        application.image = "registry/a${k}:1.0"\n    }`)
    .join('\n');
  f['/t/envs/env.k'] =
    'import myks\n\n_level = {\n    environment.id = ""\n    argocd.enabled = True\n    helm.namespace = "default"\n}\n\nlevel = myks.with_apps(_level, _apps)\n';
  f['/t/envs/apps.k'] = `import myks\n${imports}\n\n_apps: myks.Apps {\n${decls}\n}\n`;
  for (let i = 0; i < ENVS; i++) {
    f[`/t/envs/e${i}/env.k`] =
      `import myks\nimport envs\n\n_level = envs.level | {\n    environment.id = "e${i}"\n    helm.namespace = "e${i}"\n}\n\n` +
      'env = myks.finalize(myks.with_apps(_level, _apps))\n';
    for (let k = 0; k < APPS; k++)
      f[`/t/envs/e${i}/app-a${k}.k`] =
        `import myks\n\n_apps: myks.Apps {\n    a${k}.application.replicas = ${i + k + 1}\n}\n`;
  }
  f['/t/main.k'] =
    [...Array(ENVS).keys()].map((i) => `import envs.e${i}`).join('\n') +
    '\n\nenvironments = {\n' +
    [...Array(ENVS).keys()].map((i) => `    "e${i}" = e${i}.env`).join('\n') +
    '\n}\n';
  return f;
}

export function jsonnetProgram(): string {
  return `
local proto(j) = { proto: 'p' + j, application: { replicas: 1, image: 'img' + j, port: 8080, labels: { app: 'p' + j } } };
local names = ['a' + k for k in std.range(0, ${APPS - 1})];
local root = {
  environment: { id: '' }, argocd: { enabled: true }, helm: { namespace: 'default' },
  applications: { ['a' + k]: proto(k % ${PROTOS}) + { application+: { image: 'registry/a' + k + ':1.0' } } for k in std.range(0, ${APPS - 1}) },
};
local env(i) =
  local lvl = root + {
    environment+: { id: 'e' + i }, helm+: { namespace: 'e' + i },
    applications+: { ['a' + k]+: { application+: { replicas: i + k + 1 } } for k in std.range(0, ${APPS - 1}) },
  };
  assert std.all([lvl.applications[n].application.replicas >= 1 for n in names]) : 'replicas must be at least 1';
  lvl + { environment+: { applications: [{ proto: lvl.applications[n].proto, name: n } for n in names] } };
{ environments: { ['e' + i]: env(i) for i in std.range(0, ${ENVS - 1}) } }
`;
}
