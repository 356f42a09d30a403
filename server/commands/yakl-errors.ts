/**
 * Error wording for commands that read .yakl files: a YaklError (and an
 * overlay refused by the "apiVersion and kind but no name" rule) already
 * says file:line:column and why, so it is printed as is; everything else is
 * described as describeError does.
 */
import { YaklError } from '../../lang/yakl/index.js';
import { describeError } from './errors.js';

/** An overlay the spec refuses, located at the overlay file's line. */
export class YaklOverlayError extends Error {}

export function describeWithYakl(err: unknown): string {
  if (err instanceof YaklError || err instanceof YaklOverlayError) return err.message;
  return describeError(err);
}
