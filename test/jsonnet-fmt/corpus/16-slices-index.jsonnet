local arr = [1, 2, 3, 4, 5];
local obj = { a: { b: 1 }, 'c d': 2, 'if': 3 };
{
  s1: arr[1:3],
  s2: arr[::2],
  s3: arr[1::],
  s4: arr[:3],
  s5: arr[1:4:2],
  i1: obj['a']['b'],
  i2: obj['c d'],
  i3: obj['if'],
  i4: obj.a.b,
  s6: 'hello'[1:],
}
