local veryLongFunctionName(argumentNumberOne, argumentNumberTwo, argumentNumberThree) = argumentNumberOne + argumentNumberTwo + argumentNumberThree;
{
  result: veryLongFunctionName(1000000000, 2000000000, 3000000000) + veryLongFunctionName(4000000000, 5000000000, 6000000000),
  str: 'a very long string that goes on and on and on and on and on and on and on and on and on and on',
}
