{
  a: |||
    line one
      indented
    line three
  |||,
  b: |||
      deeper
      text
  |||,
  c: [|||
     in array
  |||, 1],
  d:
    |||
      blank

      lines
    |||,
}
