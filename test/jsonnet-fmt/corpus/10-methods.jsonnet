{
  f(x):: x + 1,
  g(x, y=2): x * y,
  h(
    a,
    b,
  ): a + b,
  local helper(z) = z * 2,
  i: helper(3),
  'quoted'(q): q,
}
