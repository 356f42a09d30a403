local base = { a: 1, b: { c: 2 } };
base {
  a: super.a + 1,
  b+: { d: super.c },
  e: self.a,
  f: 'a' in super,
  g: super['a'],
  h: $.a,
}
