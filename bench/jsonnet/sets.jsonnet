// std.sort / uniq / set operations on 1e5 items.
local n = 500;
local xs = [(i * 7919) % 100003 for i in std.range(1, n)];
local a = std.set(xs);
local b = std.set([x * 2 % 100003 for x in xs]);
{
  sorted: std.length(std.sort(xs)),
  uniq: std.length(std.uniq(std.sort(xs))),
  byKey: std.sort(xs, keyF=function(x) -x)[0],
  union: std.length(std.setUnion(a, b)),
  inter: std.length(std.setInter(a, b)),
  diff: std.length(std.setDiff(a, b)),
  member: std.length([x for x in std.range(1, 100) if std.setMember(x, a)]),
}
