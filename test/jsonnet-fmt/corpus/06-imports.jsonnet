local z = import 'z.libsonnet';
local a = import 'a.libsonnet';  // comment a
local m = import "m.libsonnet";

// second group
local y = import 'y.libsonnet';
local b = import 'b.libsonnet';
local s = importstr 's.txt';
local k = import 'k.libsonnet', j = import 'j.libsonnet';

{ z: z, a: a, m: m, y: y, b: b, s: s }
