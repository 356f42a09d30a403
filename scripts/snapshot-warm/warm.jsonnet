// The startup snapshot's warm-up render (scripts/build.mjs, scripts/snapshot-main.cjs): rendered
// once as `show` and once as `jsonnet` while the snapshot is built, so the functions such renders
// run (std, a .json import, manifesting more than one chunk of output) are compiled in the
// snapshot's heap rather than on every one-shot. Kept small: what it runs also leaves its type
// feedback in the heap, and a larger program made small renders slower (inheritance +5%).
local crd = import 'crd.json';
local l = { name: 'x', n: [i * 2 for i in std.range(1, 3)] };
local texts = {
  format: std.join(',', ['%05.2f' % 3.14159, '%s-%d' % ['a', 1], std.strReplace('a-b', '-', '_')]),
  checks: std.objectHasAll(crd, 'spec') && std.objectHas(crd, 'kind') && std.type(crd) == 'object',
  lists: std.foldl(function(acc, x) acc + x, std.filter(function(x) x > 1, std.map(function(x) x * 2, [1, 2])), 0),
  sets: std.set(['b', 'a']) + std.uniq(['a', 'a']) + [std.member(['a'], 'a')],
  pruned: std.prune({ a: null, b: [1] }),
  manifested: std.manifestJsonEx({ a: [1, { b: null }] }, '  '),
  wide: { ['k%03d' % i]: 'value %d' % i for i in std.range(1, 300) },
};
{
  cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: l.name }, data: { v: std.toString(l.n) } },
  crd: crd { metadata+: { labels+: { app: 'warm' } } },
  texts: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'texts' }, data: { [k]: std.toString(texts[k]) for k in std.objectFields(texts) } },
}
