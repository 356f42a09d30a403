{
  a: 1,
}
/* trailing block */
