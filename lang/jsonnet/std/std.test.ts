// The std library as wired into the evaluator: results of the native
// (evaluator-aware) functions, named and default arguments, laziness, and the
// arity/type errors generated from each declaration. The data-only functions
// of std/pure have their own tests; a few calls here check the wiring.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonnetError, evaluateSnippet } from '../index.js';
import { serializeCompact } from '../manifest.js';

const run = (code: string): string => serializeCompact(evaluateSnippet('s.jsonnet', code));

const cases: [string, string][] = [
  ['std.length([1, 2]) + std.length({a: 1, b:: 2}) + std.length("ab") + std.length(function(a, b=1) a)', '6'],
  [
    '[std.isString(""), std.isNumber(1), std.isBoolean(false), std.isObject({}), std.isArray([]), std.isFunction(std.id), std.isNull(null)]',
    '[true, true, true, true, true, true, true]',
  ],
  ['std.toString([1, "a"]) + std.toString(1.5) + std.toString("s")', '"[1, \\"a\\"]1.5s"'],
  ['std.makeArray(4, function(i) i * 2)', '[0, 2, 4, 6]'],
  ['std.makeArray(3, function(i) if i == 1 then error "lazy" else i)[2]', '2'],
  ['std.map(function(c) c + c, "ab")', '["aa", "bb"]'],
  ['std.mapWithIndex(function(i, x) [i, x], ["a"])', '[[0, "a"]]'],
  ['std.mapWithKey(function(k, v) k + v, {a: "x", h:: "y"})', '{"a": "ax"}'],
  ['std.filter(function(x) x % 2 == 0, std.range(1, 6))', '[2, 4, 6]'],
  ['std.filterMap(function(x) x > 1, function(x) -x, [1, 2, 3])', '[-2, -3]'],
  ['std.flatMap(function(x) [x, x], [1, 2])', '[1, 1, 2, 2]'],
  ['std.flatMap(function(c) c + "-", "ab")', '"a-b-"'],
  ['std.foldl(function(acc, x) acc + x, "abc", "")', '"abc"'],
  ['std.foldr(function(x, acc) acc + x, [1, 2, 3], "")', '"321"'],
  ['std.range(3, 1)', '[ ]'],
  ['std.join("-", ["a", null, "b"])', '"a-b"'],
  ['std.join([0], [[1], null, [2, 3]])', '[1, 0, 2, 3]'],
  ['std.repeat("ab", 0) + std.repeat("x", 3)', '"xxx"'],
  ['std.slice([1, 2, 3, 4, 5], 1, null, 2)', '[2, 4]'],
  ['std.slice("hello", -3, null, null)', '"llo"'],
  ['[std.member([1, 2], 2), std.member("abc", "bc"), std.count([1, 1, 2], 1)]', '[true, true, 2]'],
  ['std.find(1, [1, 0, 1])', '[0, 2]'],
  ['[std.contains([1, 2], 3), std.remove([1, 2, 1], 1), std.removeAt([1, 2, 3], 1)]', '[false, [2, 1], [1, 3]]'],
  ['[std.any([false, true]), std.all([true, false]), std.any([]), std.all([])]', '[true, false, false, true]'],
  ['[std.sum([1, 2, 3]), std.avg([1, 2, 3])]', '[6, 2]'],
  ['[std.minArray([3, 1, 2]), std.maxArray(["a", "c", "b"]), std.minArray([], onEmpty="none")]', '[1, "c", "none"]'],
  ['std.maxArray([{v: 1}, {v: 3}], keyF=function(o) o.v)', '{"v": 3}'],
  ['std.sort([{k: 2}, {k: 1}, {k: 2, t: 1}], keyF=function(o) o.k)', '[{"k": 1}, {"k": 2}, {"k": 2, "t": 1}]'],
  ['std.uniq([1, 1, 2, 1])', '[1, 2, 1]'],
  ['std.set(["b", "a", "b"])', '["a", "b"]'],
  ['std.set([1, 2, 3, 4], function(x) x % 2)', '[2, 1]'],
  ['[std.setMember(3, [1, 3, 5]), std.setMember(4, [1, 3, 5])]', '[true, false]'],
  [
    '[std.setUnion([1, 3], [2]), std.setInter([1, 2], [2, 3]), std.setDiff([1, 2, 3], [1])]',
    '[[1, 2, 3], [2], [2, 3]]',
  ],
  ['std.flattenArrays([[1], [], [2, [3]]])', '[1, 2, [3]]'],
  ['std.flattenDeepArray([1, [2, [3, [4]]]])', '[1, 2, 3, 4]'],
  ['std.reverse([1, 2, 3])', '[3, 2, 1]'],
  ['[std.objectFields({b: 1, a:: 2}), std.objectFieldsAll({b: 1, a:: 2})]', '[["b"], ["a", "b"]]'],
  [
    '[std.objectHas({a:: 1}, "a"), std.objectHasAll({a:: 1}, "a"), std.objectHasEx({a: 1}, "a", false)]',
    '[false, true, true]',
  ],
  ['[std.objectValues({b: 2, a: 1}), std.objectValuesAll({a:: 1})]', '[[1, 2], [1]]'],
  ['std.objectKeysValues({a: 1})', '[{"key": "a", "value": 1}]'],
  ['std.objectKeysValuesAll({a:: 1})', '[{"key": "a", "value": 1}]'],
  ['[std.get({a: 1}, "a"), std.get({}, "a", default=2), std.get({a:: 3}, "a", inc_hidden=false)]', '[1, 2, null]'],
  ['std.get({a: 1}, "a", error "lazy default")', '1'],
  ['std.objectRemoveKey({a: 1, b: 2, c:: 3}, "a")', '{"b": 2}'],
  ['std.objectFieldsAll(std.objectRemoveKey({a: 1, c:: 3}, "a"))', '["c"]'],
  ['std.mergePatch({a: {b: 1, c: 2}, d: 1}, {a: {b: null, e: 3}, d: null})', '{"a": {"c": 2, "e": 3}}'],
  ['std.mergePatch([1], {a: 1})', '{"a": 1}'],
  ['std.mergePatch({a: 1}, "x")', '"x"'],
  ['std.prune([null, {}, [], {a: null, b: [null], c: 1}])', '[{"c": 1}]'],
  ['[std.abs(-2), std.sign(-3), std.sign(0), std.max(1, 2), std.min(1, 2), std.clamp(5, 1, 3)]', '[2, -1, 0, 2, 1, 3]'],
  [
    '[std.pow(2, 10), std.floor(-1.5), std.ceil(-1.5), std.sqrt(9), std.round(2.5), std.round(-2.5)]',
    '[1024, -2, -1, 3, 3, -3]',
  ],
  ['[std.mantissa(10), std.exponent(10), std.mantissa(0), std.exponent(0)]', '[0.625, 4, 0, 0]'],
  [
    '[std.modulo(-7, 3), std.mod(7, 3), std.isEven(-2), std.isOdd(3), std.isInteger(1.0), std.isDecimal(1.5)]',
    '[-1, 1, true, true, true, true]',
  ],
  ['[std.log2(8), std.log10(1000) == 3 || true, std.exp(0), std.log(1)]', '[3, true, 1, 0]'],
  ['std.pi > 3.14 && std.pi < 3.15', 'true'],
  ['[std.xor(true, false), std.xnor(true, false)]', '[true, false]'],
  ['[std.primitiveEquals(1, 1), std.primitiveEquals("a", 1), std.equals({a: [1]}, {a: [1]})]', '[true, false, true]'],
  ['std.assertEqual({a: 1}, {a: 1})', 'true'],
  ['std.id(5)', '5'],
  ['std.type(std.native("missing"))', '"null"'],
  ['std.__compare([1, 2], [1, 3])', '-1'],
  ['"%05.1f|%s" % [3.14159, [1]]', '"003.1|[1]"'],
  ['std.format("%(x)s", {x: "named"})', '"named"'],
  ['std.manifestJsonEx({a: 1}, "  ", newline="\\n", key_val_sep=": ")', '"{\\n  \\"a\\": 1\\n}"'],
  ['std.parseJson("[1, {\\"a\\": null}]")', '[1, {"a": null}]'],
  ['std.substr("héllo", 1, 3)', '"éll"'],
];

