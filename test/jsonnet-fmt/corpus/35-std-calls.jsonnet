local items = [{ name: 'x', v: 1 }, { name: 'y', v: 2 }];
{
  names: std.map(function(i) i.name, items),
  total: std.foldl(function(a, b) a + b.v, items, 0),
  fmt: std.format('%s=%d', ['a', 1]),
  filtered: std.filter(function(i) i.v > 1,
                       items),
  obj: std.manifestJsonEx({ a: 1 }, '  '),
}
