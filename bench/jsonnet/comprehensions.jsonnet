// Large comprehensions and the higher-order std functions.
local n = 5000;
local xs = std.range(1, n);
{
  squares: std.foldl(function(a, b) a + b, std.map(function(x) x * x, xs), 0),
  evens: std.length(std.filter(function(x) x % 2 == 0, xs)),
  pairs: std.length([[a, b] for a in std.range(1, 150) for b in std.range(1, 150) if (a + b) % 7 == 0]),
  obj: std.length(std.objectFields({ ['k' + x]: x for x in xs })),
  nested: std.foldr(function(x, acc) acc + (if x % 3 == 0 then 1 else 0), xs, 0),
}
