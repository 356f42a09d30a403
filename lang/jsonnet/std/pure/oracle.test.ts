/**
 * Differential test against the C++ jsonnet binary (/usr/bin/jsonnet, v0.18):
 * every case calls one pure std function with literal arguments and compares
 * our result (or error message) with the oracle's. Only cases where C++ v0.18
 * and go-jsonnet agree are listed here; behaviour where go-jsonnet differs
 * (number printing in manifestJson/YAML, unquoted YAML keys, base64 of
 * non-ASCII strings, parseYaml scalars...) is covered by the per-file tests.
 * Successful cases run in one oracle process; error cases one process each.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonValue } from '../../../common/json.js';
import { pureStd } from './index.js';
import { StdError } from './std-error.js';

const ORACLE = '/usr/bin/jsonnet';

/** [function, Jsonnet array literal of arguments] */
type Case = [string, string];

const okCases: Case[] = [
  // format / %
  ['format', `["%d", [42]]`],
  ['format', `["%5d|%-5d|%05d", [42, 42, 42]]`],
  ['format', `["%+d % d %d", [5, 5, -5]]`],
  ['format', `["%d", [-1.5]]`],
  ['format', `["%d", [2.9]]`],
  ['format', `["%.3d", [7]]`],
  ['format', `["%i %u", [1, 2]]`],
  ['format', `["%o %#o", [8, 8]]`],
  ['format', `["%x %X %#x %#X", [255, 255, 255, 255]]`],
  ['format', `["%x", [-255.5]]`],
  ['format', `["%08.3f", [3.14159]]`],
  ['format', `["%f %F", [1.5, 2.25]]`],
  ['format', `["%.0f %#.0f", [2.5, 2.5]]`],
  ['format', `["%.2f", [0.125]]`],
  ['format', `["%e", [12345.678]]`],
  ['format', `["%E", [0.000123]]`],
  ['format', `["%.2e", [0]]`],
  ['format', `["%10.3e|", [-1.5]]`],
  ['format', `["%g %g %g", [100000, 1000000, 0.0001]]`],
  ['format', `["%g %G", [0.00001, 1e-10]]`],
  ['format', `["%#g", [1.5]]`],
  ['format', `["%.3g", [3.14159]]`],
  ['format', `["%g", [123456789]]`],
  ['format', `["%c%c", [65, "b"]]`],
  ['format', `["%s and %s", ["a", [1, {b: "c"}]]]`],
  ['format', `["%s", [{}]]`],
  ['format', `["%s", [null]]`],
  ['format', `["%s", [1.5]]`],
  ['format', `["%10s|%-10s|", ["ab", "cd"]]`],
  ['format', `["%*d|%-*d", [6, 1, 4, 2]]`],
  ['format', `["%.*f", [2, 3.14159]]`],
  ['format', `["100%%", []]`],
  ['format', `["%5%|", []]`],
  ['format', `["%(a)s-%(b)05d", {a: "x", b: 7}]`],
  ['format', `["%(a)s %%", {a: [1]}]`],
  ['format', `["%s", "single"]`],
  ['format', `["%d%%", 50]`],
  ['format', `["%ld %hd %Lf", [1, 2, 3]]`],
  ['format', `["%s", ["ünïcödé"]]`],
  ['format', `["%5s|", ["ü"]]`],
  ['format', `["%.3s", ["abcdef"]]`],
  ['format', `["%d", [1e15]]`],
  ['format', `["%x", [1e15]]`],
  ['format', `["%e", [1e300]]`],
  ['format', `["%f", [1e-300]]`],
  ['format', `["%-+5d|", [3]]`],
  ['format', `["% 05d", [3]]`],
  // manifestJson family
  ['manifestJson', `[{a: 1, b: [true, null, "x"], c: {}}]`],
  ['manifestJson', `[[]]`],
  ['manifestJson', `["quote \\" backslash \\\\ tab \\t"]`],
  ['manifestJson', `[{"é": "ü", "\\u0001": 1}]`],
  ['manifestJsonMinified', `[{a: [1, 2, {b: "c"}], d: {}}]`],
  ['manifestJsonEx', `[{a: [1, [2, []]]}, "  "]`],
  ['manifestJsonEx', `[{a: {b: 1}}, "\\t", "\\n", " = "]`],
  ['manifestJsonEx', `[[1, 2], "", " ", ":"]`],
  ['manifestJsonEx', `["str", "  "]`],
  ['manifestJsonEx', `[[], "  "]`],
  ['manifestJsonEx', `[{}, "  "]`],
  ['manifestJsonEx', `[[1, -2, 3.5, 1e3], "  "]`],
  // YAML
  ['manifestYamlDoc', `[{a: [1, "x\\ny"]}]`],
  ['manifestYamlDoc', `[{a: "line1\\nline2\\n", b: [], c: {}, d: ""}]`],
  ['manifestYamlDoc', `[[[1, 2], [], {}, {a: 1, b: [3]}, "s\\n"]]`],
  ['manifestYamlDoc', `[{a: {b: {c: [1, {d: 2}]}}}, true]`],
  ['manifestYamlDoc', `[{ports: [{port: 80}, {port: 443}], name: "x"}, false]`],
  ['manifestYamlDoc', `[[[[1]]]]`],
  ['manifestYamlDoc', `["just a string"]`],
  ['manifestYamlDoc', `[null]`],
  ['manifestYamlDoc', `[{"key with space": 1, "": 2}]`],
  ['manifestYamlDoc', `[{a: "\\n"}]`],
  ['manifestYamlDoc', `[[{a: "x\\ny\\n"}]]`],
  ['manifestYamlDoc', `[{a: 1, b: "two"}, false, false]`],
  ['manifestYamlDoc', `[{abc: 1, "a b": 2, "true": 3, "null": 4, "1": 5, "1.5": 6, "-": 7, "x_y-z": 8}, false, false]`],
  ['manifestYamlStream', `[[{a: 1}, [1, 2], "x"]]`],
  ['manifestYamlStream', `[[{a: 1}], false, false]`],
  ['manifestYamlStream', `[[]]`],
  ['manifestYamlStream', `[[{a: [1]}], true]`],
  // TOML
  ['manifestToml', `[{a: 1, b: "x", c: [1, 2], d: {e: true}}]`],
  ['manifestToml', `[{a: {b: {c: 1}}, z: [{x: 1}, {y: 2}]}]`],
  ['manifestTomlEx', `[{a: [[1, 2], {b: 1}], "key x": "v"}, "    "]`],
  ['manifestTomlEx', `[{s: {}, t: [{}], u: {v: {}}}, "  "]`],
  ['manifestToml', `[{}]`],
  ['manifestToml', `[{a: []}]`],
  ['manifestToml', `[{a: {}, b: 1}]`],
  // INI / Python / XML
  ['manifestIni', `[{main: {a: "1", b: 2}, sections: {s1: {x: [1, "y"]}, s2: {}}}]`],
  ['manifestIni', `[{sections: {}}]`],
  ['manifestIni', `[{sections: {b: {k: {x: 1}}, a: {z: null}}}]`],
  ['manifestPython', `[{a: [true, false, null, 1.5, "s"], b: {}}]`],
  ['manifestPython', `["it's \\"quoted\\""]`],
  ['manifestPythonVars', `[{x: 1, y: [1, "a"], z: {k: null}}]`],
  ['manifestXmlJsonml', `[["svg", {height: 100, width: "1"}, ["circle", {r: 5}], "text"]]`],
  ['manifestXmlJsonml', `[["a", "<raw>&"]]`],
  ['manifestXmlJsonml', `[["empty"]]`],
  // parse
  ['parseJson', `['{"a": [1, 2.5, -3e2, true, false, null], "b": {"c": "d\\\\u00e9\\\\n"}}']`],
  ['parseJson', `['  [ ]  ']`],
  ['parseJson', `['"\\\\ud83d\\\\ude00"']`],
  ['parseJson', `['{"a": 1, "a": 2}']`],
  ['parseJson', `['-0.5e-3']`],
  // escaping
  ['escapeStringJson', `["a\\"b\\\\c\\n\\u0001\\u007f\\u009f é"]`],
  ['escapeStringJson', `[[1, "a"]]`],
  ['escapeStringJson', `[1.5]`],
  ['escapeStringPython', `["x'y\\"z"]`],
  ['escapeStringBash', `["it's"]`],
  ['escapeStringBash', `[42]`],
  ['escapeStringDollars', `["$x $$y"]`],
  ['escapeStringXML', `["<a href=\\"x\\">'&'</a>"]`],
  // encoding
  ['base64', `["hello"]`],
  ['base64', `[""]`],
  ['base64', `["ab"]`],
  ['base64', `[[0, 255, 128, 1]]`],
  ['base64Decode', `["aGVsbG8="]`],
  ['base64Decode', `["YWI="]`],
  ['base64DecodeBytes', `["AP+AAQ=="]`],
  ['base64DecodeBytes', `[""]`],
  ['encodeUTF8', `["aé€😀"]`],
  ['decodeUTF8', `[[97, 195, 169, 226, 130, 172]]`],
  ['md5', `["hello"]`],
  ['md5', `["ünïcödé"]`],
  // strings
  ['substr', `["hello", 1, 3]`],
  ['substr', `["héllo😀x", 4, 2]`],
  ['substr', `["abc", 5, 2]`],
  ['substr', `["abc", 1, 100]`],
  ['startsWith', `["foobar", "foo"]`],
  ['startsWith', `["fo", "foo"]`],
  ['endsWith', `["foobar", "bar"]`],
  ['endsWith', `["foobar", "foo"]`],
  ['split', `["a,b,,c", ","]`],
  ['splitLimit', `["a,b,c,d", ",", 2]`],
  ['splitLimit', `["a,b,c", ",", 0]`],
  ['splitLimit', `["a,b,c", ",", -1]`],
  ['splitLimitR', `["a,b,c,d", ",", 2]`],
  ['splitLimitR', `["a,b,c", ",", -1]`],
  ['strReplace', `["aaa", "a", "bb"]`],
  ['strReplace', `["I like cats, cats!", "cats", "dogs"]`],
  ['asciiUpper', `["abcXYZ é1"]`],
  ['asciiLower', `["ABCxyz É1"]`],
  ['stripChars', `["  xx  ", " "]`],
  ['stripChars', `["aabbaa", "ab"]`],
  ['lstripChars', `["aaabc", "a"]`],
  ['rstripChars', `["abccc", "c"]`],
  ['lstripChars', `["xyz", ["x", "y"]]`],
  ['findSubstr', `["aa", "aaaa"]`],
  ['findSubstr', `["", "abc"]`],
  ['findSubstr', `["é", "éaé"]`],
  ['parseInt', `["-123"]`],
  ['parseInt', `["0042"]`],
  ['parseOctal', `["755"]`],
  ['parseHex', `["ff"]`],
  ['parseHex', `["DEADbeef"]`],
  ['char', `[65]`],
  ['char', `[128512]`],
  ['codepoint', `["€"]`],
  ['stringChars', `["a😀b"]`],
  ['lines', `[["a", "b", null, "c"]]`],
  ['deepJoin', `[["a", ["b", ["c"]], []]]`],
  ['resolvePath', `["a/b/c.jsonnet", "d.libsonnet"]`],
  ['resolvePath', `["c.jsonnet", "d"]`],
];

