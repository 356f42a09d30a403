// Sprig function tables: template, data, expected output or error (as Helm/Sprig print them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GoFloat, parseTemplate, profiles, seededRandom, TemplateError } from '../index.js';

const CLOCK = Date.UTC(2023, 10, 14, 22, 13, 20, 123);

function run(src: string, data: unknown = {}, seed = 1): string {
  return parseTemplate('t', src, { functions: profiles.sprig, clock: () => CLOCK, random: seededRandom(seed) }).execute(
    't',
    data,
  );
}

const cases: [string, string, unknown?][] = [
  // strings
  [
    '{{ "Hello" | upper }} {{ "HeLLo" | lower }} {{ "hello wOrld-x" | title }} {{ "Hello World" | untitle }}',
    'HELLO hello Hello WOrld-X hello world',
  ],
  [
    '{{ trim "  a b \\n" }}|{{ trimAll "$" "$$a$" }}|{{ trimPrefix "-" "-a-" }}|{{ trimSuffix "-" "-a-" }}',
    'a b|a|a-|-a',
  ],
  ['{{ trunc 3 "abcdef" }} {{ trunc -2 "abcdef" }} {{ trunc 10 "ab" }}', 'abc ef ab'],
  [
    '{{ abbrev 5 "hello world" }} {{ abbrev 20 "short" }} {{ abbrevboth 5 10 "1234 5678 9123" }}',
    'he... short ...5678...',
  ],
  ['{{ substr 0 5 "hello world" }} {{ substr 6 -1 "hello world" }} {{ substr -1 3 "hello" }}', 'hello world hel'],
  ['{{ repeat 3 "ab" }} {{ nospace "a b\\tc" }} {{ initials "Hello big World" }}', 'ababab abc HbW'],
  ['{{ contains "ll" "hello" }} {{ hasPrefix "he" "hello" }} {{ hasSuffix "lo" "hello" }}', 'true true true'],
  ['{{ quote "a" 1 nil "b\\"" }} {{ squote "a" 2 }}', '"a" "1" "b\\"" \'a\' \'2\''],
  ['{{ cat "a" 1 nil (list 2 3) }}', 'a 1 [2 3]'],
  ['{{ indent 2 "a\\nb" }}|{{ nindent 4 "x" }}', '  a\n  b|\n    x'],
  ['{{ replace "a" "b" "banana" }} {{ plural "one" "many" 1 }} {{ plural "one" "many" 2 }}', 'bbnbnb one many'],
  [
    '{{ snakecase "FirstName" }} {{ snakecase "HTTPServer" }} {{ kebabcase "FirstName" }} {{ camelcase "http_server" }} {{ swapcase "Hello World" }}',
    'first_name http_server first-name HttpServer hELLO wORLD',
  ],
  ['{{ wrap 10 "The quick brown fox jumps" }}', 'The quick\nbrown fox\njumps'],
  ['{{ wrapWith 5 "\\t" "Hello World" }}', 'Hello\tWorld'],
  [
    '{{ "a,b,c" | splitList "," }} {{ $p := split "$" "foo$bar$baz" }}{{ $p._0 }}{{ $p._2 }} {{ $q := splitn "$" 2 "foo$bar$baz" }}{{ $q._1 }}',
    '[a b c] foobaz bar$baz',
  ],
  ['{{ join "-" (list 1 "a" nil 2.5) }} {{ join "," "single" }}', '1-a-2.5 single'],
  ['{{ sortAlpha (list "c" "B" "a" 10 2) }}', '[10 2 B a c]'],
  [
    '{{ toString 1 }} {{ toString 1.5 }} {{ toString nil }} {{ toString (list 1) }} {{ toStrings (list 1 "a" nil) }}',
    '1 1.5 <nil> [1] [1 a]',
  ],
  // conversion
  [
    '{{ atoi "42" }} {{ atoi "x" }} {{ int "0x10" }} {{ int64 "12.0" }} {{ int 3.9 }} {{ int true }} {{ int nil }} {{ float64 "1.5" }} {{ float64 2 }}',
    '42 0 16 12 3 1 0 1.5 2',
  ],
  [
    '{{ toDecimal "0777" }} {{ typeOf 1 }} {{ typeOf 1.5 }} {{ typeOf "s" }} {{ typeOf (list) }} {{ typeOf (dict) }} {{ typeOf nil }}',
    '511 int float64 string []interface {} map[string]interface {} <nil>',
  ],
  [
    '{{ kindOf 1 }} {{ kindOf (dict) }} {{ kindIs "slice" (list) }} {{ typeIs "string" "x" }} {{ deepEqual (list 1 (dict "a" 2)) (list 1 (dict "a" 2)) }} {{ deepEqual 1 1.0 }}',
    'int map true true true false',
  ],
  // math
  [
    '{{ add 1 2 3 }} {{ add1 5 }} {{ sub 5 7 }} {{ mul 2 3 4 }} {{ div 7 2 }} {{ div -7 2 }} {{ mod 7 3 }}',
    '6 6 -2 24 3 -3 1',
  ],
  ['{{ add "3" 1.9 }} {{ max 1 7 3 }} {{ min 4 2 8 }} {{ biggest 1 2 }}', '4 7 2 2'],
  [
    '{{ addf 0.1 0.2 }} {{ subf 1 0.9 }} {{ mulf 1.1 3 }} {{ divf 1 3 }} {{ divf 10 4 }} {{ add1f 1.5 }}',
    '0.3 0.1 3.3 0.3333333333333333 2.5 2.5',
  ],
  [
    '{{ maxf 1 2.5 }} {{ minf 1 2.5 }} {{ ceil 1.1 }} {{ floor 1.9 }} {{ round 3.14159 2 }} {{ round 2.5 0 }} {{ round 2.4 0 }}',
    '2.5 1 2 1 3.14 3 2',
  ],
  ['{{ typeOf (addf 1 1) }} {{ addf 1 1 }}', 'float64 2'],
  // lists
  ['{{ list 1 "a" nil }} {{ tuple 1 2 }}', '[1 a <nil>] [1 2]'],
  [
    '{{ until 5 }} {{ until -3 }} {{ untilStep 0 10 3 }} {{ untilStep 10 0 -4 }} {{ typeOf (until 2) }}',
    '[0 1 2 3 4] [0 -1 -2] [0 3 6 9] [10 6 2] []int',
  ],
  ['{{ seq 3 }}|{{ seq 2 4 }}|{{ seq 4 2 }}|{{ seq 0 3 10 }}|{{ seq 0 }}|{{ seq }}', '1 2 3|2 3 4|4 3 2|0 3 6 9|1 0|'],
  [
    '{{ first (list 1 2) }} {{ last (list 1 2) }} {{ rest (list 1 2 3) }} {{ initial (list 1 2 3) }} {{ first (list) }}',
    '1 2 [2 3] [1 2] <no value>',
  ],
  [
    '{{ append (list 1) 2 }} {{ push (list 1) 2 }} {{ prepend (list 1) 0 }} {{ concat (list 1) (list 2 3) }}',
    '[1 2] [1 2] [0 1] [1 2 3]',
  ],
  [
    '{{ reverse (list 1 2 3) }} {{ uniq (list 1 2 1 "a" "a") }} {{ without (list 1 2 3 2) 2 }} {{ compact (list 0 1 "" "a" nil false) }}',
    '[3 2 1] [1 2 a] [1 3] [1 a]',
  ],
  [
    '{{ has 2 (list 1 2) }} {{ has "2" (list 1 2) }} {{ slice (list 1 2 3 4) 1 3 }} {{ slice (list 1 2 3) 1 }} {{ chunk 2 (list 1 2 3) }}',
    'true false [2 3] [2 3] [[1 2] [3]]',
  ],
  // dicts
  [
    '{{ $d := dict "b" 2 "a" 1 }}{{ $d }} {{ get $d "a" }} {{ get $d "z" }}|{{ hasKey $d "b" }} {{ keys $d }} {{ values $d }}',
    'map[a:1 b:2] 1 |true [a b] [1 2]',
  ],
  [
    '{{ $d := dict "a" 1 }}{{ $_ := set $d "b" 2 }}{{ $d }} {{ unset $d "a" }} {{ dict "odd" }}',
    'map[a:1 b:2] map[b:2] map[odd:]',
  ],
  [
    '{{ pick (dict "a" 1 "b" 2 "c" 3) "a" "c" }} {{ omit (dict "a" 1 "b" 2) "a" }} {{ pluck "a" (dict "a" 1) (dict "b" 2) (dict "a" 3) }}',
    'map[a:1 c:3] map[b:2] [1 3]',
  ],
  [
    '{{ $d := dict "a" (dict "x" 1 "y" 0) "f" false "s" "keep" }}{{ merge $d (dict "a" (dict "y" 2 "z" 3) "f" true "s" "lose" "n" 4) | toJson }}',
    '{"a":{"x":1,"y":2,"z":3},"f":true,"n":4,"s":"keep"}',
  ],
  [
    '{{ $d := dict "a" (dict "x" 1) "s" "old" "l" (list 1) }}{{ mergeOverwrite $d (dict "a" (dict "x" 2) "s" "new" "l" (list 9)) | toJson }}',
    '{"a":{"x":2},"l":[9],"s":"new"}',
  ],
  [
    '{{ dig "a" "b" "def" (dict "a" (dict "b" "found")) }} {{ dig "a" "z" "def" (dict "a" (dict "b" 1)) }}',
    'found def',
  ],
  ['{{ $c := deepCopy (dict "a" (list 1)) }}{{ $c }}', 'map[a:[1]]'],
  // defaults and flow
  [
    '{{ default "d" .x }} {{ default "d" "" }} {{ default "d" 0 }} {{ default "d" false }} {{ default "d" "v" }} {{ .x | default "p" }}',
    'd d d d v p',
  ],
  [
    '{{ empty 0 }} {{ empty "" }} {{ empty (list) }} {{ empty (dict) }} {{ empty 1 }} {{ empty .x }}',
    'true true true true false true',
  ],
  [
    '{{ coalesce 0 "" "c" }} {{ coalesce .x nil }} {{ all 1 "a" }} {{ all 1 "" }} {{ any 0 "" "x" }} {{ ternary "y" "n" false }}',
    'c <no value> true false true n',
  ],
  // encoding
  [
    '{{ b64enc "hello" }} {{ b64dec "aGVsbG8=" }} {{ b64dec "aGVsbG8" }} {{ b64dec "!!" }}',
    'aGVsbG8= hello illegal base64 data at input byte 4 illegal base64 data at input byte 0',
  ],
  ['{{ b32enc "hi" }} {{ b32dec "NBUQ====" }}', 'NBUQ==== hi'],
  ['{{ toJson (dict "b" (list 1 1.5 nil true) "a" "<&>") }}', '{"a":"\\u003c\\u0026\\u003e","b":[1,1.5,null,true]}'],
  [
    '{{ toRawJson (dict "a" "<&>") }} {{ toJson 1e-7 }} {{ toJson 1e21 }} {{ toJson 100000.0 }}',
    '{"a":"<&>"} 1e-7 1e+21 100000',
  ],
  ['{{ toPrettyJson (dict "a" (list 1) "b" (dict)) }}', '{\n  "a": [\n    1\n  ],\n  "b": {}\n}'],
  [
    '{{ $j := fromJson "{\\"a\\": 1, \\"b\\": [1.5, null]}" }}{{ $j }} {{ typeOf $j.a }} {{ fromJson "{bad" }}',
    'map[a:1 b:[1.5 <nil>]] float64 <no value>',
  ],
  // crypto
  ['{{ sha1sum "abc" }} {{ adler32sum "abc" }}', 'a9993e364706816aba3e25717850c26c9cd0d89d 38600999'],
  ['{{ sha256sum "abc" }}', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  // paths and urls
  [
    '{{ base "/a/b.txt" }} {{ dir "/a/b.txt" }} {{ clean "a//b/../c/." }} {{ ext "x.tar.gz" }} {{ isAbs "/x" }} {{ base "" }} {{ dir "a" }}',
    'b.txt /a a/c .gz true . .',
  ],
  [
    '{{ $u := urlParse "https://u:p@host:8080/a%20b?q=1#f" }}{{ $u.scheme }} {{ $u.host }} {{ $u.hostname }} {{ $u.path }} {{ $u.query }} {{ $u.fragment }} {{ $u.userinfo }}',
    'https host:8080 host /a b q=1 f u:p',
  ],
  ['{{ urlJoin (dict "scheme" "https" "host" "h" "path" "/p" "query" "a=1") }}', 'https://h/p?a=1'],
  // regex (RE2)
  [
    `{{ regexMatch "^(a+)+$" "${'a'.repeat(10000)}!" }} {{ mustRegexMatch "(x+x+)+y" "${'x'.repeat(5000)}" }} {{ regexFindAll "(a+)+!" "${'a'.repeat(10000)}!" -1 | len }} {{ regexReplaceAll "^(a|aa)*$" "${'a'.repeat(10000)}b" "" | len }} {{ regexSplit "(a+)+$" "${'a'.repeat(10000)}!" -1 | len }}`,
    'false false 1 10001 1',
  ],
  [
    '{{ regexFindAll "é." "aébéc😀" -1 }} {{ regexReplaceAll "x*" "é😀" "-" }} {{ regexSplit "" "😀é" -1 }}',
    '[éb éc] -é-😀- [😀 é]',
  ],
  [
    '{{ regexMatch "^[a-z]+\\\\d$" "abc1" }} {{ regexMatch "(?i)abc" "xABCx" }} {{ regexMatch "[[:digit:]]+" "x9" }} {{ regexMatch "(" "x" }}',
    'true true true false',
  ],
  [
    '{{ regexFindAll "a*" "baaac" -1 | len }} {{ regexFindAll "[0-9]+" "a1b22c333" 2 }} {{ regexFind "b+" "abbbc" }}',
    '3 [1 22] bbb',
  ],
  [
    '{{ regexReplaceAll "a(x*)b" "-ab-axxb-" "${1}W" }} {{ regexReplaceAll "a(x*)b" "-ab-axxb-" "$1W" }} {{ regexReplaceAllLiteral "a(x*)b" "-ab-" "$1" }}',
    '-W-xxW- --- -$1-',
  ],
  ['{{ regexReplaceAll "(?P<first>\\\\w+) (?P<last>\\\\w+)" "Jane Doe" "$last, $first" }}', 'Doe, Jane'],
  [
    '{{ regexSplit "z+" "pizza" -1 }} {{ regexSplit "z+" "pizza" 1 }} {{ regexSplit "x*" "axbxc" -1 }} {{ regexQuoteMeta "1.5*x" }}',
    '[pi a] [pizza] [a b c] 1\\.5\\*x',
  ],
  [
    '{{ regexMatch "\\\\Qa.b\\\\E" "a.b" }} {{ regexMatch "\\\\Qa.b\\\\E" "axb" }} {{ regexMatch "^\\\\s$" "\\u00a0" }} {{ regexMatch "a{2}" "aa" }} {{ regexMatch "a{" "a{" }}',
    'true false false true true',
  ],
  [
    '{{ regexMatch "a(?i)b" "aB" }} {{ regexMatch "a(?i)b" "AB" }} {{ regexMatch "(?i:x)y" "Xy" }} {{ regexMatch "(?i:x)y" "XY" }} {{ regexMatch "x(?i)k" .kelvin }}',
    'true false true false true',
    { kelvin: 'x\u212a' },
  ],
  [
    '{{ regexMatch "(?s:a.b)" .nl }} {{ regexMatch "a.b" .nl }} {{ regexMatch "a.b" .cr }} {{ regexFindAll "(?m)^x$" .xx -1 }} {{ regexFindAll "^x$" .xx -1 }}',
    'true false true [x x] []',
    { nl: 'a\nb', cr: 'a\rb', xx: 'x\nx' },
  ],
  [
    '{{ regexMatch "(?i)^[a-c]+$" "ABC" }} {{ regexMatch "x(?i)[a-c]+$" "xABC" }} {{ regexMatch "x(?i)[^a-c]" "xB" }} {{ regexMatch "(?i)a(?-i)b" "Ab" }} {{ regexMatch "(?i)a(?-i)b" "AB" }}',
    'true true false true false',
  ],
  // semver
  [
    '{{ semverCompare ">=1.2.0" "1.3.0" }} {{ semverCompare "^1.2" "2.0.0" }} {{ semverCompare "~1.2.3" "1.2.9" }} {{ semverCompare "~1.2.3" "1.3.0" }}',
    'true false true false',
  ],
  [
    '{{ semverCompare "1.2.x" "1.2.7" }} {{ semverCompare ">1.2" "1.2.5" }} {{ semverCompare ">1.2" "1.3.0" }} {{ semverCompare "1.0 - 2.0" "1.5.0" }} {{ semverCompare "<1 || >=3" "3.1.0" }}',
    'true false true true true',
  ],
  [
    '{{ semverCompare ">=1.0.0" "1.1.0-beta.1" }} {{ semverCompare ">=1.0.0-0" "1.1.0-beta.1" }} {{ semverCompare ">= 1.19-0" "v1.25.3-gke.100" }}',
    'false true true',
  ],
  [
    '{{ $v := semver "v1.2.3-beta.1+build" }}{{ $v.Major }} {{ $v.Minor }} {{ $v.Patch }} {{ $v.Prerelease }} {{ $v.Metadata }} {{ $v }} {{ $v.Original }}',
    '1 2 3 beta.1 build 1.2.3-beta.1+build v1.2.3-beta.1+build',
  ],
  ['{{ (semver "1.2.3").Compare (semver "1.3.0") }} {{ (semver "1.0.0").LessThan (semver "1.0.0-rc.1") }}', '-1 false'],
  // dates (injected clock: 2023-11-14T22:13:20.123Z)
  [
    '{{ now | date "2006-01-02T15:04:05.000Z07:00" }} {{ now | htmlDate }} {{ now | unixEpoch }}',
    '2023-11-14T22:13:20.123Z 2023-11-14 1700000000',
  ],
  ['{{ now }}', '2023-11-14 22:13:20.123 +0000 UTC'],
  ['{{ date "Mon Jan _2 3:04PM 2006 MST" 0 }} {{ date "06/1/2" 86400 }}', 'Thu Jan  1 12:00AM 1970 UTC 70/1/2'],
  ['{{ dateInZone "2006-01-02 15:04 MST -07:00" (now) "America/New_York" }}', '2023-11-14 17:13 EST -05:00'],
  [
    '{{ toDate "2006-01-02" "2024-03-05" | date "Jan 2, 2006" }} {{ (toDate "2006-01-02T15:04:05Z07:00" "2024-03-05T10:00:00+02:00") | unixEpoch }}',
    'Mar 5, 2024 1709625600',
  ],
  ['{{ now | dateModify "-1.5h" | date "15:04" }} {{ now | dateModify "bad" | date "15:04" }}', '20:43 22:13'],
  [
    '{{ duration "95" }} {{ duration 3600 }} {{ durationRound "2h10m" }} {{ durationRound "25h" }} {{ durationRound "800h" }} {{ ago (now) }}',
    '1m35s 1h0m0s 2h 1d 1mo 0s',
  ],
  // random (seeded)
  [
    '{{ randAlphaNum 8 | len }} {{ randNumeric 4 | regexMatch "^[0-9]{4}$" }} {{ uuidv4 | regexMatch "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$" }}',
    '8 true true',
  ],
  ['{{ hello }}', 'Hello!'],
  [
    '{{ bcrypt "x" | regexMatch `^\\$2a\\$10\\$[./A-Za-z0-9]{53}$` }} {{ htpasswd "u" "p" | hasPrefix "u:$2a$10$" }} {{ htpasswd "a:b" "p" }}',
    'true true invalid username: a:b',
  ],
  [
    '{{ derivePassword 1 "long" "password" "user" "example.com" }} {{ derivePassword 1 "nope" "p" "u" "s" }}',
    'ZedaFaxcZaso9* cannot find password template nope',
  ],
  ['{{ encryptAES "secretkey" "plaintext" | decryptAES "secretkey" }} {{ encryptAES "k" "" }}|', 'plaintext |'],
];

for (const [src, want, data] of cases) {
  test(src, () => assert.equal(run(src, data ?? {}), want));
}

test('seeded random output is reproducible', () => {
  const src = '{{ randAlphaNum 16 }} {{ uuidv4 }} {{ shuffle "abcdef" }} {{ randInt 1 100 }}';
  assert.equal(run(src, {}, 7), run(src, {}, 7));
  assert.notEqual(run(src, {}, 7), run(src, {}, 8));
});

test('Helm values numbers are float64: integer params reject them', () => {
  assert.throws(() => run('{{ indent .n "x" }}', { n: new GoFloat(2) }), {
    message: 'template: t:1:10: executing "t" at <.n>: wrong type for value; expected int; got float64',
  });
});

const errors: [string, string | RegExp][] = [
  ['{{ until 10001 }}', /error calling until: too many iterations: 10001 exceeds the limit of 10000 items/],
  ['{{ untilStep 0 100000 1 }}', /too many iterations/],
  ['{{ seq 20000 }}', /too many iterations/],
  ['{{ repeat 100000000 "ab" }}', /exceeds the output limit/],
  ['{{ env "HOME" }}', 'template: t:1: function "env" is not available (non-hermetic: it reads the host environment)'],
  ['{{ expandenv "$HOME" }}', /function "expandenv" is not available/],
  ['{{ getHostByName "example.com" }}', /function "getHostByName" is not available/],
  ['{{ genPrivateKey "x" }}{{ fail "after" }}', /error calling fail: after/],
  ['{{ genCAWithKey "x" 1 "junk" }}', /error calling genCAWithKey: parsing private key: no PEM data in input/],
  ['{{ first "x" }}', /error calling first: Cannot find first on type string/],
  ['{{ div 1 0 }}', /error calling div: runtime error: integer divide by zero/],
  ['{{ fail "boom" }}', 'template: t:1:3: executing "t" at <fail "boom">: error calling fail: boom'],
  [
    '{{ regexFind "(?=x)" "x" }}',
    /error calling regexFind: error parsing regexp: invalid or unsupported Perl syntax: `\(\?=`/,
  ],
  ['{{ regexFind "a**" "x" }}', /error parsing regexp: invalid nested repetition operator/],
  ['{{ regexFind "\\\\1" "x" }}', /error parsing regexp: invalid escape sequence: `\\1`/],
  ['{{ regexFind "a{1001}" "x" }}', /error parsing regexp: invalid repeat count/],
  ['{{ semverCompare "bad" "1.0.0" }}', /error calling semverCompare: improper constraint: bad/],
  ['{{ semverCompare ">1" "x.y" }}', /error calling semverCompare: Invalid Semantic Version/],
  ['{{ mustToDate "2006-01-02" "nope" }}', /error calling mustToDate: parsing time "nope"/],
  ['{{ upper 1 }}', 'template: t:1:9: executing "t" at <1>: expected string; found 1'],
  ['{{ .missing | upper }}', 'template: t:1:14: executing "t" at <upper>: invalid value; expected string'],
  ['{{ dig "a" (dict) }}', /dig needs at least three arguments/],
];

for (const [src, want] of errors) {
  test(`error: ${src}`, () => {
    assert.throws(
      () => run(src),
      (e: unknown) => {
        assert.ok(e instanceof TemplateError);
        if (typeof want === 'string') assert.equal(e.message, want);
        else assert.match(e.message, want);
        return true;
      },
    );
  });
}

test('limit errors are TPL_LIMIT, withheld functions TPL_UNAVAILABLE', () => {
  assert.throws(
    () => run('{{ until 10001 }}'),
    (e: unknown) => e instanceof TemplateError && e.code === 'TPL_LIMIT',
  );
  assert.throws(
    () => run('{{ env "X" }}'),
    (e: unknown) => e instanceof TemplateError && e.code === 'TPL_UNAVAILABLE',
  );
});
