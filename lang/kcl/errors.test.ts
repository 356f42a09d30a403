/**
 * Bad programs: each error has KCL's kind, the file:line:col it comes from and
 * why, and never escapes as anything but a KclError.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KclError, runKcl } from './index.js';
import { memoryHost } from './memory-host.js';

function fail(files: Record<string, string>): KclError {
  try {
    runKcl(memoryHost(files), { paths: ['/m/main.k'] });
  } catch (err) {
    if (err instanceof KclError) return err;
    throw err;
  }
  assert.fail('expected a KclError');
}

const CASES: [string, Record<string, string>, string, string][] = [
  ['unterminated string', { '/m/main.k': 'a = "x\n' }, 'InvalidSyntax', '/m/main.k:1:5: unterminated string'],
  [
    'missing expression',
    { '/m/main.k': 'a = 1\nb = \n' },
    'InvalidSyntax',
    '/m/main.k:2:5: expected an expression, got newline',
  ],
  [
    'bad indentation',
    { '/m/main.k': 'schema S:\n    a: int\n  b: int\n' },
    'InvalidSyntax',
    '/m/main.k:3:3: unindent does not match any outer indentation level',
  ],
  [
    'conflicting union',
    { '/m/main.k': 'a = {\n    x: 1\n    x: 2\n}\n' },
    'EvaluationError',
    "/m/main.k:3:5: conflicting values on the attribute 'x' between 1 and 2",
  ],
  [
    'public variable bound twice',
    { '/m/main.k': 'a = 1\na = 2\n' },
    'ImmutableError',
    "/m/main.k:2:1: Can not change the value of 'a', because it was declared immutable; /m/main.k:1:1: The variable 'a' is declared here",
  ],
  ['undefined name', { '/m/main.k': 'a = b\n' }, 'CompileError', "/m/main.k:1:5: name 'b' is not defined"],
  [
    'missing module',
    { '/m/main.k': 'import nothere\na = nothere.x\n' },
    'CannotFindModule',
    '/m/main.k:1:1: Cannot find the module nothere',
  ],
  [
    'missing module attribute',
    { '/m/main.k': 'import lib\na = lib.y\n', '/m/lib/l.k': 'x = 1\n' },
    // as kcl reports it (its grammar tests import/module/no_module_attr_fail_*)
    'TypeError',
    "/m/main.k:2:5: attribute 'y' not found in 'module 'lib''",
  ],
  [
    'private names of other packages are hidden',
    { '/m/main.k': 'import lib\na = lib._x\n', '/m/lib/l.k': '_x = 1\n' },
    'TypeError',
    "/m/main.k:2:5: attribute '_x' not found in 'module 'lib''",
  ],
  [
    'required attribute',
    { '/m/main.k': 'schema S:\n    image: str\ns = S {}\n' },
    'EvaluationError',
    // at the statement, as kcl (its grammar tests schema/optional_attr/fail_0, fail_5)
    "/m/main.k:3:1: attribute 'image' of S is required and can't be None or Undefined",
  ],
  [
    'required attribute set to None',
    { '/m/main.k': 'schema S:\n    port: int = 80\ns = S {\n    port = None\n}\n' },
    'EvaluationError',
    "/m/main.k:3:1: attribute 'port' of S is required and can't be None or Undefined",
  ],
  [
    'unknown member',
    { '/m/main.k': 'schema S:\n    replicas: int = 1\ns = S {\n    b = 2\n}\n' },
    'CompileError',
    "/m/main.k:4:5: Cannot add member 'b' to schema 'S'",
  ],
  [
    'type mismatch',
    { '/m/main.k': 'schema S:\n    n: int = 1\ns = S {\n    n = "x"\n}\n' },
    'TypeError',
    // kcl points at the attribute's declaration too (its grammar tests schema/type/type_fail_*)
    '/m/main.k:4:5: expected int, got str(x); /m/main.k:2:5: variable is defined here, its type is int, but got str(x)',
  ],
  ['typed variable', { '/m/main.k': 'a: [str] = [1]\n' }, 'TypeError', '/m/main.k:1:1: expected [str], got [int(1)]'],
  [
    'check failure',
    {
      '/m/main.k':
        'schema S:\n    image: str = ""\n    check:\n        len(image) >= 1, "image must not be empty"\ns = S {}\n',
    },
    'EvaluationError',
    '/m/main.k:5:5: Instance check failed; /m/main.k:4:1: Check failed on the condition: image must not be empty',
  ],
  [
    'assert',
    { '/m/main.k': 'a = 1\nassert a > 1, "a is too small"\n' },
    'EvaluationError',
    '/m/main.k:2:1: a is too small',
  ],
  [
    'division by zero',
    { '/m/main.k': 'a = 1 // 0\n' },
    'EvaluationError',
    '/m/main.k:1:5: integer division or modulo by zero',
  ],
  [
    'a cycle of values',
    { '/m/main.k': 'a = b\nb = a\n' },
    'RecursionError',
    "/m/main.k:2:5: 'a' refers to itself (a cycle of top-level values)",
  ],
  [
    'index out of range',
    { '/m/main.k': 'a = [1][3]\n' },
    'EvaluationError',
    '/m/main.k:1:8: list index out of range: 3',
  ],
  [
    'calling a non-function',
    { '/m/main.k': 'a = 1\nb = a()\n' },
    'TypeError',
    "/m/main.k:2:6: 'int' object is not callable",
  ],
  [
    'lambda arguments',
    { '/m/main.k': 'f = lambda x: int { x }\na = f("s")\n' },
    'TypeError',
    '/m/main.k:1:5: expected int, got str(s)',
  ],
  [
    'required option',
    { '/m/main.k': 'a = option("env", required = True)\n' },
    'EvaluationError',
    // at the statement, as kcl (its grammar tests option/option_help_fail_0)
    "/m/main.k:1:1: option('env') must be initialized, try '-D env=?' argument",
  ],
  [
    'outside the subset',
    { '/m/main.k': 'rule R:\n    True\n' },
    'InvalidSyntax',
    "/m/main.k:1:1: 'rule' is outside the supported KCL subset",
  ],
];

for (const [name, files, kind, where] of CASES)
  test(name, () => {
    const err = fail(files);
    assert.equal(err.kind, kind);
    assert.equal(err.message, `${kind}: ${where}`);
  });

test('the rendered error shows the kind, the place and the source line with a caret', () => {
  const err = fail({ '/m/main.k': 'schema S:\n    image: str = "x"\ns = S {\n    imgae = "y"\n}\n' });
  assert.equal(
    err.render(),
    'error[E2L23]: CompileError\n' +
      ' --> /m/main.k:4:5\n' +
      '  |\n' +
      '4 |     imgae = "y"\n' +
      `  |     ^ Cannot add member 'imgae' to schema 'S', did you mean '["image"]'?\n` +
      '  |\n',
  );
});

test('a failed check points at the instance and at the condition, as kcl does', () => {
  const err = fail({
    '/m/main.k': 'schema S:\n    n: int = 0\n    check:\n        n > 0, "n must be positive"\n\ns = S {}\n',
  });
  assert.equal(
    err.render(),
    'error[E3M38]: EvaluationError\n' +
      ' --> /m/main.k:6:5\n' +
      '  |\n' +
      '6 | s = S {}\n' +
      '  |     ^ Instance check failed\n' +
      '  |\n' +
      ' --> /m/main.k:4:1\n' +
      '  |\n' +
      '4 |         n > 0, "n must be positive"\n' +
      '  |  Check failed on the condition: n must be positive\n' +
      '  |\n',
  );
});

test('rebinding a public variable says where it was declared and how to make it mutable', () => {
  const err = fail({ '/m/main.k': 'a = 1\na = 2\n' });
  assert.equal(
    err.render(),
    'error[E1001]: ImmutableError\n' +
      ' --> /m/main.k:2:1\n' +
      '  |\n' +
      '2 | a = 2\n' +
      "  | ^ Can not change the value of 'a', because it was declared immutable\n" +
      '  |\n' +
      ' --> /m/main.k:1:1\n' +
      '  |\n' +
      '1 | a = 1\n' +
      "  | ^ The variable 'a' is declared here\n" +
      '  |\n' +
      "note: change the variable name to '_a' to make it mutable\n",
  );
});

test('deep recursion is an error, not a crash', () => {
  const err = fail({ '/m/main.k': 'f = lambda n { f(n + 1) }\na = f(0)\n' });
  assert.equal(err.kind, 'RecursionError');
});
