{
  a: [x * 2 for x in [1, 2, 3]],
  b: [x + y for x in [1, 2] for y in [3, 4] if x < y],
  c: {[k]: v for k in ['a', 'b'] for v in [1]},
  d: [
    x
    for x in std.range(1, 10)
    if x % 2 == 0
  ],
  e: { [k]: k, for k in ['x'] },
  f: [x, for x in [1]],
}
