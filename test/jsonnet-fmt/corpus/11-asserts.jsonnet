local check(x) =
  assert x > 0 : 'must be positive';
  assert x < 100;
  x;
{
  assert self.a > 0 : 'a must be positive',
  assert self.b != null,
  a: 1,
  b: check(2),
}
