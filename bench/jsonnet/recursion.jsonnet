// Plain recursion: naive Fibonacci and a deep accumulator loop.
local fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2);
local sumTo(n, acc) = if n == 0 then acc else sumTo(n - 1, acc + n) tailstrict;
{
  fib: fib(22),
  sum: sumTo(100000, 0),
}
