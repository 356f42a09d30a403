{
  a: "tab\there",
  b: 'newline\nhere',
  c: "unicode \u263A",
  d: 'control \u0001',
  e: "backslash \\ ",
  f: 'slash \/',
  g: "\"only double\"",
  h: '\'only single\'',
  i: "mixed \" and '",
}