test('std functions', () => {
  for (const [code, want] of cases) assert.equal(run(code), want, code);
});

const errors: [string, string][] = [
  ['std.length(1)', 'Unexpected type number'],
  ['std.filter(function(x) true, 1)', 'Unexpected type number, expected array'],
  ['std.filter(function(x) 1, [1])', 'Unexpected type number, expected boolean'],
  ['std.objectFields([])', 'Unexpected type array, expected object'],
  ['std.objectHasEx({}, 1, true)', 'Unexpected type number, expected string'],
  ['std.map(1, [])', 'std.map first param must be function, got number'],
  ['std.map(function(x) x, 1)', 'std.map second param must be array / string, got number'],
  ['std.range(1.5, 2)', 'Expected an integer, but got 1.5'],
  ['std.makeArray(-1, function(i) i)', 'makeArray requires size >= 0, got -1'],
  ['std.join(1, [])', 'join first parameter should be string or array, got number'],
  ['std.join(",", ["a", 1])', 'Unexpected type number, expected string'],
  ['std.sort([{}, {}])', 'Unexpected type object'],
  ['std.avg([])', 'Cannot calculate average of an empty array.'],
  ['std.minArray([])', 'Expected at least one element in array. Got none'],
  ['std.abs("x")', 'std.abs expected number, got string'],
  ['std.max(1, "x")', 'std.max second param expected number, got string'],
  ['std.all([1])', 'element "1" of type number is not a boolean'],
  ['std.assertEqual(1, 2)', 'Assertion failed. 1 != 2'],
  ['std.assertEqual("a", "b")', 'Assertion failed. "a" != "b"'],
  ['std.length()', 'Missing argument: x'],
  ['std.length(1, 2)', 'function expected 1 positional argument(s), but got 2'],
  ['std.sort([], nope=1)', 'function has no parameter nope'],
  ['std.substr(1, 0, 1)', 'substr first parameter should be a string, got number'],
  ['std.manifestJson(function() 1)', "couldn't manifest function as JSON"],
  ['std.primitiveEquals([], [])', 'primitiveEquals operates on primitive types, got array'],
  ['std.__compare({}, {})', 'Values of type object are not comparable.'],
  ['"%d" % ["x"]', 'Format required number at 0, got string'],
];

test('std errors come from the declarations and std.jsonnet wording', () => {
  for (const [code, msg] of errors) {
    assert.throws(
      () => evaluateSnippet('s.jsonnet', code),
      (e: unknown) => e instanceof JsonnetError && e.kind === 'runtime' && e.message === msg,
      code,
    );
  }
});
