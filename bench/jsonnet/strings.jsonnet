// Heavy string building and % formatting.
local lines = ['%05d|%-10s|%8.3f|%x' % [i, 'name' + i, i / 7, i] for i in std.range(1, 100)];
local joined = std.join('\n', lines);
{
  length: std.length(joined),
  upper: std.length(std.asciiUpper(joined)),
  pieces: std.length(std.split(joined, '|')),
  replaced: std.length(std.strReplace(joined, 'name', 'NAME')),
  built: std.length(std.foldl(function(acc, i) acc + std.toString(i), std.range(1, 300), '')),
}
