{
  a: @"verbatim ""quoted"" \n",
  b: @'single ''q'' \t',
  c: "double with 'single' inside",
  d: 'single with "double" inside',
  e: "both ' and \"",
  f: "escapes \n\t\u00e9 é \/",
  g: 'plain',
  h: "plain",
}
