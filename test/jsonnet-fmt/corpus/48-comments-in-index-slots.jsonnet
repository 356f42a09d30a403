local lib = import // which library


  'lib.libsonnet';
local arr = [1, 2, 3];
{
  a: arr[1  // index comment


  ],
  b: arr[0:  # slice comment
    2],
  c: lib.  // dot comment
    field,
  d: { x: 1 } { y: super.  // super comment
    x },
  e: { x: 1 } { y: 'x' in  // in comment
    super },
}
