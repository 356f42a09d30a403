local names = ['a', 'b', 'c'];
{
  [name + '_x']: {
    value: name,
  }
  for name in names
  if name != 'b'
}
