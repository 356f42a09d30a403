/**
 * Small shared shapes between program.ts and inputs.ts (kept apart to avoid
 * an import cycle).
 */
import type { Ty } from './types.js';

export interface InputDecl {
  name: string;
  type: Ty;
  hasDefault: boolean;
}
