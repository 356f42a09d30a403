{
  visible: 1,
  hidden:: 2,
  forced::: 3,
  plus+: { a: 1 },
  plusHidden+:: { b: 2 },
  plusForced+::: { c: 3 },
}
