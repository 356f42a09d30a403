import { compileYakl } from './lang/yakl/index.js';
for (const src of [
  'x:\n  args+: [&a 1]\nx+:\n  args+: [2]\n',
  '^^: x\nargs+: [&a 1]\nb: ${a}\n---\n^^+: x\nargs+: [2]\n',
  '^^: x\nargs: [1, &a 2]\nb: ${a}\n---\n^^+: x\nargs+: [3]\n',
  '^^: x\nspec:\n  args+: [&a 1]\n---\n^^+: x\nspec+:\n  args+: [2]\n',
]) {
  const r = compileYakl('t.yakl', src);
  console.log('-----\n' + src + '=>', r.ok ? r.code : JSON.stringify(r.errors));
}
