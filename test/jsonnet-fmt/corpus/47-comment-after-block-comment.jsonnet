// Our header line
/* first
 second */// trailing line comment

local zeta = import 'zeta.libsonnet';
local alpha = import 'alpha.libsonnet';
{
  /* one
     two */  # hash after block
  x: [alpha, zeta],
  /* inline */ // slash after inline
  y: 1,
}
