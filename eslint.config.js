// Lint: typescript-eslint's recommended rules over our TypeScript, plus the
// import arrows of docs/ARCHITECTURE.md ("Layers and what they may import"):
// each folder below gets the list of folders it must not import, and the
// paths of Go's behaviour that moved to lang/go are forbidden everywhere.
import tseslint from 'typescript-eslint';

/** Where Go's behaviour used to be copied; lang/go is its one home now. */
const OLD_GO_COPIES = [
  '**/lang/common/goyaml/**',
  '**/common/goyaml/**',
  '**/common/re2/**',
  '**/render/go/**',
  '**/gotemplate/fmt/float.js',
  '**/gotemplate/fmt/quote.js',
  '**/fmt/float.js',
  '**/fmt/quote.js',
  '**/natives/go-json-parse.js',
  '**/pure/go-parse-float.js',
  '**/std/go-math.js',
  '**/kube/go-json.js',
  '**/sprig/gotime.js',
];

const LANGS = [
  'common',
  'go',
  'jsonschema',
  'jsonnet',
  'gotemplate',
  'cleat',
  'yakl',
  'helm',
  'kubocd',
  'kcl',
  'ytt',
  'myks',
];
const TOP = ['protocol', 'client-cli', 'server', 'render', 'cache', 'kube', 'oci', 'net'];
const langsExcept = (...allowed) => LANGS.filter((l) => !allowed.includes(l)).map((l) => `**/lang/${l}/**`);
// Inside lang/, a sibling is reached as ../NAME/...; outside, through lang/NAME.
const siblingsExcept = (...allowed) => LANGS.filter((l) => !allowed.includes(l)).map((l) => `../${l}/**`);
const topExcept = (...allowed) => TOP.filter((t) => !allowed.includes(t)).map((t) => `**/${t}/**`);

/** folder (glob) → import globs it must not use at run time; type-only imports are allowed where noted. */
const ARROWS = [
  { files: ['protocol/**/*.ts'], forbid: [...topExcept(), '**/lang/**'] },
  { files: ['client-cli/**/*.ts'], forbid: [...topExcept('protocol', 'client-cli'), '**/lang/**'] },
  { files: ['lang/common/**/*.ts'], forbid: [...topExcept(), ...siblingsExcept('common'), ...langsExcept('common')] },
  {
    files: ['lang/go/**/*.ts'],
    forbid: [...topExcept(), ...siblingsExcept('common', 'go'), ...langsExcept('common', 'go')],
  },
  ...['jsonschema', 'jsonnet', 'gotemplate', 'cleat', 'kcl', 'ytt'].map((l) => ({
    files: [`lang/${l}/**/*.ts`],
    forbid: [...topExcept(), ...siblingsExcept('common', 'go', l), ...langsExcept('common', 'go', l)],
  })),
  {
    files: ['lang/yakl/**/*.ts'],
    forbid: [
      ...topExcept(),
      ...siblingsExcept('common', 'go', 'jsonnet', 'yakl'),
      ...langsExcept('common', 'go', 'jsonnet', 'yakl'),
    ],
  },
  {
    files: ['lang/helm/**/*.ts'],
    forbid: [
      ...topExcept(),
      ...siblingsExcept('common', 'go', 'gotemplate', 'jsonschema', 'helm'),
      ...langsExcept('common', 'go', 'gotemplate', 'jsonschema', 'helm'),
    ],
  },
  {
    files: ['lang/kubocd/**/*.ts'],
    forbid: [
      ...topExcept(),
      ...siblingsExcept('common', 'go', 'gotemplate', 'jsonschema', 'helm', 'kubocd'),
      ...langsExcept('common', 'go', 'gotemplate', 'jsonschema', 'helm', 'kubocd'),
    ],
  },
  {
    files: ['lang/myks/**/*.ts'],
    forbid: [
      ...topExcept(),
      ...siblingsExcept('common', 'go', 'kcl', 'ytt', 'myks'),
      ...langsExcept('common', 'go', 'kcl', 'ytt', 'myks'),
    ],
  },
  { files: ['render/**/*.ts'], forbid: topExcept('render') },
  { files: ['net/**/*.ts'], forbid: [...topExcept('net'), '**/lang/**'] },
  { files: ['cache/**/*.ts', 'oci/**/*.ts'], forbid: [...topExcept('cache', 'oci', 'net'), ...langsExcept('common')] },
  { files: ['kube/**/*.ts'], forbid: [...topExcept('kube', 'render', 'net'), ...langsExcept('common', 'go')] },
  // The worker side: commands never call back into the daemon's transport or worker machinery.
  {
    files: ['server/commands/**/*.ts'],
    forbid: ['../httpd/**', '../worker/**', '../rpc/**', '../handlers/**', '../remote/**', '../*.js'],
    allowTypeImports: true,
  },
  {
    files: ['server/remote-inputs/**/*.ts'],
    forbid: ['../commands/**', '../httpd/**', '../worker/**', '../rpc/**', '../handlers/**', '../remote/**', '../*.js'],
    allowTypeImports: true,
  },
  {
    files: ['server/worker/**/*.ts'],
    forbid: ['../httpd/**', '../rpc/**', '../handlers/**', '../remote/**'],
    allowTypeImports: true,
  },
];

/** lang/ and render/ are pure: no I/O modules. */
const IO_MODULES = [
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'net',
  'node:net',
  'http',
  'node:http',
  'https',
  'node:https',
  'child_process',
  'node:child_process',
  'os',
  'node:os',
  'worker_threads',
  'node:worker_threads',
];

const importRule = (forbid, { pure = false, allowTypeImports = false } = {}) => [
  'error',
  {
    ...(pure ? { paths: IO_MODULES } : {}),
    patterns: [
      {
        group: OLD_GO_COPIES,
        message: 'Go behaviour lives in lang/go (strconv, fmt, encoding-json, math, time, regexp, yaml-v2-emit).',
      },
      ...(forbid.length > 0
        ? [
            {
              group: forbid,
              allowTypeImports,
              message: 'This arrow is not in docs/ARCHITECTURE.md (layers and what they may import).',
            },
          ]
        : []),
    ],
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/fixtures/**', '**/testdata/**', '.upstream/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  { files: ['**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': importRule([]) } },
  ...ARROWS.map(({ files, forbid, allowTypeImports }) => ({
    files,
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': importRule(forbid, {
        pure: files.some((f) => f.startsWith('lang/') || f.startsWith('render/')),
        allowTypeImports,
      }),
    },
  })),
  // One YAML-to-value reader (lang/go/yaml-v2): nothing else parses YAML with the `yaml` package, except
  // YAKL's and ytt's front ends, which compile their languages from its syntax tree (comments, positions),
  // and tests and benchmarks, which read our output with an independent parser.
  {
    files: ['**/*.ts'],
    ignores: ['lang/go/**', 'lang/yakl/yaml-parse.ts', 'lang/ytt/parse.ts', '**/*.test.ts', 'test/**', 'bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='yaml'] > ImportSpecifier[imported.name=/^(parse|parseDocument|parseAllDocuments|Parser|Composer|Lexer)$/]",
          message: 'YAML is read by lang/go/yaml-v2 (go-yaml v2 with sigs.k8s.io/yaml): import it from there.',
        },
      ],
    },
  },
  {
    files: ['lang/**/*.ts', 'render/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env' },
        { object: 'Date', property: 'now' },
      ],
    },
  },
);
