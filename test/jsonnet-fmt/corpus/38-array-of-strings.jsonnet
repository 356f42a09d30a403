[
  "alpha",
  "beta", "gamma",
  'delta'
]
