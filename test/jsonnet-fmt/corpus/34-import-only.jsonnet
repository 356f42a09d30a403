// leading comment
local b = import 'b.jsonnet';
local a = import 'a.jsonnet';
a + b
