[x for x in [1, 2] if
      x > 0 for y in [1]
 if y
  > 0]
