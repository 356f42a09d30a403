local f(a, b, c) = a;
{
  a: f(1,
       2,
       3),
  b: f(
    1, 2, 3),
  c: f(
    1,
    2,
    3,
  ),
  d: f(1, 2,
       3),
  e: std.join(',', [
    'a',
    'b',
  ]),
}
