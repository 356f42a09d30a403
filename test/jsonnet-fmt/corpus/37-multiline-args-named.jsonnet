local f(a=1, b=2, c=3) = a;
f(
  a=10,
  b=20,
  c=30,
)
