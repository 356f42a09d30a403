{
  a: 1,
  b: !$.c,
  c: false,
  d: -$.a,
}