const errorCases: Case[] = [
  ['format', `["%d", ["x"]]`],
  ['format', `["%s %s", ["y"]]`],
  ['format', `["%s", ["y", "z"]]`],
  ['format', `["%z", [1]]`],
  ['format', `["%", []]`],
  ['format', `["%(a", {a: 1}]`],
  ['format', `["%s", {a: 1}]`],
  ['format', `["%(b)s", {a: 1}]`],
  ['format', `["%*s", {a: 1}]`],
  ['format', `["%c", ["ab"]]`],
  ['format', `["%c", [true]]`],
  ['format', `["%(a)d", {a: "s"}]`],
  ['format', `["%*d", []]`],
  ['manifestYamlStream', `[{a: 1}]`],
  ['manifestTomlEx', `[[1], "  "]`],
  ['manifestXmlJsonml', `[{}]`],
  ['parseOctal', `["8"]`],
  ['parseOctal', `[""]`],
  ['parseHex', `["xyz"]`],
  ['parseHex', `[1]`],
  ['findSubstr', `[1, "a"]`],
  ['findSubstr', `["a", 1]`],
  ['strReplace', `["abc", "", "x"]`],
  ['codepoint', `["ab"]`],
  ['deepJoin', `[[1]]`],
];

const skipAll = !existsSync(ORACLE);

