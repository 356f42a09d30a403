/**
 * The link to J2's data-only std functions (std/pure/index.ts), kept in one
 * place so the registry does not depend on that folder's layout.
 */
import type { PureStdTable } from './registry.js';
import { pureStd } from './pure/index.js';

export const pureStdTable: PureStdTable | undefined = pureStd;
