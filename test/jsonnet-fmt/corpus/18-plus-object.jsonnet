local a = { x: 1 };
local b = { y: 2 };
{
  c: a + { z: 3 },
  d: a + b,
  e: a.x + { w: 1 }.w,
  f: a
     + { v: 4 },
  g: (a) + { u: 5 },
  h: { t: 6 } + a,
}
