{
  a: local x = 1; x + 1,
  b:
    local y = 2;
    local z = 3;
    y * z,
  c: [local w = 4; w, 5],
}
