local a = 1, b = 2,
  c = 3;
local f(x) = x, g(y) = y;
local
  d = 4;
{
  local e = 5,
  local fn(p) = p,
  sum: a + b + c + d + e + fn(1) + f(1) + g(1),
}
