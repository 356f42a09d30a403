function(name='world', count=1)
  {
    greeting: 'hello ' + name,
    count: count,
  }
