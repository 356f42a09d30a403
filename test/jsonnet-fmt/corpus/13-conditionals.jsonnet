local x = 3;
{
  a: if x > 2 then 'big' else 'small',
  b: if x > 2 then
    'big'
  else
    'small',
  c:
    if x == 1 then 'one'
    else if x == 2 then 'two'
    else 'many',
  d: if true then 1,
}
