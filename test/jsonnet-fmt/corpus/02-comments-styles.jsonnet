#!/usr/bin/env jsonnet
# hash comment
// slash comment
/* block comment */
{
  a: 1, # trailing hash
  b: 2, // trailing slash
  /* interstitial */ c: 3,
  d: /* inline */ 4,
  /*
   * multi-line
   * star comment
   */
  e: 5,
     /* weird
        indented
     comment */
  f: 6,
  # another
}
// final comment
