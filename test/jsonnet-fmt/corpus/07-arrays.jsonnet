{
  empty: [],
  one: [1],
  many: [1, 2, 3],
  nested: [[1, 2], [3, 4]],
  multi: [
    1, 2,
    3],
  trailing: [1, 2, 3,],
  objs: [{a: 1}, {b: 2}],
  mixed: [{
    a: 1,
  }],
}
