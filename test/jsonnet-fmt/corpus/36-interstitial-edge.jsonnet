{ a: 1 /* after value */, /* before b */ b: 2 }