function runOracle(code: string): { ok: true; out: string } | { ok: false; err: string } {
  try {
    return {
      ok: true,
      out: execFileSync(ORACLE, ['-e', code], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    };
  } catch (e) {
    const stderr = String((e as { stderr?: unknown }).stderr ?? '');
    return { ok: false, err: stderr };
  }
}

/** Drops cases whose function the oracle (v0.18) lacks. */
function available(cases: Case[]): Case[] {
  const names = [...new Set(cases.map(([n]) => n))];
  const res = runOracle(`[std.objectHasAll(std, n) for n in ${JSON.stringify(names)}]`);
  assert.ok(res.ok);
  const has = JSON.parse(res.out) as boolean[];
  const present = new Set(names.filter((_, i) => has[i]));
  return cases.filter(([n]) => present.has(n));
}

function callOurs(name: string, args: JsonValue[]): JsonValue {
  const b = pureStd[name]!;
  const full = b.params.map((p, i) => (i < args.length ? args[i]! : b.defaults![p]!));
  return b.fn(full);
}

function oracleCall(name: string, argsLit: string, n: number): string {
  const args = Array.from({ length: n }, (_, i) => `a[${i}]`).join(', ');
  return `(local a = ${argsLit}; std.${name}(${args}))`;
}

test('pure std agrees with the C++ oracle on successful calls', { skip: skipAll }, () => {
  const ok = available(okCases);
  // Arity of each literal: ask the oracle once for all argument arrays.
  const argsRes = runOracle('[' + ok.map(([, a]) => a).join(',\n') + ']');
  assert.ok(argsRes.ok, 'argument literals evaluate');
  const allArgs = JSON.parse(argsRes.out) as JsonValue[];
  const calls = ok.map(([name, lit], i) => {
    const n = Array.isArray(allArgs[i]) ? allArgs[i].length : 2;
    return oracleCall(name, lit, n);
  });
  const res = runOracle('[' + calls.join(',\n') + ']');
  assert.ok(res.ok, res.ok ? '' : res.err);
  const expected = JSON.parse(res.out) as JsonValue[];
  const failures: string[] = [];
  ok.forEach(([name, lit], i) => {
    const raw = allArgs[i]!;
    const args = Array.isArray(raw) ? raw : [raw];
    let ours: JsonValue;
    try {
      ours = callOurs(name, name === 'format' && !Array.isArray(raw) ? [raw] : args);
    } catch (e) {
      failures.push(`std.${name}(${lit}) threw ${(e as Error).message}`);
      return;
    }
    try {
      assert.deepEqual(ours, expected[i]);
    } catch {
      failures.push(
        `std.${name}(${lit}):\n  ours:   ${JSON.stringify(ours)}\n  oracle: ${JSON.stringify(expected[i])}`,
      );
    }
  });
  assert.deepEqual(failures, []);
});

test('pure std agrees with the C++ oracle on error messages', { skip: skipAll }, () => {
  const errors = available(errorCases);
  const failures: string[] = [];
  const argsRes = runOracle('[' + errors.map(([, a]) => a).join(',\n') + ']');
  assert.ok(argsRes.ok, 'argument literals evaluate');
  const allArgs = JSON.parse(argsRes.out) as JsonValue[][];
  for (const [k, [name, lit]] of errors.entries()) {
    const args = allArgs[k]!;
    const res = runOracle(oracleCall(name, lit, args.length));
    assert.ok(!res.ok, `oracle should fail for std.${name}(${lit})`);
    const want = /RUNTIME ERROR: (.*)/.exec(res.err)?.[1] ?? res.err;
    try {
      callOurs(name, args);
      failures.push(`std.${name}(${lit}) did not throw; oracle: ${want}`);
    } catch (e) {
      if (!(e instanceof StdError)) failures.push(`std.${name}(${lit}) threw a non-StdError: ${String(e)}`);
      else if (e.message !== want) failures.push(`std.${name}(${lit}):\n  ours:   ${e.message}\n  oracle: ${want}`);
    }
  }
  assert.deepEqual(failures, []);
});
