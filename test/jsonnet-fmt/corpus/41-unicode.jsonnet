{
  'héllo': "wörld",
  emoji: '😀',
  x: ['日本', "中文"],
}
