local f(x) = if x == 0 then 0 else f(x - 1) tailstrict;
{
  a: f(3),
  b: if false then error 'never' else 1,
  c: error
    'multi-line error',
}
