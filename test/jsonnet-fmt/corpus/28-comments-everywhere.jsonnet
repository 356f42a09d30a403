local /* a */ x /* b */ = /* c */ 1 /* d */;
local f(/* p */ a /* q */, b /* r */) = a + b;
{
  // field comment
  a: x, // after a

  // before b

  b: f(1, // arg comment
       2),
  c: [ // open comment
    1, // one
    2 // two
  ], // close
  d: { /* empty with comment */ },
  e: [/* empty array comment */],
}
