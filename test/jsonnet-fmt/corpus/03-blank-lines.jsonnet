

local a = 1;



local b = 2;


{



  x: a,


  y: b,




}



