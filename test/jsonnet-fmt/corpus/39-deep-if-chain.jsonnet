local grade(score) =
  if score >= 90 then 'A'
  else if score >= 80 then 'B'
  else if score >= 70 then 'C'
  else 'F';
[grade(95), grade(85), grade(75), grade(10)]
