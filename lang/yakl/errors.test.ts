/**
 * Every error the spec names: the input, the YAKL_* code, the 1-based line
 * and a piece of the message in the spec's wording.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileYakl, YaklError } from './index.js';

const cases: { name: string; src: string; code: string; line: number; says?: RegExp }[] = [
  {
    name: 'text after a plain expression',
    src: 'image: ${version}-alpine\n',
    code: 'YAKL_AFTER_EXPR',
    line: 1,
    says: /\$\$\{/,
  },
  {
    name: 'two expressions in one quoted string',
    src: "a: 1\nb: '${a} ${b}'\n",
    code: 'YAKL_NOT_ONE_EXPR',
    line: 2,
    says: /exactly one expression/,
  },
  {
    name: 'malformed quoted expression reports the Jsonnet error',
    src: "a: '${\"x}'\n",
    code: 'YAKL_JSONNET',
    line: 1,
    says: /Unterminated String/i,
  },
  { name: 'unterminated expression', src: 'a: 1\nb: ${x + \n', code: 'YAKL_UNTERMINATED', line: 2 },
  {
    name: 'comment swallowing the closing brace',
    src: 'a: ${ x # note }\n',
    code: 'YAKL_UNTERMINATED',
    line: 1,
    says: /comment/,
  },
  { name: 'empty expression', src: 'a: ${}\n', code: 'YAKL_EMPTY_EXPR', line: 1 },
  { name: 'empty quoted expression', src: "a: '${ }'\n", code: 'YAKL_EMPTY_EXPR', line: 1 },
  { name: 'syntax error inside an expression', src: 'a: 1\nb: 2\nc: ${1 +}\n', code: 'YAKL_JSONNET', line: 3 },
  {
    name: 'syntax error inside a block expression',
    src: 'a: |-\n  ${[\n    1,\n    2 +\n  ]}\n',
    code: 'YAKL_JSONNET',
    line: 5,
  },
  {
    name: 'clause as a mapping key',
    src: 'a:\n  ${if debug}:\n    x: 1\n',
    code: 'YAKL_CLAUSE_KEY',
    line: 2,
    says: /<<\+/,
  },
  { name: 'for clause as a mapping key', src: 'a:\n  ${for x in [1]}: 1\n', code: 'YAKL_CLAUSE_KEY', line: 2 },
  {
    name: 'body at the clause indentation',
    src: 'env:\n- ${for e in envs}:\n  name: x\n',
    code: 'YAKL_BODY_INDENT',
    line: 2,
    says: /indent the body/,
  },
  {
    name: 'empty body',
    src: 'env:\n- ${for e in envs}:\n- x\n',
    code: 'YAKL_BODY_EMPTY',
    line: 2,
    says: /indent the body/,
  },
  { name: 'modifier on a clause key', src: 'env:\n- ${for e in envs}+:\n    a: 1\n', code: 'YAKL_AFTER_EXPR', line: 2 },
  {
    name: 'anchor inside a loop body',
    src: 'env:\n- ${for e in envs}:\n    a: &x 1\n',
    code: 'YAKL_ANCHOR_PLACE',
    line: 3,
  },
  {
    name: 'anchor on an item between loops',
    src: 'l:\n- ${for e in [1]}: ${e}\n- &mid 5\n- ${for e in [2]}: ${e}\n',
    code: 'YAKL_ANCHOR_PLACE',
    line: 3,
    says: /fixed index/,
  },
  { name: 'x: with x::', src: 'x: 1\nx:: 2\n', code: 'YAKL_TWO_KEYS', line: 2 },
  { name: 'x: with x+::', src: 'x: 1\nx+:: 2\n', code: 'YAKL_TWO_KEYS', line: 2, says: /plain x\+:/ },
  { name: 'two + keys', src: 'x+: 1\nx+:: 2\n', code: 'YAKL_TWO_KEYS', line: 2 },
  { name: 'too many colons', src: 'x:::: 1\n', code: 'YAKL_BAD_KEY', line: 1 },
  { name: 'modifier without a name', src: '+: 1\n', code: 'YAKL_BAD_KEY', line: 1, says: /key expression/ },
  { name: '<< not first', src: 'a: 1\n<<: {b: 2}\n', code: 'YAKL_MERGE_FIRST', line: 2 },
  { name: '<< with a scalar', src: '<<: 3\na: 1\n', code: 'YAKL_MERGE_SOURCE', line: 1 },
  { name: '<<+ with a plain string', src: 'm:\n  <<+: hello\n  a: 1\n', code: 'YAKL_EXTEND_SOURCE', line: 2 },
  { name: 'reserved <<: key', src: '<<:: 1\n', code: 'YAKL_BAD_KEY', line: 1 },
  { name: '^^: web+ suggests ^^+: web', src: '^^: web+\na: 1\n', code: 'YAKL_NAME', line: 1, says: /\^\^\+: web/ },
  { name: 'numeric name must be quoted', src: '^^: 123\na: 1\n', code: 'YAKL_NAME', line: 1, says: /'123'/ },
  { name: 'name as an expression', src: '^^: ${x}\na: 1\n', code: 'YAKL_NAME', line: 1, says: /never an expression/ },
  { name: 'nested ^^', src: 'a:\n  ^^: x\n', code: 'YAKL_NAME_PLACE', line: 2 },
  { name: 'unnamed is reserved', src: '^^: unnamed\na: 1\n', code: 'YAKL_NAME', line: 1 },
  { name: '^^ inside a block', src: 'a: |-\n  ${ \\{\n      ^^: x\n    } }\n', code: 'YAKL_NAME_PLACE', line: 3 },
  { name: 'same anchor twice', src: 'a: &x 1\nb: &x 2\n', code: 'YAKL_DUPLICATE_ANCHOR', line: 2 },
  {
    name: 'anchor on a key',
    src: '&web apiVersion: v1\nkind: x\n',
    code: 'YAKL_ANCHOR_PLACE',
    line: 1,
    says: /own line/,
  },
  { name: 'anchor on the value of <<', src: '<<: &x {a: 1}\nb: 2\n', code: 'YAKL_ANCHOR_PLACE', line: 1 },
  { name: 'anchor inside a merge source', src: '<<: {a: &x 1}\nb: 2\n', code: 'YAKL_ANCHOR_PLACE', line: 1 },
  { name: 'anchor on the value of <<+', src: 'm:\n  <<+: &x {a: 1}\n  b: 2\n', code: 'YAKL_ANCHOR_PLACE', line: 2 },
  { name: 'anchor under a key expression', src: '${k}: &x 1\n', code: 'YAKL_ANCHOR_PLACE', line: 1 },
  { name: 'anchor in a local key value', src: "'&a': {b: &x 1}\nc: 1\n", code: 'YAKL_ANCHOR_PLACE', line: 1 },
  {
    name: 'anchor on a document of local keys',
    src: "--- &d\n'&a': 1\n---\nc: 1\n",
    code: 'YAKL_ANCHOR_PLACE',
    line: 2,
  },
  {
    name: 'unquoted local key',
    src: 'a: 1\n&labels: {app: web}\n',
    code: 'YAKL_UNQUOTED_LOCAL_KEY',
    line: 2,
    says: /'&labels':/,
  },
  { name: '&a &b', src: '&a &b x: 1\n', code: 'YAKL_TWO_ANCHORS', line: 1, says: /kubectl silently reads/ },
  { name: 'local key without a value', src: "'&x':\na: 1\n", code: 'YAKL_LOCAL_NO_VALUE', line: 1, says: /null/ },
  { name: 'local key with a keyword name', src: "'&if': 1\na: 1\n", code: 'YAKL_BAD_KEY', line: 1 },
  { name: 'local key named std', src: "'&std': 1\na: 1\n", code: 'YAKL_BAD_KEY', line: 1 },
  { name: 'local key twice in a mapping', src: "a:\n  '&x': 1\n  '&x': 2\n", code: 'YAKL_DUPLICATE_KEY', line: 3 },
  { name: 'file locals twice', src: "'&x': 1\n---\n'&x': 2\n---\na: 1\n", code: 'YAKL_DUPLICATE_LOCAL', line: 3 },
  {
    name: '$ in a file local without names',
    src: "'&x': ${$.a}\n---\na: 1\n",
    code: 'YAKL_DOLLAR_IN_FILE_LOCAL',
    line: 1,
  },
  { name: 'reserved local key', src: "'&yakl__x': 1\na: 1\n", code: 'YAKL_BAD_KEY', line: 1, says: /reserved/ },
  {
    name: 'reserved name declared in Jsonnet',
    src: 'a: 1\nb: ${local yakl__x = 1; yakl__x}\n',
    code: 'YAKL_RESERVED',
    line: 2,
  },
  {
    name: 'anchor in a list a later + key extends',
    src: 'x:\n  args+: [&a 1]\nx+:\n  args+: [2]\n',
    code: 'YAKL_ANCHOR_PLACE',
    line: 2,
    says: /index isn't known/,
  },
  { name: 'reserved anchor', src: 'a: &yakl__x 1\n', code: 'YAKL_RESERVED', line: 1 },
  {
    name: 'YAML 1.1 boolean key on',
    src: 'name: ci\non: push\n',
    code: 'YAKL_YAML11_BOOL',
    line: 2,
    says: /true or false, or quote/,
  },
  { name: 'YAML 1.1 boolean value yes', src: 'a: yes\n', code: 'YAKL_YAML11_BOOL', line: 1 },
  { name: 'YAML 1.1 boolean in any case', src: 'a: yEs\n', code: 'YAKL_YAML11_BOOL', line: 1 },
  { name: 'YAML 1.1 boolean n in a list', src: 'a:\n- 1\n- n\n', code: 'YAKL_YAML11_BOOL', line: 3 },
  { name: '!!int tag', src: 'a: !!int 3\n', code: 'YAKL_TAG', line: 1 },
  { name: 'custom tag', src: 'a: !Ref x\n', code: 'YAKL_TAG', line: 1 },
  { name: 'non-specific tag', src: 'a: ! x\n', code: 'YAKL_TAG', line: 1 },
  { name: '!!str on an expression', src: 'a: !!str ${x}\n', code: 'YAKL_TAG', line: 1, says: /\$\$\{/ },
  { name: '!!str on a quoted expression', src: "a: !!str '${x}'\n", code: 'YAKL_TAG', line: 1 },
  { name: 'U+2028 rejected', src: 'a: 1\nb: x\u2028y\n', code: 'YAKL_ENCODING', line: 2 },
  { name: 'U+0085 rejected', src: 'a: x\u0085\n', code: 'YAKL_ENCODING', line: 1 },
  { name: 'complex key', src: '? [a, b]\n: 1\n', code: 'YAKL_COMPLEX_KEY', line: 1 },
  { name: 'duplicate key', src: 'a: 1\nb: 2\na: 3\n', code: 'YAKL_DUPLICATE_KEY', line: 3 },
  { name: 'duplicate key by YAML value', src: '31: 1\n0x1F: 2\n', code: 'YAKL_DUPLICATE_KEY', line: 2 },
  {
    name: '\\{ not ending its line',
    src: 'a: |-\n  ${ \\{ a: 1\n  }\n',
    code: 'YAKL_EXPR',
    line: 2,
    says: /end its line/,
  },
  {
    name: 'block with two documents',
    src: 'a: |-\n  ${ \\{\n      a: 1\n      ---\n      b: 2\n    } }\n',
    code: 'YAKL_YAML',
    line: 4,
  },
  { name: 'infinity', src: 'a: .inf\n', code: 'YAKL_NUMBER', line: 1 },
  {
    name: 'alias bomb',
    src: 'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n',
    code: 'YAKL_ALIAS_LIMIT',
    line: 5,
  },
  { name: 'YAML syntax error line', src: 'a: 1\nb: [1\nc: 2\n', code: 'YAKL_YAML', line: 3 },
  {
    name: 'anchor read by a key of its mapping',
    src: 'm:\n  ${name}: 1\n  name: &name web\n',
    code: 'YAKL_ANCHOR_IN_KEY',
    line: 2,
  },
];

describe('errors the spec names', () => {
  for (const c of cases) {
    test(c.name, () => {
      let err: unknown;
      try {
        compileYakl('err.yakl', c.src);
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof YaklError, `expected a YaklError, got ${String(err)}`);
      assert.equal(err.code, c.code, err.message);
      assert.equal(err.line, c.line, err.message);
      assert.equal(err.fileName, 'err.yakl');
      assert.match(err.message, /^err\.yakl:\d+:\d+: /);
      if (c.says) assert.match(err.reason, c.says);
    });
  }
});
