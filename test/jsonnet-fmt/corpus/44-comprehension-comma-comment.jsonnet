[x, // c
 for y in [1] for x in [2]]
