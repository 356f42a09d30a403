/**
 * Dispatch of a command inside a render worker (or the one-shot process).
 * Never throws for bad input: every command returns an outcome with an exit
 * code and the text to print.
 */
import type { CommandParams } from '../../protocol/index.js';
import type { CommandName, CommandOutcome } from '../worker/messages.js';
import { runEval } from './eval.js';
import { runJsonnet } from './jsonnet.js';
import type { RunContext } from './run-context.js';
import { runShow } from './show.js';
import { runTestHook, TEST_HOOK_SUFFIX } from './hooks-for-tests.js';

export type { RunContext };

export function runCommand(command: CommandName, params: CommandParams, ctx: RunContext): CommandOutcome {
  const first = params.args[0];
  if (ctx.testHooks && first?.endsWith(TEST_HOOK_SUFFIX)) return runTestHook(first, params.cwd, ctx.shouldStop);
  switch (command) {
    case 'show':
      return runShow(params, ctx);
    case 'eval':
      return runEval(params, ctx);
    case 'jsonnet':
      return runJsonnet(params, ctx);
  }
}
