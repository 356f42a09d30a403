{ [x]: 1, // c
 for y in [1] for x in ["a"]}
