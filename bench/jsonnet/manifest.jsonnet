// std.manifestYamlDoc / manifestJsonEx of a large value.
local item(i) = {
  name: 'item-%d' % i,
  labels: { app: 'a%d' % (i % 10), tier: if i % 2 == 0 then 'front' else 'back' },
  ports: [{ port: 8000 + j, protocol: 'TCP' } for j in std.range(1, 5)],
  text: 'line one\nline two %d\n' % i,
  enabled: i % 3 == 0,
  ratio: i / 4, // exact in binary: C++ jsonnet 0.18 prints other fractions with a different %.17g
};
local value = { items: [item(i) for i in std.range(1, 12)] };
{
  yaml: std.length(std.manifestYamlDoc(value)),
  json: std.length(std.manifestJsonEx(value, '  ')),
}
