local add = function(a, b) a + b;
local curry = function(a) function(b) a + b;
local named(a, b=1, c=2) = a + b + c;
{
  x: add(1, 2),
  y: curry(1)(2),
  z: named(1, c=3),
  w: named(a=1, b=2, c=3,),
  v: std.map(function(x) x * 2, [1, 2]),
  t: std.foldl(function(acc, x)
    acc + x, [1, 2, 3], 0),
}
