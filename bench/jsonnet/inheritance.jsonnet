// Deep object inheritance: a chain of 200 mixins, each reading self and super.
local base = { depth: 0, total: 0, name: 'base', label:: 'L' };
local mixin(i) = {
  depth: super.depth + 1,
  total: super.total + i + self.depth,
  name: super.name + '.' + i,
  [if i % 10 == 0 then 'mark' + i]: self.depth,
};
local chain = std.foldl(function(acc, i) acc + mixin(i), std.range(1, 60), base);
{
  result: [chain + { extra: k } for k in std.range(1, 50)],
}
